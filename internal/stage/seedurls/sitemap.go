package seedurls

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/netguard"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/sitemap"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// SitemapOptions are the settings of one run of seed sitemap.
type SitemapOptions struct {
	// Starts are site roots, robots.txt URLs, sitemap URLs or local
	// sitemap files; when there are none, they are read from the input,
	// one URL or url record a line.
	Starts      []string
	Since       time.Time // keep only URLs with a lastmod on or after (zero: all)
	MaxSitemaps int       // sitemap files read at most (0: no limit)
	MaxURLs     int       // stop after (0: no limit)
	MaxBytes    int64     // largest sitemap file, decompressed
	AnyHost     bool      // keep URLs of other sites than the sitemap's
	Delay       time.Duration
	Timeout     time.Duration
	UserAgent   string
	Proxy       *url.URL // nil: the proxy of the environment
	Net         netguard.Policy
}

// SitemapMeta is the meta object of a url record from seed sitemap.
type SitemapMeta struct {
	LastMod    string  `json:"lastmod,omitempty"`
	ChangeFreq string  `json:"changefreq,omitempty"`
	Priority   float64 `json:"priority,omitempty"`
	Sitemap    string  `json:"sitemap"`
}

// Sitemap is seed sitemap from Go: it writes one url record per URL of
// the sitemaps of o.Starts, or of the starts read from in, to out.
func Sitemap(ctx context.Context, in io.Reader, out io.Writer, o SitemapOptions) error {
	s := cli.NewStream(in, out, nil)
	return firstErr(SitemapStream(ctx, s, o), s.Close())
}

// ParseProxy checks a --proxy URL.
func ParseProxy(p string) (*url.URL, error) {
	u, err := url.Parse(p)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "socks5") {
		return nil, fmt.Errorf("%q: want a proxy URL such as http://127.0.0.1:3128", p)
	}
	return u, nil
}

// errEnough stops a walk at MaxURLs.
var errEnough = errors.New("enough URLs")

// SitemapStream is seed sitemap over an open stream: failed requests are
// logged and the summary at the end. It does not close s. It fails when
// every request failed.
func SitemapStream(ctx context.Context, s *cli.Stream, o SitemapOptions) error {
	starts := o.Starts
	if len(starts) == 0 {
		var err error
		if starts, err = readStarts(s); err != nil {
			return err
		}
	}
	transport := sitemapTransport(o)
	var failures int
	var lastFailure string
	w := &sitemap.Walker{
		Client:    &http.Client{Timeout: o.Timeout, Transport: transport},
		UserAgent: o.UserAgent, MaxSitemaps: o.MaxSitemaps, MaxBytes: o.MaxBytes, Delay: o.Delay, AnyHost: o.AnyHost,
		OnError: func(loc string, err error) {
			failures++
			lastFailure = jsonl.Echo(fmt.Sprintf("%s: %v", loc, err)) // a <loc> may be 100 KB
			s.Log.Errorf("%s", lastFailure)
		},
	}
	n, old := 0, 0
	err := w.Walk(ctx, starts, func(f sitemap.Found) error {
		if !o.Since.IsZero() {
			if t, ok := f.Modified(); ok && t.Before(o.Since) {
				old++
				return nil
			}
		}
		meta, err := json.Marshal(SitemapMeta{LastMod: f.LastMod, ChangeFreq: f.ChangeFreq, Priority: f.Priority, Sitemap: f.Sitemap})
		if err != nil {
			return err
		}
		u := record.URL{URL: f.Loc, Meta: meta}
		u.Site = urlx.SiteKey(f.Loc)
		if err := s.Out.Write(u); err != nil {
			return err
		}
		if n++; o.MaxURLs > 0 && n >= o.MaxURLs {
			return errEnough
		}
		return nil
	})
	if errors.Is(err, errEnough) {
		err = nil
	}
	if err == nil && n == 0 && old == 0 && transport.ok.Load() == 0 && failures > 0 {
		err = fmt.Errorf("no URLs: all %d sitemap requests failed (last: %s)", failures, lastFailure)
	}
	if old > 0 {
		s.Log.Infof("%d URLs, %d older than --since left out", n, old)
	} else {
		s.Log.Infof("%d URLs", n)
	}
	return err
}

// readStarts reads the starting points from the input, one URL per line
// or url record.
func readStarts(s *cli.Stream) ([]string, error) {
	var out []string
	for {
		l, err := s.In.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			if errors.Is(err, jsonl.ErrLineTooLong) {
				s.Rejects.Reject(l, err)
				continue
			}
			return out, err
		}
		u, err := jsonl.DecodeURL(l.Bytes)
		if errors.Is(err, jsonl.ErrComment) {
			continue
		}
		if err != nil {
			s.Rejects.Reject(l, err)
			continue
		}
		out = append(out, u.URL)
	}
}

// countingTransport counts the requests answered in 2xx, so that a run
// where every request failed can say so instead of exiting 0 with 0 URLs.
type countingTransport struct {
	next http.RoundTripper
	ok   atomic.Int64
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err == nil && resp.StatusCode >= 200 && resp.StatusCode < 300 {
		t.ok.Add(1)
	}
	return resp, err
}

// sitemapTransport is the transport of seed sitemap: o.Proxy, else the
// proxy of the environment, counted.
func sitemapTransport(o SitemapOptions) *countingTransport {
	// Every dial is checked against private and special addresses, but for
	// the proxy the user named (and proxies from the environment).
	trusted := &netguard.Trusted{}
	tr := netguard.NewTransport(o.Net, trusted, o.Timeout)
	if o.Proxy != nil {
		tr.Proxy = http.ProxyURL(o.Proxy)
		trusted.AddURL(o.Proxy.String())
	}
	return &countingTransport{next: tr}
}
