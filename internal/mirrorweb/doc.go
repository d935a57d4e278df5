// Package mirrorweb serves a static mirror of real websites as one web on
// loopback, and measures focused crawls of it against a truth given by
// path rules.
//
// A mirror is made of sources: directory trees, each served as one host
// (HOST=DIR: directory indexes, content types by extension, bytes exactly
// as stored, robots.txt as stored or 404), and WARC files (WARC/1.0 and
// 1.1 response and resource records, gzipped per record or not), whose
// records are replayed as they were captured. Every other host answers as
// unreachable: 502 with an RFC 9209 Proxy-Status naming dns_error, as a
// forward proxy that cannot resolve it would. Hosts can be declared down
// (connection refused or timing out) to exercise a crawler's host state.
//
// The truth of a mirror is its link graph from a portal page, walked in
// process by Build: every URL a page links to, whether it can be fetched
// (unknown host, down, robots.txt), how far it is from the portal, and
// its relevance to each topic by the topic's path rules. Evaluate then
// judges a crawl from its records in fetch order: harvest rate at
// checkpoints, recall of the relevant pages reachable from the portal,
// the fetch slots lost to URLs that could never be fetched, and the upper
// bound: the harvest of a crawler that knows the truth and the link graph.
package mirrorweb
