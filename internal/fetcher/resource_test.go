package fetcher

import (
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// TestFetchResource: a rendering browser's requests go through the page
// machinery — robots.txt, the host's delay shared with pages, the address
// guard — and come back raw: any media type, decoded from gzip, a redirect
// answered rather than followed.
func TestFetchResource(t *testing.T) {
	var mu sync.Mutex
	var times []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
			return
		}
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
		switch r.URL.Path {
		case "/data.json":
			if r.Header.Get("Accept") != "application/json" || !strings.HasPrefix(r.Header.Get("User-Agent"), "focuscrawl") {
				http.Error(w, "bad headers", 400)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Encoding", "gzip")
			gz := gzip.NewWriter(w)
			gz.Write([]byte(`{"a":1}`))
			gz.Close()
		case "/moved":
			http.Redirect(w, r, "/data.json", http.StatusFound)
		case "/private/x":
			t.Errorf("robots.txt-disallowed resource was requested")
		default:
			w.Write([]byte("<p>page</p>"))
		}
	}))
	defer srv.Close()
	cfg := testConfig()
	cfg.Delay = 150 * time.Millisecond
	f := newFetcher(t, srv, cfg)
	ctx := context.Background()
	if p := f.Fetch(ctx, record.URL{URL: hostURL(srv, "web.example", "/page")}); p.Error != "" {
		t.Fatalf("page: %s", p.Error)
	}
	res, err := f.FetchResource(ctx, hostURL(srv, "web.example", "/data.json"), http.Header{"Accept": {"application/json"}})
	if err != nil || res.Status != 200 || string(res.Body) != `{"a":1}` || res.Header.Get("Content-Encoding") != "" {
		t.Fatalf("data.json: %+v %v", res, err)
	}
	res, err = f.FetchResource(ctx, hostURL(srv, "web.example", "/moved"), nil)
	if err != nil || res.Status != http.StatusFound || res.Header.Get("Location") != "/data.json" {
		t.Fatalf("redirect: %+v %v", res, err)
	}
	if _, err = f.FetchResource(ctx, hostURL(srv, "web.example", "/private/x"), nil); err == nil || !IsRobots(err.Error()) {
		t.Errorf("disallowed resource: error %v, want robots-disallow", err)
	}
	mu.Lock()
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < cfg.Delay {
			t.Errorf("request %d came %v after the one before, under the host's delay %v", i, gap, cfg.Delay)
		}
	}
	mu.Unlock()
	if n := f.Stats().Snapshot(); n.Pages != 1 || n.Resources != 3 {
		t.Errorf("stats: %d pages %d resources, want 1 and 3", n.Pages, n.Resources)
	}

	// Not loopback unless allowed: the guard refuses the dial.
	g, err := New(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, err := g.FetchResource(ctx, srv.URL+"/data.json", nil); err == nil || ErrorKind(err.Error()) != KindBlocked {
		t.Errorf("loopback resource: error %v, want blocked address", err)
	}
}
