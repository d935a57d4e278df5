package fetcher

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// testConfig is a fast configuration: no delay, short backoff.
func testConfig() Config {
	c := Defaults()
	c.Delay = 0
	c.Backoff = 5 * time.Millisecond
	c.MaxBackoff = 20 * time.Millisecond
	c.Timeout = 5 * time.Second
	c.Concurrency = 16
	return c
}

// newFetcher builds a fetcher whose every host name resolves to srv.
func newFetcher(t *testing.T, srv *httptest.Server, cfg Config) *Fetcher {
	t.Helper()
	if srv != nil {
		_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
		if cfg.Resolve == nil {
			cfg.Resolve = map[string]string{}
		}
		cfg.Resolve["*:"+port] = "127.0.0.1"
	}
	f, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// hostURL gives the URL of path on a virtual host served by srv.
func hostURL(srv *httptest.Server, host, path string) string {
	u, _ := url.Parse(srv.URL)
	return fmt.Sprintf("%s://%s:%s%s", u.Scheme, host, u.Port(), path)
}

// runAll feeds urls through Run and collects the pages.
func runAll(t *testing.T, ctx context.Context, f *Fetcher, urls []record.URL) []record.Page {
	t.Helper()
	in := make(chan record.URL)
	out := make(chan record.Page, 8)
	go func() {
		defer close(in)
		for _, u := range urls {
			select {
			case in <- u:
			case <-ctx.Done():
				return
			}
		}
	}()
	done := make(chan struct{})
	var pages []record.Page
	go func() {
		defer close(done)
		for p := range out {
			pages = append(pages, p)
		}
	}()
	f.Run(ctx, in, out)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("out was not closed")
	}
	return pages
}

func urlRecords(urls ...string) []record.URL {
	rs := make([]record.URL, len(urls))
	for i, u := range urls {
		rs[i] = record.URL{URL: u}
	}
	return rs
}

// hits records requests per host and path, with their arrival times.
type hits struct {
	mu    sync.Mutex
	times map[string][]time.Time // host -> arrivals (robots.txt included)
	paths map[string]int         // host+path -> count
}

func newHits() *hits {
	return &hits{times: map[string][]time.Time{}, paths: map[string]int{}}
}

func (h *hits) add(r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	host, _, _ := net.SplitHostPort(r.Host)
	h.times[host] = append(h.times[host], time.Now())
	h.paths[host+r.URL.Path]++
}

func (h *hits) count(hostPath string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.paths[hostPath]
}

func (h *hits) arrivals(host string) []time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]time.Time(nil), h.times[host]...)
}

func htmlHandler(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}
}
