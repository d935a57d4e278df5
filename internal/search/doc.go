// Package search queries web search engines for seed URLs (meta-search,
// docs/algorithms.md §1): several queries, several result pages each, sent
// politely to each engine, and the union of what they found, one result
// per URL with the queries that found it and its best rank.
//
// Two kinds of Engine are built in: SearXNG's JSON API, and Generic, a
// result-page scraper described by a small YAML file (a URL template and
// CSS selectors, with optional unwrapping of redirect links), so users can
// describe Baidu, Bing or Sogou result pages themselves; examples ship in
// examples/engines/.
package search
