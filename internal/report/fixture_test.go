package report

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// memSource is a crawl held in memory: a Source for tests.
type memSource struct {
	info    map[string]string
	pages   []frontier.Fetched
	stats   frontier.Stats
	statErr error
	// added counts the URLs added by the second (nil: a store that does
	// not record it, as Redis).
	added map[int64]int64
}

func (m *memSource) AddedPerSecond(context.Context) (map[int64]int64, error) { return m.added, nil }

func (m *memSource) Info(context.Context) (map[string]string, error) { return m.info, nil }

func (m *memSource) History(ctx context.Context, fn func(frontier.Fetched) error) error {
	for _, f := range m.pages {
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

func (m *memSource) Stats(context.Context, frontier.StatsQuery) (*frontier.Stats, error) {
	if m.statErr != nil {
		return nil, m.statErr
	}
	st := m.stats
	return &st, nil
}

// fixedCrawl is a small crawl that never changes: n pages fetched every
// 1.5 s from five hosts at depths 0–3; page i is relevant when
// relevant(i); every 37th page failed with a 404.
func fixedCrawl(n int, relevant func(i int) bool, info map[string]string) *memSource {
	t0 := time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
	hosts := []string{"www.forestry.gov.cn", "lyj.example.cn", "news.example.com", "森林.example.cn", "a-very-long-host-name-of-some-portal.example.org"}
	m := &memSource{info: info, added: map[int64]int64{}}
	m.stats.States = map[string]int64{"queued": int64(n / 2), "leased": 3, "done": 0, "failed": 0}
	m.stats.Refused = map[string]int64{"scope": 41, "max-depth": 7}
	m.stats.Expired = 2
	m.stats.Hosts = 12
	for i := 0; i < n; i++ {
		f := frontier.Fetched{
			URL:       fmt.Sprintf("http://%s/p%d", hosts[i%5], i),
			Host:      hosts[(i*i)%5],
			Depth:     min(i/40, 3),
			Status:    200,
			FetchedAt: t0.Add(time.Duration(i) * 1500 * time.Millisecond),
			Scored:    true,
			Relevant:  relevant(i),
		}
		// Scores: relevant pages from the threshold 0.3 up, the others under it.
		if frac := float64(i*37%100) / 100; f.Relevant {
			f.Score = 0.3 + 0.7*frac
		} else {
			f.Score = 0.3 * frac
		}
		if i%37 == 36 {
			f.Status, f.Error, f.Relevant, f.Scored = 404, "http 404", false, false
		}
		if i == 50 {
			f.Status, f.Error = 0, "timeout: read tcp: i/o timeout"
		}
		if f.Error != "" {
			m.stats.States["failed"]++
		} else {
			m.stats.States["done"]++
		}
		m.pages = append(m.pages, f)
		m.added[f.FetchedAt.Add(-30*time.Second).Unix()]++ // found 30 s before it was fetched
	}
	for j := 0; j < n/2; j++ { // the URLs still queued, found along the way
		m.added[t0.Add(time.Duration(j)*3*time.Second).Unix()]++
	}
	m.stats.Depths = []frontier.DepthStat{{Depth: 4, Queued: int64(n / 2), Reserve: int64(n / 5)}}
	m.stats.States["reserve"], m.stats.FetchedReserve = int64(n/5), int64(n/20)
	return m
}

// fixedCrawls are the two crawls of the golden files: one that keeps to
// its topic, one that drifts off it.
func fixedCrawls(t *testing.T) []*Crawl {
	t.Helper()
	// The first crawl was resumed after 200 s (page 134), records its
	// threshold, and had its timeouts requeued once.
	a := fixedCrawl(250, func(i int) bool { return (i*7)%10 < 5 }, map[string]string{frontier.InfoTopic: "forestry", frontier.InfoLinks: "shark", frontier.InfoPage: "vsm",
		frontier.InfoThreshold: "0.3", frontier.InfoRuns: "2026-11-01T08:00:00Z, 2026-11-01T08:03:20Z"})
	a.stats.RequeuedErrors = []frontier.ErrorCount{{Host: "news.example.com", Kind: "timeout", N: 3}, {Host: "lyj.example.cn", Kind: "http 404", N: 1}}
	b := fixedCrawl(180, func(i int) bool { return i < 60 || (i*3)%10 == 0 }, nil)
	var out []*Crawl
	for _, s := range []struct {
		label string
		src   *memSource
	}{{"shark.db", a}, {"bfs.db", b}} {
		c, err := Collect(context.Background(), s.src, s.label, Options{Window: 50, TopHosts: 4, MaxPoints: 60})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}
