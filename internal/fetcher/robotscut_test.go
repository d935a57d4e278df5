package fetcher

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// TestRobotsCutWarns: a robots.txt over 512 KiB is read up to the cut,
// with a warning and a count; a Disallow past the cut is not seen.
func TestRobotsCutWarns(t *testing.T) {
	var robots strings.Builder
	robots.WriteString("User-agent: *\nDisallow: /early\n")
	for i := 0; robots.Len() < maxRobotsBytes+1000; i++ {
		fmt.Fprintf(&robots, "# filler line %d of a very long robots.txt\n", i)
	}
	robots.WriteString("Disallow: /late\n")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte(robots.String()))
			return
		}
		htmlHandler("<p>ok</p>")(w, r)
	}))
	defer srv.Close()
	var mu sync.Mutex
	var warnings []string
	cfg := testConfig()
	cfg.Warnf = func(format string, args ...any) {
		mu.Lock()
		warnings = append(warnings, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	f := newFetcher(t, srv, cfg)
	if p := f.Fetch(context.Background(), record.URL{URL: hostURL(srv, "big.test", "/early")}); !IsRobots(p.Error) {
		t.Errorf("/early: error %q, want robots-disallow", p.Error)
	}
	if p := f.Fetch(context.Background(), record.URL{URL: hostURL(srv, "big.test", "/late")}); p.Error != "" {
		t.Errorf("/late (past the cut): error %q", p.Error)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(warnings) != 1 || !strings.Contains(warnings[0], "over 512 KiB") {
		t.Errorf("warnings %q", warnings)
	}
	if n := f.Stats().Snapshot().RobotsCut; n != 1 {
		t.Errorf("RobotsCut %d, want 1", n)
	}
}
