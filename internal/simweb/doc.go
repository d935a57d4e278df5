// Package simweb is a deterministic simulated web with ground truth, for
// tests, the demo and the benchmarks of focuscrawl.
//
// New builds, from a seed and a number of sites, a compact model of a web:
// sites of several kinds (news portals, forestry and other government
// authorities with ranks, general government portals, bookstores, shops of
// other goods, topical content sites, forums, link farms, ad servers), each
// with a language, a topic, an encoding and traits (slow, failing,
// rate-limited, robots.txt rules, redirects, traps), and every site's page
// table. HTML is never stored: Handler renders each page on demand from
// (seed, host, path), so the same seed always serves byte-identical pages.
//
// The link structure follows what the focused-crawling papers describe:
// linkage and sibling locality (on-topic pages mostly link to on-topic
// pages), hubs, competitor sites that never link to each other, and
// tunnels — relevant clusters reachable only through one to four
// irrelevant pages. Traps (infinite calendars, session ids) and failures
// (5xx, 429 with Retry-After, redirect chains, slow hosts, GBK bodies with
// and without a charset declaration) test the fetcher and the frontier.
//
// Ground truth is exact: Page gives the truth of any URL the web can
// serve, including the infinite trap URLs, and WriteTruth writes the truth
// of every page of the finite graph as JSON Lines.
package simweb
