package netguard

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Trusted is a set of dial addresses the user named (a search engine's
// endpoint, a sitemap given on the command line), safe for concurrent
// use. Its zero value is empty and ready.
type Trusted struct {
	m sync.Map
}

// AddURL trusts the dial address of a URL (see URLAddr); a URL that does
// not parse or has no host adds nothing.
func (t *Trusted) AddURL(raw string) {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return
	}
	t.m.Store(strings.ToLower(URLAddr(u)), true)
}

// Has tells whether a lower-case "host:port" is trusted.
func (t *Trusted) Has(addr string) bool {
	_, ok := t.m.Load(addr)
	return ok
}

// NewTransport returns an HTTP transport for the project's small clients
// (sitemaps, search engines): proxies from the environment, every other
// dial checked by p unless trusted holds its address (trusted may be nil).
func NewTransport(p Policy, trusted *Trusted, connectTimeout time.Duration) *http.Transport {
	d := &net.Dialer{Timeout: connectTimeout, KeepAlive: 30 * time.Second}
	has := func(string) bool { return false }
	if trusted != nil {
		has = trusted.Has
	}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           p.DialerTrusting(d, has),
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
		MaxIdleConnsPerHost:   4,
	}
}
