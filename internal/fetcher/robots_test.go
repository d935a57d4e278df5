package fetcher

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// robotsServer serves robots.txt per host from a map (status, body), and
// counts page requests.
func robotsServer(t *testing.T, robots map[string]func(http.ResponseWriter), pages *atomic.Int64, robotsHits *atomic.Int64) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.Split(r.Host, ":")[0]
		if r.URL.Path == "/robots.txt" {
			robotsHits.Add(1)
			if fn, ok := robots[host]; ok {
				fn(w)
				return
			}
			http.NotFound(w, r)
			return
		}
		pages.Add(1)
		htmlHandler("<p>page</p>")(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestRobots(t *testing.T) {
	body := func(s string) func(http.ResponseWriter) {
		return func(w http.ResponseWriter) { fmt.Fprint(w, s) }
	}
	status := func(code int) func(http.ResponseWriter) {
		return func(w http.ResponseWriter) { w.WriteHeader(code) }
	}
	robots := map[string]func(http.ResponseWriter){
		"rules.test":  body("User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: focuscrawl\nDisallow: /nofocus\n"),
		"other.test":  body("User-agent: otherbot\nDisallow: /\n"),
		"gone.test":   status(http.StatusNotFound),
		"forbid.test": status(http.StatusForbidden),
		"broken.test": status(http.StatusServiceUnavailable),
		"query.test":  body("User-agent: *\nDisallow: /*?session=\n"),
	}
	tests := []struct {
		host, path string
		blocked    bool
	}{
		// Our group wins over "*": /private is allowed for focuscrawl.
		{"rules.test", "/nofocus/a", true},
		{"rules.test", "/private", false},
		{"rules.test", "/public", false},
		{"other.test", "/anything", false},
		{"gone.test", "/x", false},
		{"forbid.test", "/x", false}, // 4xx: allow all (RFC 9309)
		{"broken.test", "/x", true},  // 5xx: disallow all for a while
		{"query.test", "/list?session=42", true},
		{"query.test", "/list?page=2", false},
	}
	var pages, robotsHits atomic.Int64
	srv := robotsServer(t, robots, &pages, &robotsHits)
	f := newFetcher(t, srv, testConfig())
	var urls []record.URL
	for _, tt := range tests {
		urls = append(urls, record.URL{URL: hostURL(srv, tt.host, tt.path)})
	}
	got := map[string]record.Page{}
	for _, p := range runAll(t, context.Background(), f, urls) {
		got[p.URL] = p
	}
	for i, tt := range tests {
		p := got[urls[i].URL]
		if blocked := IsRobots(p.Error); blocked != tt.blocked {
			t.Errorf("%s%s: error %q status %d, blocked=%v want %v", tt.host, tt.path, p.Error, p.Status, blocked, tt.blocked)
		}
		if tt.blocked && p.Status != 0 {
			t.Errorf("%s%s: blocked page has status %d", tt.host, tt.path, p.Status)
		}
	}
	if n := robotsHits.Load(); n != int64(len(robots)) {
		t.Errorf("robots.txt fetched %d times for %d hosts: want once per host", n, len(robots))
	}
	var wantPages int64
	for _, tt := range tests {
		if !tt.blocked {
			wantPages++
		}
	}
	if pages.Load() != wantPages {
		t.Errorf("%d page requests, want %d (blocked URLs must not be requested)", pages.Load(), wantPages)
	}
}

func TestRobotsCrawlDelay(t *testing.T) {
	h := newHits()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.add(r)
		if r.URL.Path == "/robots.txt" {
			host := strings.Split(r.Host, ":")[0]
			fmt.Fprintf(w, "User-agent: *\nCrawl-delay: %s\n", map[string]string{"cd.test": "0.3", "huge.test": "3600"}[host])
			return
		}
		htmlHandler("<p>ok</p>")(w, r)
	}))
	defer srv.Close()
	cfg := testConfig()
	cfg.MaxCrawlDelay = 150 * time.Millisecond
	f := newFetcher(t, srv, cfg)
	cfg2 := testConfig()
	cfg2.MaxCrawlDelay = time.Second
	f2 := newFetcher(t, srv, cfg2)
	// cd.test asks 0.3s, under f2's cap; huge.test asks an hour, capped.
	runAll(t, context.Background(), f2, urlRecords(hostURL(srv, "cd.test", "/1"), hostURL(srv, "cd.test", "/2"), hostURL(srv, "cd.test", "/3")))
	runAll(t, context.Background(), f, urlRecords(hostURL(srv, "huge.test", "/1"), hostURL(srv, "huge.test", "/2")))
	check := func(host string, min, max time.Duration) {
		arr := h.arrivals(host)
		for i := 2; i < len(arr); i++ { // from the second page on
			if gap := arr[i].Sub(arr[i-1]); gap < min || gap > max {
				t.Errorf("%s: gap %v, want between %v and %v", host, gap, min, max)
			}
		}
	}
	check("cd.test", 300*time.Millisecond, 900*time.Millisecond)
	check("huge.test", 150*time.Millisecond, 800*time.Millisecond)
}

func TestRobotsUnreachableDisallowsForAWhile(t *testing.T) {
	cfg := testConfig()
	cfg.Timeout = time.Second
	cfg.Retries = 0
	var warned atomic.Int64
	cfg.Warnf = func(string, ...any) { warned.Add(1) }
	// Port 1 on loopback refuses connections.
	cfg.Resolve = map[string]string{"down.test:80": "127.0.0.1:1"}
	f := newFetcher(t, nil, cfg)
	for i := 0; i < 2; i++ {
		p := f.Fetch(context.Background(), record.URL{URL: fmt.Sprintf("http://down.test/%d", i)})
		// The host is down: the error says so (connect), robots.txt or not.
		if !strings.HasPrefix(p.Error, "connect: robots.txt: ") {
			t.Errorf("error %q, want connect: robots.txt: …", p.Error)
		}
	}
	if warned.Load() != 1 {
		t.Errorf("%d warnings, want one per host", warned.Load())
	}
	if f.Stats().Snapshot().RobotsFetched != 1 {
		t.Errorf("robots.txt tried %d times: the failure should be cached", f.Stats().Snapshot().RobotsFetched)
	}
}

func TestIgnoreRobots(t *testing.T) {
	var pages, robotsHits atomic.Int64
	srv := robotsServer(t, map[string]func(http.ResponseWriter){
		"no.test": func(w http.ResponseWriter) { fmt.Fprint(w, "User-agent: *\nDisallow: /\n") },
	}, &pages, &robotsHits)
	cfg := testConfig()
	cfg.IgnoreRobots = true
	f := newFetcher(t, srv, cfg)
	p := f.Fetch(context.Background(), record.URL{URL: hostURL(srv, "no.test", "/")})
	if p.Error != "" || robotsHits.Load() != 0 {
		t.Errorf("error %q, robots.txt fetched %d times", p.Error, robotsHits.Load())
	}
}

func TestRobotsCacheExpires(t *testing.T) {
	var pages, robotsHits atomic.Int64
	srv := robotsServer(t, nil, &pages, &robotsHits)
	cfg := testConfig()
	cfg.RobotsTTL = 100 * time.Millisecond
	f := newFetcher(t, srv, cfg)
	u := record.URL{URL: hostURL(srv, "ttl.test", "/")}
	f.Fetch(context.Background(), u)
	f.Fetch(context.Background(), u)
	if robotsHits.Load() != 1 {
		t.Errorf("robots.txt fetched %d times within its TTL", robotsHits.Load())
	}
	time.Sleep(150 * time.Millisecond)
	f.Fetch(context.Background(), u)
	if robotsHits.Load() != 2 {
		t.Errorf("robots.txt fetched %d times: an expired entry must be fetched again", robotsHits.Load())
	}
}

func TestRobotsBlockedURLsDoNotWaitForTheirHost(t *testing.T) {
	var pages, robotsHits atomic.Int64
	srv := robotsServer(t, map[string]func(http.ResponseWriter){
		"wait.test": func(w http.ResponseWriter) { fmt.Fprint(w, "User-agent: *\nDisallow: /no\n") },
	}, &pages, &robotsHits)
	cfg := testConfig()
	cfg.Delay = 400 * time.Millisecond
	f := newFetcher(t, srv, cfg)
	f.Fetch(context.Background(), record.URL{URL: hostURL(srv, "wait.test", "/yes/1")}) // loads robots.txt
	in := make(chan record.URL, 3)
	out := make(chan record.Page, 3)
	for _, p := range []string{"/yes/2", "/no/1", "/no/2"} {
		in <- record.URL{URL: hostURL(srv, "wait.test", p)}
	}
	close(in)
	go f.Run(context.Background(), in, out)
	var order []string
	for p := range out {
		order = append(order, ErrorKind(p.Error))
	}
	// The allowed URL waits for the host's delay; the blocked ones,
	// queued behind it, need not.
	if strings.Join(order, ",") != "robots-disallow,robots-disallow," {
		t.Errorf("completion order %q: blocked URLs waited behind the allowed one", order)
	}
}
