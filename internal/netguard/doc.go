// Package netguard keeps the crawler's HTTP clients away from addresses a
// stranger's link should not reach: loopback, private networks, link-local
// (the cloud metadata services), shared CGNAT space, multicast and the
// other special-purpose blocks of the IANA registries.
//
// The check runs when a connection is dialled (net.Dialer.Control), on the
// address actually connected to, so neither a DNS answer nor a redirect
// can get around it. Dials to addresses the user named explicitly (a
// proxy, a --resolve target, a search engine endpoint) are not checked:
// they are the user's choice.
package netguard
