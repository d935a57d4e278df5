package urlx

import "strings"

// fastNormalize handles the common case without the full WHATWG parser: an
// http(s) URL already in normal form except perhaps for a fragment. It
// accepts only URLs on which the parser and format would change nothing
// but the fragment, and reports ok=false for everything else (upper case,
// default or odd ports, userinfo, IP-like or punycode hosts, dot segments,
// lower-case or unreserved escapes, characters the parser would encode),
// which then take the slow path. TestFastPathAgrees and FuzzFastPath hold
// it to that.
func fastNormalize(s string, o Options) (string, bool) {
	var rest string
	var defPort string
	switch {
	case strings.HasPrefix(s, "https://"):
		rest, defPort = s[8:], "443"
	case strings.HasPrefix(s, "http://"):
		rest, defPort = s[7:], "80"
	default:
		return "", false
	}
	// Authority: lower-case host, optional port.
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	host, port, hasPort := strings.Cut(rest[:end], ":")
	if !fastHost(host) {
		return "", false
	}
	if hasPort && !fastPort(port, defPort) {
		return "", false
	}
	n := len(s) - len(rest) + end // end of the authority in s
	// Path.
	i := n
	for i < len(s) && s[i] != '?' && s[i] != '#' {
		i++
	}
	path := s[n:i]
	if !fastPath(path) {
		return "", false
	}
	// Query.
	j := i
	if j < len(s) && s[j] == '?' {
		j++
		for j < len(s) && s[j] != '#' {
			j++
		}
		if j == i+1 || !fastQuery(s[i+1:j]) {
			return "", false // empty query: the slow path drops the '?'
		}
	}
	// Fragment: dropped, but its bytes must be ones the parser keeps as
	// they are (it strips tabs and newlines anywhere, for instance).
	for k := j; k < len(s); k++ {
		if s[k] <= ' ' || s[k] >= 0x7f {
			return "", false
		}
	}
	out := s[:j]
	if path == "" {
		out = s[:n] + "/" + s[i:j]
	}
	if o.SortQuery && j > i {
		out = out[:len(out)-(j-i-1)] + sortQuery(s[i+1:j])
	}
	return out, true
}

// fastHost accepts lower-case DNS names whose labels are plain letters,
// digits, '-' and '_': no IDN (xn--), no trailing dot, and a last label
// that starts with a letter, so nothing the parser could read as an IPv4
// address.
func fastHost(h string) bool {
	if h == "" || len(h) > 253 || strings.Contains(h, "xn--") {
		return false
	}
	start := 0
	for k := 0; k <= len(h); k++ {
		if k < len(h) && h[k] != '.' {
			c := h[k]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
			continue
		}
		if k == start { // empty label
			return false
		}
		start = k + 1
	}
	// A top-level label starting with a letter cannot end in a number.
	last := h[strings.LastIndexByte(h, '.')+1:]
	return 'a' <= last[0] && last[0] <= 'z' && !strings.HasPrefix(last, "0x")
}

// fastPort accepts a non-default port without leading zeros.
func fastPort(p, def string) bool {
	if p == "" || p == def || len(p) > 5 || p[0] == '0' || !allDigits(p) {
		return false
	}
	return len(p) < 5 || p <= "65535"
}

// pathSafe marks the bytes the parser leaves alone in a path (and that
// need no normalising): unreserved, sub-delims, ':', '@', '/'.
var pathSafe, querySafe [256]bool

func init() {
	for c := 'a'; c <= 'z'; c++ {
		pathSafe[c], pathSafe[c-'a'+'A'] = true, true
	}
	for c := '0'; c <= '9'; c++ {
		pathSafe[c] = true
	}
	for _, c := range "-._~!$&()*+,;=:@/" {
		pathSafe[c] = true
	}
	querySafe = pathSafe
	querySafe['?'] = true
}

// fastPath accepts "" or a path of safe bytes and upper-case escapes of
// reserved bytes, with no "." or ".." segment.
func fastPath(p string) bool {
	if p == "" {
		return true
	}
	if !fastChars(p, &pathSafe) {
		return false
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

func fastQuery(q string) bool { return fastChars(q, &querySafe) }

func fastChars(s string, safe *[256]bool) bool {
	for k := 0; k < len(s); k++ {
		c := s[k]
		if safe[c] {
			continue
		}
		if c != '%' || k+2 >= len(s) {
			return false
		}
		h, l := s[k+1], s[k+2]
		if !upperHexDigit(h) || !upperHexDigit(l) || unreserved(unhex(h)<<4|unhex(l)) {
			return false
		}
		k += 2
	}
	return true
}

func upperHexDigit(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }
