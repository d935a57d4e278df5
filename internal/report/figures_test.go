package report

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// TestCollectCountsAsStats: the report's pages fetched and harvest are
// seed stats' own: a URL failed without being fetched (refused by robots
// rules learned after it was queued) is in neither, and a redirect target
// (done in the fetch of the URL that led to it) is not a page of its own.
func TestCollectCountsAsStats(t *testing.T) {
	ctx := context.Background()
	s, err := frontier.OpenSQLite(filepath.Join(t.TempDir(), "crawl.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	in := frontier.NewIngester(frontier.IngestOptions{SeedPriority: 0.5, Policy: frontier.Policy{Scope: frontier.ScopeAny}})
	apply := func(lines ...string) {
		t.Helper()
		var b frontier.Batch
		for _, l := range lines {
			part, err := in.Parse([]byte(l))
			if err != nil {
				t.Fatal(err)
			}
			b.Merge(part)
		}
		if _, err := s.Apply(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	apply("http://a.example/p/1", "http://a.example/p/2", "http://a.example/p/3", "http://b.example/")
	if _, err := s.Lease(ctx, frontier.LeaseRequest{N: 2, For: time.Minute, Owner: 1}); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Format(time.RFC3339)
	apply(`{"url":"http://b.example/","final_url":"http://b.example/home","status":200,"fetched_at":"`+now+`","score":0.9,"relevant":true}`,
		`{"url":"http://a.example/p/1","status":0,"fetched_at":"`+now+`","error":"robots-disallow: robots.txt for focuscrawl: user-agent: * ; disallow: /p"}`)
	st, err := s.Stats(ctx, frontier.StatsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Unfetched == 0 {
		t.Fatalf("stats %+v: the fixture has no failed unfetched URL", st)
	}
	c, err := Collect(ctx, s, "crawl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Fetched != st.Fetched || c.Relevant != st.Relevant || c.HarvestRate() != st.HarvestRate {
		t.Errorf("report: %d fetched, %d relevant, harvest %.3f; seed stats: %d, %d, %.3f",
			c.Fetched, c.Relevant, c.HarvestRate(), st.Fetched, st.Relevant, st.HarvestRate)
	}
	if c.Redirects != 1 || st.States["done"] != 2 {
		t.Errorf("report: %d redirect targets, seed stats %d URLs done: want 1 and 2", c.Redirects, st.States["done"])
	}
	// The queue over time ends at the URLs not fetched yet.
	waiting := st.States["queued"] + st.States["reserve"] + st.States["leased"] + st.States["parked"] + st.States["waiting"]
	if len(c.Queue) == 0 || int64(c.Queue[len(c.Queue)-1].Y) != waiting {
		t.Errorf("report: queue %v, seed stats %d URLs not fetched (%v)", c.Queue, waiting, st.States)
	}
	if c.Unfetched != st.Unfetched {
		t.Errorf("report: %d unfetched, seed stats %d", c.Unfetched, st.Unfetched)
	}
}
