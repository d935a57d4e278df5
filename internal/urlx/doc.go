// Package urlx normalises URLs and derives the keys a crawler groups them
// by: the host (politeness), the site (the registrable domain, via the
// public suffix list) and the AbstractURL of docs/algorithms.md §1 (path, file
// and sorted query parameter names), under which pages of one site are
// assumed to score alike.
//
// Normalisation follows the WHATWG URL standard, as browsers parse links,
// and then applies only rewrites that never change what a server receives
// or how it is understood: scheme and host lower-cased, default port
// dropped, dot segments resolved, IDN hosts in punycode, percent-escapes
// upper-cased and unreserved characters decoded, an empty query and the
// fragment removed. A %2F in a path stays %2F, and repeated slashes and
// the order of query parameters are kept unless the caller asks for the
// parameters to be sorted.
package urlx
