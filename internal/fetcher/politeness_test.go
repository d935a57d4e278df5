package fetcher

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

func TestDelayBetweenRequestsToOneHost(t *testing.T) {
	h := newHits()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.add(r)
		htmlHandler("<p>ok</p>")(w, r)
	}))
	defer srv.Close()
	for _, perHost := range []int{1, 2} {
		t.Run(fmt.Sprintf("per-host %d", perHost), func(t *testing.T) {
			cfg := testConfig()
			cfg.Delay = 120 * time.Millisecond
			cfg.PerHost = perHost
			f := newFetcher(t, srv, cfg)
			host := fmt.Sprintf("slow%d.test", perHost)
			var urls []record.URL
			for i := 0; i < 4; i++ {
				urls = append(urls, record.URL{URL: hostURL(srv, host, fmt.Sprintf("/p%d", i))})
			}
			// A second host is not held back by the first one's delay.
			urls = append(urls, record.URL{URL: hostURL(srv, "other.test", "/")})
			pages := runAll(t, context.Background(), f, urls)
			if len(pages) != len(urls) {
				t.Fatalf("%d pages for %d urls", len(pages), len(urls))
			}
			arr := h.arrivals(host)
			if len(arr) != 5 { // robots.txt + 4 pages
				t.Fatalf("%d requests to %s, want 5", len(arr), host)
			}
			// With one request at a time the delay runs from the end of
			// the previous one, so the gap is strict; with several, starts
			// are spaced on the client, and the server sees them within
			// scheduling jitter.
			slack := time.Duration(0)
			if perHost > 1 {
				slack = 5 * time.Millisecond
			}
			for i := 1; i < len(arr); i++ {
				if gap := arr[i].Sub(arr[i-1]); gap < cfg.Delay-slack {
					t.Errorf("gap %d = %v, shorter than the delay %v", i, gap, cfg.Delay)
				}
			}
			other := h.arrivals("other.test")
			if len(other) == 0 || !other[len(other)-1].Before(arr[2]) {
				t.Errorf("other host waited for the slow one")
			}
		})
	}
}

func TestPerHostAndGlobalConcurrencyLimits(t *testing.T) {
	var mu sync.Mutex
	inFlight := map[string]int{}
	peak := map[string]int{}
	var total, peakTotal int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.Host)
		mu.Lock()
		inFlight[host]++
		total++
		peak[host] = max(peak[host], inFlight[host])
		peakTotal = max(peakTotal, total)
		mu.Unlock()
		time.Sleep(15 * time.Millisecond)
		mu.Lock()
		inFlight[host]--
		total--
		mu.Unlock()
		htmlHandler("<p>ok</p>")(w, r)
	}))
	defer srv.Close()
	cfg := testConfig()
	cfg.PerHost = 3
	cfg.Concurrency = 8
	f := newFetcher(t, srv, cfg)
	var urls []record.URL
	for i := 0; i < 120; i++ {
		urls = append(urls, record.URL{URL: hostURL(srv, fmt.Sprintf("h%d.test", i%6), fmt.Sprintf("/%d", i))})
	}
	pages := runAll(t, context.Background(), f, urls)
	if len(pages) != len(urls) {
		t.Fatalf("%d pages for %d urls", len(pages), len(urls))
	}
	for host, p := range peak {
		if p > cfg.PerHost {
			t.Errorf("%s: %d requests in flight, limit %d", host, p, cfg.PerHost)
		}
	}
	if peakTotal > cfg.Concurrency {
		t.Errorf("%d requests in flight over all hosts, limit %d", peakTotal, cfg.Concurrency)
	}
	if peak["h0.test"] < 2 || peakTotal < 4 {
		t.Errorf("no parallelism: per-host peak %d, total peak %d", peak["h0.test"], peakTotal)
	}
}

func TestEveryInputYieldsOneOutputUnderRandomFailures(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := n.Add(1)
		rnd := rand.New(rand.NewPCG(uint64(i), 7))
		switch rnd.IntN(8) {
		case 0:
			w.WriteHeader(http.StatusServiceUnavailable)
		case 1:
			w.WriteHeader(http.StatusInternalServerError)
		case 2: // drop the connection
			if hj, ok := w.(http.Hijacker); ok {
				c, _, _ := hj.Hijack()
				c.Close()
				return
			}
		case 3:
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
		case 4: // a body cut short
			w.Header().Set("Content-Length", "1000")
			w.Write([]byte("<p>short"))
		default:
			htmlHandler("<p>fine</p>")(w, r)
		}
	}))
	defer srv.Close()
	cfg := testConfig()
	cfg.Retries = 1
	cfg.PerHost = 2
	f := newFetcher(t, srv, cfg)
	var urls []record.URL
	want := map[string]int{}
	for i := 0; i < 300; i++ {
		u := hostURL(srv, fmt.Sprintf("h%d.test", i%10), fmt.Sprintf("/%d", i))
		urls = append(urls, record.URL{URL: u, Lineage: record.Lineage{Depth: i}})
		want[u]++
	}
	urls = append(urls, record.URL{URL: "gopher://x/"}, record.URL{URL: "http:///nohost"})
	want["gopher://x/"]++
	want["http:///nohost"]++
	pages := runAll(t, context.Background(), f, urls)
	if len(pages) != len(urls) {
		t.Fatalf("%d pages for %d urls", len(pages), len(urls))
	}
	for _, p := range pages {
		want[p.URL]--
	}
	for u, c := range want {
		if c != 0 {
			t.Errorf("%s: %d outputs missing (negative: extra)", u, c)
		}
	}
	s := f.Stats().Snapshot()
	if s.Pages != int64(len(urls)) || s.ErrorCount() == 0 || s.Retries == 0 {
		t.Errorf("stats: %+v", s)
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	h := newHits()
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		h.add(r)
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		htmlHandler("<p>back</p>")(w, r)
	}))
	defer srv.Close()
	f := newFetcher(t, srv, testConfig())
	p := f.Fetch(context.Background(), record.URL{URL: hostURL(srv, "busy.test", "/")})
	if p.Error != "" || p.Status != 200 {
		t.Fatalf("page: status %d error %q", p.Status, p.Error)
	}
	arr := h.arrivals("busy.test")
	if len(arr) != 2 || arr[1].Sub(arr[0]) < time.Second {
		t.Errorf("retry came %v after the 503 with Retry-After: 1", arr[len(arr)-1].Sub(arr[0]))
	}
}

func TestRetryAfterBeyondCapIsAnError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	cfg := testConfig()
	cfg.IgnoreRobots = true
	f := newFetcher(t, srv, cfg)
	start := time.Now()
	p := f.Fetch(context.Background(), record.URL{URL: srv.URL})
	if p.Status != 429 || !strings.HasPrefix(p.Error, "http 429") || !strings.Contains(p.Error, "max-retry-after") {
		t.Errorf("page: status %d error %q", p.Status, p.Error)
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("waited %v for a Retry-After over the cap", time.Since(start))
	}
}

func TestBackoffAndBoundedRetries(t *testing.T) {
	tests := []struct {
		name      string
		failures  int64
		retries   int
		wantCalls int64
		wantErr   string
	}{
		{"recovers", 2, 2, 3, ""},
		{"gives up", 5, 2, 3, "http 503"},
		{"no retries", 5, 0, 1, "http 503"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int64
			var last time.Time
			var gaps []time.Duration
			var mu sync.Mutex
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				if !last.IsZero() {
					gaps = append(gaps, time.Since(last))
				}
				last = time.Now()
				mu.Unlock()
				if calls.Add(1) <= tt.failures {
					w.WriteHeader(http.StatusServiceUnavailable)
					return
				}
				htmlHandler("<p>ok</p>")(w, r)
			}))
			defer srv.Close()
			cfg := testConfig()
			cfg.IgnoreRobots = true
			cfg.Retries = tt.retries
			cfg.Backoff = 40 * time.Millisecond
			cfg.MaxBackoff = time.Second
			f := newFetcher(t, srv, cfg)
			p := f.Fetch(context.Background(), record.URL{URL: srv.URL + "/x"})
			if calls.Load() != tt.wantCalls {
				t.Errorf("%d requests, want %d", calls.Load(), tt.wantCalls)
			}
			if p.Error != tt.wantErr {
				t.Errorf("error %q, want %q", p.Error, tt.wantErr)
			}
			if tt.wantCalls > 1 && p.ElapsedMS < (cfg.Backoff/2).Milliseconds() {
				t.Errorf("elapsed_ms %d does not count from the first attempt", p.ElapsedMS)
			}
			for i, g := range gaps {
				// Equal jitter: at least half the exponential pause.
				if floor := cfg.Backoff << i / 2; g < floor {
					t.Errorf("pause %d = %v, want at least %v", i+1, g, floor)
				}
			}
		})
	}
}

func TestCancelStillWritesARecordPerInput(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	cfg := testConfig()
	cfg.Delay = 2 * time.Second // queued URLs wait: cancellation must not
	f := newFetcher(t, srv, cfg)
	var urls []record.URL
	for i := 0; i < 40; i++ {
		urls = append(urls, record.URL{URL: hostURL(srv, fmt.Sprintf("h%d.test", i%4), fmt.Sprintf("/%d", i)), Meta: record.Meta(`{"i":1}`)})
	}
	ctx, cancel := context.WithCancel(context.Background())
	in := make(chan record.URL, len(urls))
	for _, u := range urls {
		in <- u
	}
	out := make(chan record.Page, len(urls))
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	f.Run(ctx, in, out) // in is never closed, as with a pipe that stays open
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Run took %v after cancellation", d)
	}
	var n int
	for p := range out {
		n++
		if p.Error != "canceled" {
			t.Errorf("%s: error %q, want canceled", p.URL, p.Error)
		}
		if string(p.Meta) != `{"i":1}` {
			t.Errorf("meta lost: %q", p.Meta)
		}
	}
	if n != len(urls) {
		t.Errorf("%d pages for %d urls read", n, len(urls))
	}
}

func TestQueueBoundsReadAhead(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			<-release
		}
		htmlHandler("<p>ok</p>")(w, r)
	}))
	defer srv.Close()
	cfg := testConfig()
	cfg.Queue = 5
	cfg.IgnoreRobots = true
	f := newFetcher(t, srv, cfg)
	in := make(chan record.URL)
	out := make(chan record.Page, 100)
	go f.Run(context.Background(), in, out)
	var sent atomic.Int64
	go func() {
		for i := 0; i < 50; i++ {
			in <- record.URL{URL: hostURL(srv, "one.test", fmt.Sprintf("/%d", i))}
			sent.Add(1)
		}
		close(in)
	}()
	time.Sleep(200 * time.Millisecond)
	// One in flight, Queue waiting, one held by Run, one in the channel.
	if got := sent.Load(); got > int64(cfg.Queue)+3 {
		t.Errorf("read %d URLs ahead with --queue %d", got, cfg.Queue)
	}
	close(release)
	n := 0
	for range out {
		n++
	}
	if n != 50 {
		t.Errorf("%d pages, want 50", n)
	}
}

func TestKeepAliveReusesConnections(t *testing.T) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(htmlHandler("<p>ok</p>"))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	f := newFetcher(t, srv, testConfig())
	var urls []record.URL
	for i := 0; i < 40; i++ {
		urls = append(urls, record.URL{URL: hostURL(srv, "ka.test", fmt.Sprintf("/%d", i))})
	}
	runAll(t, context.Background(), f, urls)
	if c := conns.Load(); c > 2 {
		t.Errorf("%d connections for 40 sequential requests to one host", c)
	}
}

// TestRedirectHopsArePolite: each hop of a redirect chain waits its host's
// turn and passes the target host's robots.txt.
func TestRedirectHopsArePolite(t *testing.T) {
	h := newHits()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.add(r)
		host, _, _ := net.SplitHostPort(r.Host)
		switch {
		case r.URL.Path == "/robots.txt" && host == "closed.test":
			fmt.Fprint(w, "User-agent: *\nDisallow: /\n")
		case r.URL.Path == "/robots.txt":
			http.NotFound(w, r)
		case r.URL.Path == "/old":
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
		case r.URL.Path == "/away":
			http.Redirect(w, r, "http://"+strings.Replace(r.Host, host, "closed.test", 1)+"/x", http.StatusFound)
		default:
			htmlHandler("<p>new</p>")(w, r)
		}
	}))
	defer srv.Close()
	cfg := testConfig()
	cfg.Delay = 150 * time.Millisecond
	f := newFetcher(t, srv, cfg)
	p := f.Fetch(context.Background(), record.URL{URL: hostURL(srv, "hop.test", "/old")})
	if p.Error != "" || p.HTML != "<p>new</p>" || len(p.Redirects) != 1 || p.FinalURL != hostURL(srv, "hop.test", "/new") {
		t.Fatalf("page: error %q redirects %q final %q", p.Error, p.Redirects, p.FinalURL)
	}
	arr := h.arrivals("hop.test") // robots.txt, /old, /new
	if len(arr) != 3 {
		t.Fatalf("%d requests, want 3", len(arr))
	}
	for i := 1; i < len(arr); i++ {
		if gap := arr[i].Sub(arr[i-1]); gap < cfg.Delay {
			t.Errorf("gap %d = %v, shorter than the delay %v", i, gap, cfg.Delay)
		}
	}
	p = f.Fetch(context.Background(), record.URL{URL: hostURL(srv, "hop.test", "/away")})
	if ErrorKind(p.Error) != KindRobotsDisallow || len(p.Redirects) != 1 || h.count("closed.test/x") != 0 {
		t.Errorf("redirect into a disallowed host: error %q redirects %q, %d requests to it",
			p.Error, p.Redirects, h.count("closed.test/x"))
	}
}
