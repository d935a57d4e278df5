package urlx

import (
	"net/netip"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// SiteKey returns the site a host or URL belongs to: its registrable
// domain (lyj.zj.gov.cn → zj.gov.cn, www.example.co.uk → example.co.uk),
// by the public suffix list, private suffixes included (alice.github.io is
// a site of its own). IP addresses, single-label hosts (localhost) and
// hosts that are themselves public suffixes are their own site. The port
// is dropped. It returns "" when hostOrURL names no host.
func SiteKey(hostOrURL string) string {
	host := hostOnly(hostOrURL)
	if host == "" {
		return ""
	}
	if strings.HasPrefix(host, "[") || isIP(host) || !strings.Contains(host, ".") {
		return host
	}
	site, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return host
	}
	return site
}

// hostOnly extracts the lower-case host name, without port or trailing
// dot, from a URL or from a bare host[:port].
func hostOnly(s string) string {
	if h, ok := fastHostOf(s); ok {
		return h
	}
	if strings.Contains(s, "://") {
		u, err := parse(s)
		if err != nil {
			return ""
		}
		return strings.TrimSuffix(u.Hostname(), ".")
	}
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") { // [v6]:port
		if i := strings.IndexByte(s, ']'); i > 0 {
			return strings.ToLower(s[:i+1])
		}
		return ""
	}
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, ':'); i >= 0 && strings.Count(s, ":") == 1 {
		if !allDigits(s[i+1:]) {
			return "" // scheme:opaque, such as mailto:x@y
		}
		s = s[:i]
	}
	if s == "" || strings.ContainsAny(s, "@ ") {
		return ""
	}
	// Parse as a URL so IDN hosts come out in punycode, as in URLs.
	u, err := parser.Parse("http://" + s + "/")
	if err != nil {
		return strings.TrimSuffix(strings.ToLower(s), ".")
	}
	return strings.TrimSuffix(u.Hostname(), ".")
}

func isIP(host string) bool {
	_, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// fastHostOf extracts the host of an http(s) URL whose host is already in
// normal form (plain lower-case DNS name or IPv4 address), without parsing
// the whole URL.
func fastHostOf(s string) (string, bool) {
	var rest string
	switch {
	case strings.HasPrefix(s, "https://"):
		rest = s[8:]
	case strings.HasPrefix(s, "http://"):
		rest = s[7:]
	default:
		return "", false
	}
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		rest = rest[:end]
	}
	if strings.ContainsAny(rest, "@[") {
		return "", false
	}
	if i := strings.IndexByte(rest, ':'); i >= 0 {
		p := strings.TrimLeft(rest[i+1:], "0")
		if !allDigits(p) || len(p) > 5 || len(p) == 5 && p > "65535" {
			return "", false
		}
		rest = rest[:i]
	}
	if fastHost(rest) {
		return rest, true
	}
	if a, err := netip.ParseAddr(rest); err == nil && a.Is4() && a.String() == rest {
		return rest, true
	}
	return "", false
}
