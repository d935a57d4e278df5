package netguard

import (
	"net/netip"
)

// Address classes, as error records name them.
const (
	ClassLoopback      = "loopback"
	ClassPrivate       = "private"         // RFC 1918
	ClassUniqueLocal   = "unique-local"    // RFC 4193 fc00::/7
	ClassSiteLocal     = "site-local"      // fec0::/10, deprecated by RFC 3879
	ClassLinkLocal     = "link-local"      // 169.254/16, fe80::/10
	ClassCGNAT         = "cgnat"           // RFC 6598 shared address space
	ClassMulticast     = "multicast"       // 224/4, ff00::/8
	ClassUnspecified   = "unspecified"     // 0.0.0.0/8 "this network", ::
	ClassBroadcast     = "broadcast"       // 255.255.255.255
	ClassReserved      = "reserved"        // 240/4, IETF protocol assignments, discard-only
	ClassDocumentation = "documentation"   // TEST-NET-1..3, 2001:db8::/32
	ClassBenchmarking  = "benchmarking"    // 198.18/15
	ClassNAT64Local    = "nat64-local"     // 64:ff9b:1::/48, RFC 8215
	ClassIPv4Compat    = "ipv4-compatible" // ::/96, deprecated by RFC 4291
)

type block struct {
	prefix netip.Prefix
	class  string
}

// blocks4 and blocks6 are the refused ranges. An address in none of them
// is public. Order matters only where ranges nest (broadcast in 240/4).
var (
	blocks4 = []block{
		{mustPrefix("0.0.0.0/8"), ClassUnspecified},
		{mustPrefix("10.0.0.0/8"), ClassPrivate},
		{mustPrefix("100.64.0.0/10"), ClassCGNAT},
		{mustPrefix("127.0.0.0/8"), ClassLoopback},
		{mustPrefix("169.254.0.0/16"), ClassLinkLocal},
		{mustPrefix("172.16.0.0/12"), ClassPrivate},
		{mustPrefix("192.0.0.0/24"), ClassReserved},
		{mustPrefix("192.0.2.0/24"), ClassDocumentation},
		{mustPrefix("192.88.99.0/24"), ClassReserved}, // 6to4 relay anycast, withdrawn
		{mustPrefix("192.168.0.0/16"), ClassPrivate},
		{mustPrefix("198.18.0.0/15"), ClassBenchmarking},
		{mustPrefix("198.51.100.0/24"), ClassDocumentation},
		{mustPrefix("203.0.113.0/24"), ClassDocumentation},
		{mustPrefix("224.0.0.0/4"), ClassMulticast},
		{mustPrefix("255.255.255.255/32"), ClassBroadcast},
		{mustPrefix("240.0.0.0/4"), ClassReserved},
	}
	blocks6 = []block{
		{mustPrefix("::/128"), ClassUnspecified},
		{mustPrefix("::1/128"), ClassLoopback},
		{mustPrefix("::/96"), ClassIPv4Compat},
		{mustPrefix("64:ff9b:1::/48"), ClassNAT64Local},
		{mustPrefix("100::/64"), ClassReserved}, // discard-only
		{mustPrefix("2001:db8::/32"), ClassDocumentation},
		{mustPrefix("3fff::/20"), ClassDocumentation},
		{mustPrefix("fc00::/7"), ClassUniqueLocal},
		{mustPrefix("fe80::/10"), ClassLinkLocal},
		{mustPrefix("fec0::/10"), ClassSiteLocal},
		{mustPrefix("ff00::/8"), ClassMulticast},
	}
	// Prefixes that carry an IPv4 address in their low bits: the
	// embedded address is what the packets finally reach.
	nat64  = mustPrefix("64:ff9b::/96") // RFC 6052 well-known prefix
	sixTo4 = mustPrefix("2002::/16")    // RFC 3056: 2002:AABB:CCDD::
	teredo = mustPrefix("2001::/32")    // RFC 4380: server in bits 32-63, client inverted in 96-127
)

func mustPrefix(s string) netip.Prefix { return netip.MustParsePrefix(s) }

// Classify gives the class of a refused address, or "" for a public one.
// IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) and the IPv4 addresses
// embedded in NAT64, 6to4 and Teredo addresses are classified as IPv4.
func Classify(ip netip.Addr) string {
	ip = ip.WithZone("")
	if ip.Is4In6() {
		ip = ip.Unmap()
	}
	if ip.Is4() {
		return find(blocks4, ip)
	}
	if !ip.Is6() {
		return ClassUnspecified // the zero Addr
	}
	if c := find(blocks6, ip); c != "" {
		return c
	}
	b := ip.As16()
	switch {
	case nat64.Contains(ip):
		return Classify(netip.AddrFrom4([4]byte(b[12:16])))
	case sixTo4.Contains(ip):
		return Classify(netip.AddrFrom4([4]byte(b[2:6])))
	case teredo.Contains(ip):
		client := [4]byte{^b[12], ^b[13], ^b[14], ^b[15]}
		return Classify(netip.AddrFrom4(client))
	}
	return ""
}

func find(blocks []block, ip netip.Addr) string {
	for _, b := range blocks {
		if b.prefix.Contains(ip) {
			return b.class
		}
	}
	return ""
}
