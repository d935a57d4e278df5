package main

import (
	"fmt"
	"net/http"
	"net/url"
	"sync/atomic"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/netguard"
)

// flagProxy is seed sitemap's --proxy, fetch's flag of the same name and
// variable (FOCUSCRAWL_PROXY): a crawl behind a proxy reaches sitemaps
// through it too.
const flagProxy = "proxy"

func sitemapProxyFlag() ucli.Flag {
	return &ucli.StringFlag{Name: flagProxy, Usage: "HTTP proxy `URL`", DefaultText: "$HTTP_PROXY, $HTTPS_PROXY, $NO_PROXY", EnvVars: cli.Env(flagProxy)}
}

// countingTransport counts the requests that got an answer in 2xx, so that
// a run where every request failed can say so instead of exiting 0 with
// 0 URLs.
type countingTransport struct {
	next     http.RoundTripper
	requests atomic.Int64
	ok       atomic.Int64
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.requests.Add(1)
	resp, err := t.next.RoundTrip(req)
	if err == nil && resp.StatusCode >= 200 && resp.StatusCode < 300 {
		t.ok.Add(1)
	}
	return resp, err
}

// sitemapTransport is the transport of seed sitemap: --proxy, else the
// proxy of the environment, counted.
func sitemapTransport(c *ucli.Context) (*countingTransport, error) {
	// Every dial is checked against private and special addresses, but for
	// the proxy the user named (and proxies from the environment).
	trusted := &netguard.Trusted{}
	tr := netguard.NewTransport(netPolicy(c), trusted, c.Duration(flagTimeout))
	if p := c.String(flagProxy); p != "" {
		u, err := url.Parse(p)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "socks5") {
			return nil, cli.Usagef("--%s %q: want a proxy URL such as http://127.0.0.1:3128", flagProxy, p)
		}
		tr.Proxy = http.ProxyURL(u)
		trusted.AddURL(p)
	}
	return &countingTransport{next: tr}, nil
}

// allFailed is the error of a run that found no URL because every
// request failed; last is the last error reported.
func allFailed(tr *countingTransport, failures int, last string) error {
	if tr.ok.Load() > 0 || failures == 0 {
		return nil
	}
	return fmt.Errorf("no URLs: all %d sitemap requests failed (last: %s)", failures, last)
}
