package urlx

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	wurl "github.com/nlnwa/whatwg-url/url"
)

// ErrScheme marks a URL whose scheme is not http or https (mailto:,
// javascript:, ftp: …): nothing a crawler fetches.
var ErrScheme = errors.New("scheme is not http or https")

// ErrHost marks a URL whose host cannot name a server.
var ErrHost = errors.New("invalid host")

// ErrNoScheme marks a relative reference given where an absolute URL was
// needed.
var ErrNoScheme = errors.New("not an absolute URL (no scheme)")

// Options change what Normalize does beyond the rewrites that never change
// meaning.
type Options struct {
	// SortQuery orders the query parameters by name (stable: the values of
	// a repeated name keep their order). Most servers do not care about the
	// order, but some do, so it is off by default.
	SortQuery bool
}

// parser is safe for concurrent use: its options are read-only.
var parser = wurl.NewParser()

// Normalize returns the normal form of an absolute http or https URL.
func Normalize(raw string) (string, error) {
	return NormalizeWith(raw, Options{})
}

// NormalizeWith is Normalize with options.
func NormalizeWith(raw string, o Options) (string, error) {
	if n, ok := fastNormalize(raw, o); ok {
		return n, nil
	}
	u, err := parse(raw)
	if err != nil {
		return "", err
	}
	return format(u, o)
}

// Resolve resolves the reference ref (as found in an href) against the
// absolute URL base and returns the result normalised. References with a
// scheme other than http or https give ErrScheme.
func Resolve(base, ref string) (string, error) {
	b, err := ParseBase(base)
	if err != nil {
		return "", err
	}
	return b.Resolve(ref)
}

// Base is an absolute URL parsed once, to resolve many references
// against it (a page's links): Resolve parses its base on every call.
// A Base is for one goroutine: the parser fills in a parsed URL's query
// parameters on first use.
type Base struct{ u *wurl.Url }

// ParseBase parses base for Base.Resolve.
func ParseBase(base string) (*Base, error) {
	b, err := parse(base)
	if err != nil {
		return nil, fmt.Errorf("base %w", err)
	}
	return &Base{b}, nil
}

// Resolve is Resolve(base, ref) for the base b was parsed from.
func (b *Base) Resolve(ref string) (string, error) {
	u, err := b.u.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("%s: %w", clip(ref), cleanErr(err))
	}
	return format(u, Options{})
}

// Host returns the lower-case host[:port] of a URL (the port only when it
// is not the scheme's default): the key of per-server politeness. It
// returns "" when raw is not a usable URL.
func Host(raw string) string {
	u, ok := parseUsable(raw)
	if !ok {
		return ""
	}
	return hostPort(u)
}

// parseUsable parses raw and tells whether it is a usable URL: one that
// Normalize accepts. Host and Hostname answer "" for the others.
func parseUsable(raw string) (*wurl.Url, bool) {
	u, err := parse(raw)
	if err != nil {
		return nil, false
	}
	if _, err := format(u, Options{}); err != nil {
		return nil, false
	}
	return u, true
}

func parse(raw string) (*wurl.Url, error) {
	u, err := parser.Parse(raw)
	if err != nil {
		if strings.Contains(err.Error(), "missing a scheme") {
			return nil, fmt.Errorf("%s: %w", clip(raw), ErrNoScheme)
		}
		return nil, fmt.Errorf("%s: %w", clip(raw), cleanErr(err))
	}
	return u, nil
}

// cleanErr drops the library's "Error: " prefix and its echo of the URL.
func cleanErr(err error) error {
	msg := strings.TrimPrefix(err.Error(), "Error: ")
	if i := strings.Index(msg, " Url: '"); i >= 0 {
		msg = msg[:i]
	}
	return errors.New(strings.TrimSuffix(msg, "."))
}

// clip shortens a URL quoted in an error message.
func clip(s string) string {
	const max = 120
	if len(s) > max {
		return fmt.Sprintf("%q…", s[:max])
	}
	return fmt.Sprintf("%q", s)
}

func hostPort(u *wurl.Url) string {
	h := strings.TrimSuffix(u.Hostname(), ".")
	if p := u.Port(); p != "" {
		return h + ":" + p
	}
	return h
}

// format writes the normal form of a parsed URL.
func format(u *wurl.Url, o Options) (string, error) {
	scheme := u.Scheme()
	if scheme != "http" && scheme != "https" {
		return "", fmt.Errorf("%s: %w", clip(u.Href(true)), ErrScheme)
	}
	host := u.Hostname()
	if err := checkHost(host, u); err != nil {
		return "", fmt.Errorf("%s: %w", clip(u.Href(true)), err)
	}
	var b strings.Builder
	b.Grow(len(scheme) + len(host) + len(u.Pathname()) + len(u.Query()) + 16)
	b.WriteString(scheme)
	b.WriteString("://")
	if user, pass := u.Username(), u.Password(); user != "" || pass != "" {
		b.WriteString(normPercent(user))
		if pass != "" {
			b.WriteByte(':')
			b.WriteString(normPercent(pass))
		}
		b.WriteByte('@')
	}
	b.WriteString(hostPort(u))
	path := u.Pathname()
	if path == "" {
		path = "/"
	}
	b.WriteString(normPercent(path))
	if q := u.Query(); q != "" {
		q = normPercent(q)
		if o.SortQuery {
			q = sortQuery(q)
		}
		b.WriteByte('?')
		b.WriteString(q)
	}
	return b.String(), nil
}

// checkHost refuses hosts that parse but cannot name a server: empty, or
// with an empty label (".com", "a..b").
func checkHost(host string, u *wurl.Url) error {
	if host == "" {
		return fmt.Errorf("%w: empty", ErrHost)
	}
	if u.IsIPv4() || u.IsIPv6() {
		return nil
	}
	name := strings.TrimSuffix(host, ".")
	if name == "" || strings.HasPrefix(name, ".") || strings.Contains(name, "..") {
		return fmt.Errorf("%w: %q has an empty label", ErrHost, host)
	}
	if len(name) > 253 {
		return fmt.Errorf("%w: longer than 253 bytes", ErrHost)
	}
	return nil
}

// unreserved tells the characters RFC 3986 §2.3 calls unreserved: their
// percent-encoded and plain forms are equivalent, so decoding them never
// changes meaning.
func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func ishex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

const upperHex = "0123456789ABCDEF"

// normPercent upper-cases the hex digits of percent-escapes and decodes
// escapes of unreserved characters (%7e → ~, %41 → A). Everything else,
// reserved characters such as %2F and %26 included, is left as it is.
func normPercent(s string) string {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		if c != '%' || i+2 >= len(s) || !ishex(s[i+1]) || !ishex(s[i+2]) {
			b.WriteByte(c)
			continue
		}
		v := unhex(s[i+1])<<4 | unhex(s[i+2])
		if unreserved(v) {
			b.WriteByte(v)
		} else {
			b.WriteByte('%')
			b.WriteByte(upperHex[v>>4])
			b.WriteByte(upperHex[v&15])
		}
		i += 2
	}
	return b.String()
}

// sortQuery orders the &-separated parameters of q by name, keeping the
// bytes of every parameter exactly as they were; empty parameters (a&&b)
// are dropped.
func sortQuery(q string) string {
	params := strings.Split(q, "&")
	kept := params[:0]
	for _, p := range params {
		if p != "" {
			kept = append(kept, p)
		}
	}
	params = kept
	sort.SliceStable(params, func(i, j int) bool { return paramName(params[i]) < paramName(params[j]) })
	return strings.Join(params, "&")
}

func paramName(p string) string {
	if i := strings.IndexByte(p, '='); i >= 0 {
		return p[:i]
	}
	return p
}

// Hostname returns the lower-case host name of a URL, without port or
// trailing dot (IPv6 addresses in brackets), or "" when raw is not a
// usable URL.
func Hostname(raw string) string {
	if _, ok := fastNormalize(raw, Options{}); ok {
		h, _ := fastHostOf(raw)
		return h
	}
	u, ok := parseUsable(raw)
	if !ok {
		return ""
	}
	return strings.TrimSuffix(u.Hostname(), ".")
}
