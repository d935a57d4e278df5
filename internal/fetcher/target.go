package fetcher

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// MaxURLLength is the longest URL fetched; longer ones get an error
// record (servers reject them anyway, and they bloat every queue).
const MaxURLLength = 16 << 10

// target is a parsed URL with its politeness and robots keys.
type target struct {
	url *url.URL
	// host is the politeness key: the lower-case host, with its port when
	// the URL gives one.
	host string
	// origin is scheme://host:port, the scope of a robots.txt.
	origin string
}

// errInvalidURL marks input URLs that cannot be fetched.
var errInvalidURL = errors.New("invalid url")

// parseTarget checks that raw is a fetchable http(s) URL.
func parseTarget(raw string) (target, error) {
	switch {
	case raw == "":
		return target{}, fmt.Errorf("%w: empty", errInvalidURL)
	case len(raw) > MaxURLLength:
		return target{}, fmt.Errorf("%w: %d bytes, over %d", errInvalidURL, len(raw), MaxURLLength)
	case !utf8.ValidString(raw):
		return target{}, fmt.Errorf("%w: not valid UTF-8", errInvalidURL)
	case strings.ContainsAny(raw, " \t\r\n\x00"):
		return target{}, fmt.Errorf("%w: contains white space or control characters", errInvalidURL)
	}
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return target{}, fmt.Errorf("%w: %v", errInvalidURL, err)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		if scheme == "" {
			return target{}, fmt.Errorf("%w: no scheme (want http:// or https://)", errInvalidURL)
		}
		return target{}, fmt.Errorf("%w: scheme %q is not http or https", errInvalidURL, u.Scheme)
	}
	hostname := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if hostname == "" {
		return target{}, fmt.Errorf("%w: no host", errInvalidURL)
	}
	if u.User != nil {
		// Credentials in URLs leak into logs and WARC files; refuse them.
		return target{}, fmt.Errorf("%w: user info in URL", errInvalidURL)
	}
	// What is fetched is the URL as seed urls and seed add read it
	// (urlx.Normalize, a WHATWG URL parser): a host written as a number
	// (2130706433), in hex or octal (0x7f.1, 0177.0.0.1) or short (127.1)
	// is the IPv4 address it names, and localhost. is localhost; the
	// address policy (netguard) and the politeness key see the address,
	// where a name was sent to DNS before.
	norm, err := urlx.Normalize(raw)
	if err != nil {
		return target{}, fmt.Errorf("%w: %v", errInvalidURL, err)
	}
	if u, err = url.Parse(norm); err != nil {
		return target{}, fmt.Errorf("%w: %v", errInvalidURL, err)
	}
	hostname = strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	port := u.Port()
	key := hostname
	if port != "" {
		key = net.JoinHostPort(hostname, port)
	} else if strings.Contains(hostname, ":") {
		key = "[" + hostname + "]"
	}
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	u.Scheme = scheme
	u.Fragment, u.RawFragment = "", ""
	return target{url: u, host: key, origin: scheme + "://" + net.JoinHostPort(hostname, port)}, nil
}

// robotsPath is the path and query matched against robots.txt rules.
func (t target) robotsPath() string {
	p := t.url.EscapedPath()
	if p == "" {
		p = "/"
	}
	if t.url.RawQuery != "" {
		p += "?" + t.url.RawQuery
	}
	return p
}

// productToken is the robots.txt name of a User-Agent: "focuscrawl" for
// "focuscrawl/0.1 (+https://…)".
func productToken(ua string) string {
	tok, _, _ := strings.Cut(strings.TrimSpace(ua), "/")
	tok, _, _ = strings.Cut(tok, " ")
	return strings.ToLower(tok)
}
