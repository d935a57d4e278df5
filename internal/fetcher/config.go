package fetcher

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/version"
)

// DefaultUserAgent names the project and where to read about it.
const DefaultUserAgent = "focuscrawl/" + version.Version + " (+https://github.com/focuscrawl/focuscrawl)"

// DefaultAccept are the media types whose bodies are kept by default.
var DefaultAccept = []string{"text/html", "application/xhtml+xml"}

// Config holds the fetcher's settings. Start from Defaults and change what
// you need: Delay, Retries, MaxRedirects and MaxCrawlDelay take zero
// literally (no delay, no retry, …); the other fields take their default
// when left zero.
type Config struct {
	// UserAgent is sent with every request and matched against robots.txt
	// groups by its product token (the text before the first "/").
	UserAgent string
	// Concurrency is the number of requests in flight over all hosts.
	Concurrency int
	// PerHost is the number of requests in flight to one host.
	PerHost int
	// Delay spaces the requests to one host.
	Delay time.Duration
	// MaxCrawlDelay caps the Crawl-delay a robots.txt may ask for.
	MaxCrawlDelay time.Duration
	// Retries is how many times a retriable failure is tried again.
	Retries int
	// Backoff is the base of the exponential backoff; MaxBackoff caps it.
	Backoff, MaxBackoff time.Duration
	// MaxRetryAfter is the longest Retry-After honoured; a server asking
	// for more gets an error record instead of a retry.
	MaxRetryAfter time.Duration
	// Timeout bounds one whole attempt: connect, headers and body.
	Timeout time.Duration
	// ConnectTimeout, TLSTimeout and HeaderTimeout bound the TCP connect,
	// the TLS handshake and the wait for response headers.
	ConnectTimeout, TLSTimeout, HeaderTimeout time.Duration
	// MaxBytes caps the body, on the wire and after decompression; a body
	// cut there is marked truncated.
	MaxBytes int64
	// MaxRedirects is the number of redirects followed.
	MaxRedirects int
	// Accept lists the media types whose bodies are kept ("text/*",
	// "*/*" and "+xml"-style suffix patterns "*/*+xml" work).
	Accept []string
	// IgnoreRobots skips robots.txt entirely.
	IgnoreRobots bool
	// RobotsTTL is how long a robots.txt is cached; RobotsErrorTTL how long
	// a host whose robots.txt failed with 5xx or could not be reached is
	// treated as disallowing everything.
	RobotsTTL, RobotsErrorTTL time.Duration
	// Proxy is an HTTP proxy URL; empty means the HTTP_PROXY, HTTPS_PROXY
	// and NO_PROXY environment variables.
	Proxy string
	// Resolve maps "host:port" to "addr" or "addr:port", like curl's
	// --resolve; "*" stands for any host or any port.
	Resolve map[string]string
	// AllowPrivate lets requests reach loopback, private, link-local and
	// the other addresses netguard refuses. Without it such a dial fails
	// with a "blocked address" error record, wherever the address came
	// from (input, a DNS answer, a redirect). The Proxy and the Resolve
	// targets are always allowed: the user named them.
	AllowPrivate bool
	// Insecure skips TLS certificate verification.
	Insecure bool
	// Cookies keeps the cookies servers set, in memory, for the run: some
	// sites answer a first visit with a cookie and a redirect back.
	Cookies bool
	// Header holds extra request headers (Accept-Language, Referer, …).
	// Host and Accept-Encoding cannot be set: the fetcher owns them.
	Header http.Header
	// Queue is the most URLs waiting in the per-host queues at once.
	Queue int
	// WARC, when set, receives every HTTP exchange.
	WARC ExchangeWriter
	// Warnf, when set, receives warnings worth a line on stderr (a host
	// disallowed because its robots.txt failed).
	Warnf func(format string, args ...any)
}

// Defaults returns the default configuration.
func Defaults() Config {
	return Config{
		UserAgent:      DefaultUserAgent,
		Concurrency:    64,
		PerHost:        1,
		Delay:          time.Second,
		MaxCrawlDelay:  30 * time.Second,
		Retries:        2,
		Backoff:        time.Second,
		MaxBackoff:     time.Minute,
		MaxRetryAfter:  2 * time.Minute,
		Timeout:        30 * time.Second,
		ConnectTimeout: 10 * time.Second,
		TLSTimeout:     10 * time.Second,
		MaxBytes:       10 << 20,
		MaxRedirects:   10,
		Accept:         DefaultAccept,
		RobotsTTL:      24 * time.Hour,
		RobotsErrorTTL: 10 * time.Minute,
		Queue:          10000,
		Cookies:        true,
	}
}

// withDefaults fills zero fields from Defaults and checks the rest.
func (c Config) withDefaults() (Config, error) {
	d := Defaults()
	var errs []error
	if c.UserAgent == "" {
		c.UserAgent = d.UserAgent
	}
	setInt := func(v *int, def int) {
		if *v == 0 {
			*v = def
		}
	}
	setDur := func(v *time.Duration, def time.Duration) {
		if *v == 0 {
			*v = def
		}
	}
	setInt(&c.Concurrency, d.Concurrency)
	setInt(&c.PerHost, d.PerHost)
	setInt(&c.Queue, d.Queue)
	setDur(&c.Backoff, d.Backoff)
	setDur(&c.MaxBackoff, d.MaxBackoff)
	setDur(&c.MaxRetryAfter, d.MaxRetryAfter)
	setDur(&c.Timeout, d.Timeout)
	setDur(&c.ConnectTimeout, min(d.ConnectTimeout, c.Timeout))
	setDur(&c.TLSTimeout, min(d.TLSTimeout, c.Timeout))
	setDur(&c.HeaderTimeout, c.Timeout)
	setDur(&c.RobotsTTL, d.RobotsTTL)
	setDur(&c.RobotsErrorTTL, d.RobotsErrorTTL)
	if c.MaxBytes == 0 {
		c.MaxBytes = d.MaxBytes
	}
	if c.Retries < 0 {
		errs = append(errs, fmt.Errorf("retries %d: must not be negative", c.Retries))
	}
	if len(c.Accept) == 0 {
		c.Accept = d.Accept
	}
	if c.Concurrency < 0 {
		errs = append(errs, fmt.Errorf("concurrency %d: must be at least 1", c.Concurrency))
	}
	if c.PerHost < 0 {
		errs = append(errs, fmt.Errorf("per-host %d: must be at least 1", c.PerHost))
	}
	if c.MaxBytes < 0 {
		errs = append(errs, fmt.Errorf("max-bytes %d: must be positive", c.MaxBytes))
	}
	if c.MaxRedirects < 0 {
		errs = append(errs, fmt.Errorf("max-redirects %d: must not be negative", c.MaxRedirects))
	}
	if c.Queue < 0 {
		errs = append(errs, fmt.Errorf("queue %d: must be at least 1", c.Queue))
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"delay", c.Delay}, {"timeout", c.Timeout}, {"connect-timeout", c.ConnectTimeout}, {"tls-timeout", c.TLSTimeout},
		{"header-timeout", c.HeaderTimeout}, {"backoff", c.Backoff}, {"max-backoff", c.MaxBackoff},
		{"max-crawl-delay", c.MaxCrawlDelay}, {"max-retry-after", c.MaxRetryAfter},
		{"robots-ttl", c.RobotsTTL}, {"robots-error-ttl", c.RobotsErrorTTL}} {
		if d.v < 0 {
			errs = append(errs, fmt.Errorf("%s %v: must not be negative", d.name, d.v))
		}
	}
	if c.Proxy != "" {
		u, err := url.Parse(c.Proxy)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "socks5") {
			errs = append(errs, fmt.Errorf("proxy %q: not an http://, https:// or socks5:// URL", c.Proxy))
		}
	}
	for name := range c.Header {
		switch http.CanonicalHeaderKey(name) {
		case "Host", "Accept-Encoding", "Content-Length", "Connection", "Transfer-Encoding":
			errs = append(errs, fmt.Errorf("header %q: set by the fetcher itself", name))
		}
	}
	c.Accept = append([]string(nil), c.Accept...)
	for i, a := range c.Accept {
		a = strings.ToLower(strings.TrimSpace(a))
		if !strings.Contains(a, "/") {
			errs = append(errs, fmt.Errorf("accept %q: not a media type like text/html", a))
		}
		c.Accept[i] = a
	}
	return c, errors.Join(errs...)
}

// ParseResolve parses curl-style HOST:PORT:ADDR entries into the Resolve
// map. ADDR is an IP address or IP:PORT; IPv6 addresses go in brackets.
// HOST and PORT may be "*".
func ParseResolve(entries []string) (map[string]string, error) {
	m := map[string]string{}
	for _, e := range entries {
		host, rest, ok := cutHost(e)
		if !ok {
			return nil, fmt.Errorf("resolve %q: want HOST:PORT:ADDR", e)
		}
		port, addr, ok := strings.Cut(rest, ":")
		if !ok || port == "" || addr == "" {
			return nil, fmt.Errorf("resolve %q: want HOST:PORT:ADDR", e)
		}
		if port != "*" {
			if _, err := net.LookupPort("tcp", port); err != nil {
				return nil, fmt.Errorf("resolve %q: bad port %q", e, port)
			}
		}
		if h, p, err := net.SplitHostPort(addr); err == nil {
			if net.ParseIP(h) == nil {
				return nil, fmt.Errorf("resolve %q: %q is not an IP address", e, h)
			}
			if _, err := net.LookupPort("tcp", p); err != nil {
				return nil, fmt.Errorf("resolve %q: bad port %q", e, p)
			}
		} else if net.ParseIP(strings.Trim(addr, "[]")) == nil {
			return nil, fmt.Errorf("resolve %q: %q is not an IP address or IP:PORT", e, addr)
		}
		m[strings.ToLower(host)+":"+port] = addr
	}
	return m, nil
}

// ParseHeaders parses curl-style "Name: value" entries into a header.
func ParseHeaders(entries []string) (http.Header, error) {
	h := http.Header{}
	for _, e := range entries {
		name, value, ok := strings.Cut(e, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") || strings.ContainsAny(value, "\r\n") {
			return nil, fmt.Errorf("header %q: want \"Name: value\"", e)
		}
		h.Add(name, strings.TrimSpace(value))
	}
	return h, nil
}

// cutHost splits "host:rest" or "[v6]:rest".
func cutHost(s string) (host, rest string, ok bool) {
	if strings.HasPrefix(s, "[") {
		end := strings.Index(s, "]:")
		if end < 0 {
			return "", "", false
		}
		return s[1:end], s[end+2:], true
	}
	host, rest, ok = strings.Cut(s, ":")
	return host, rest, ok && host != ""
}
