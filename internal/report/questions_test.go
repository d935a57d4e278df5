package report

import (
	"context"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// TestReportAnswersNextQuestions: the report lists the relevant pages
// found, best score first; the pages fetched per second over time; the
// scores against the threshold; errors by host, those seed requeue took
// off included; the pages behind each depth bar; and where a resumed run
// began. Each figure is checked against a count made by brute force on
// the fixture.
func TestReportAnswersNextQuestions(t *testing.T) {
	crawls := fixedCrawls(t)
	a := crawls[0]
	src := fixedCrawl(250, func(i int) bool { return (i*7)%10 < 5 }, nil)

	// The relevant pages, best first: the fixture's, sorted by brute force.
	var rel []frontier.Fetched
	for _, f := range src.pages {
		if f.Relevant {
			rel = append(rel, f)
		}
	}
	sort.SliceStable(rel, func(i, j int) bool {
		if rel[i].Score != rel[j].Score {
			return rel[i].Score > rel[j].Score
		}
		return rel[i].URL < rel[j].URL
	})
	if len(a.TopPages) != 50 {
		t.Fatalf("%d top pages, want 50", len(a.TopPages))
	}
	for i, p := range a.TopPages {
		if p.URL != rel[i].URL || p.Score != rel[i].Score {
			t.Fatalf("top page %d: %s %.3f, want %s %.3f", i, p.URL, p.Score, rel[i].URL, rel[i].Score)
		}
	}

	// Pages per second: the bins add up to the pages fetched.
	var sum float64
	for _, p := range a.Rate {
		sum += p.Y * a.RateBin
	}
	if math.Abs(sum-float64(a.Fetched)) > 1e-6 || a.RateBin < 1 {
		t.Errorf("rate bins of %vs hold %v pages, want %d", a.RateBin, sum, a.Fetched)
	}

	// The queue: at the end of each bin, the URLs added by then less those
	// fetched by then; at the end, the URLs still queued.
	for _, p := range a.Queue {
		end := a.First.Unix() + int64(p.X)
		var want int64
		for sec, n := range src.added {
			if sec < end {
				want += n
			}
		}
		for _, f := range src.pages {
			if f.FetchedAt.Unix() < end {
				want--
			}
		}
		if int64(p.Y) != want {
			t.Errorf("queue after %vs: %v, want %d", p.X, p.Y, want)
		}
	}
	if len(a.Queue) == 0 || a.Queue[len(a.Queue)-1].Y != 125 {
		t.Errorf("queue %v: want 125 URLs left at the end", a.Queue)
	}

	// Scores: the threshold recorded is a bin edge; every page above it
	// was judged relevant, none under it; the bins hold every scored page.
	if !a.ThresholdRecorded || a.Threshold != 0.3 {
		t.Errorf("threshold %v (recorded %v), want 0.3 recorded", a.Threshold, a.ThresholdRecorded)
	}
	var scored, inBins int64
	for _, f := range src.pages {
		if f.Scored && f.Error == "" {
			scored++
		}
	}
	for _, b := range a.Scores {
		inBins += b.Pages
		above := b.Lo >= a.Threshold-1e-9
		if above && b.Relevant != b.Pages || !above && b.Relevant != 0 {
			t.Errorf("bin [%.3f, %.3f): %d pages, %d relevant", b.Lo, b.Hi, b.Pages, b.Relevant)
		}
	}
	if inBins != scored {
		t.Errorf("score bins hold %d pages, want %d", inBins, scored)
	}
	if svg := ScoreChart(a, 0).SVG(); !strings.Contains(svg, `class="mark"`) || !strings.Contains(svg, "threshold 0.3") {
		t.Errorf("score chart without its threshold:\n%s", svg)
	}

	// Errors by host: the failed pages of the history and the failures
	// requeued since, which the frontier kept.
	failed := map[string]int64{}
	for _, f := range src.pages {
		if f.Error != "" {
			failed[f.Host]++
		}
	}
	failed["news.example.com"] += 3
	failed["lyj.example.cn"]++
	got := map[string]int64{}
	for _, h := range a.ErrorHosts {
		got[h.Host] = h.N
	}
	for host, n := range failed {
		if got[host] != n {
			t.Errorf("errors of %s: %d, want %d (all: %+v)", host, got[host], n, a.ErrorHosts)
		}
	}
	html, _ := renderPage(t, Page{Crawls: crawls})
	for _, want := range []string{"Errors of shark.db by host", "requeued since", "timeout 3", "Relevant pages found",
		"The 50 relevant pages of shark.db with the highest scores", a.TopPages[0].URL, "Pages fetched per second", "URLs waiting to be fetched over time",
		"2, resumed 2026-11-01 08:03:20 UTC after page 134", "shark.db: run 2"} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}

	// A resumed run is marked where it began: after page 134 (1.5 s a page).
	if len(a.Runs) != 2 || a.Runs[1].Before != 134 {
		t.Fatalf("runs %+v, want the second after 134 pages", a.Runs)
	}
	h := HarvestChart(crawls)
	if len(h.Marks) != 1 || h.Marks[0].X != 134 {
		t.Errorf("harvest chart marks %+v, want one at page 134", h.Marks)
	}
	if f := FoundChart(crawls); len(f.Marks) != 1 || f.Marks[0].X != 200 {
		t.Errorf("found chart marks %+v, want one at 200 s", f.Marks)
	}
}

// TestDepthBarsSayTheirPages: a depth at 100% from one page says it is
// one page.
func TestDepthBarsSayTheirPages(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
	m := &memSource{stats: frontier.Stats{States: map[string]int64{"done": 3}}, pages: []frontier.Fetched{
		{URL: "http://a.cn/", Host: "a.cn", Depth: 0, Status: 200, FetchedAt: t0, Scored: true, Score: 0.1},
		{URL: "http://a.cn/1", Host: "a.cn", Depth: 1, Status: 200, FetchedAt: t0.Add(time.Second), Scored: true, Score: 0.2},
		{URL: "http://a.cn/1/2", Host: "a.cn", Depth: 2, Status: 200, FetchedAt: t0.Add(2 * time.Second), Scored: true, Score: 0.9, Relevant: true},
	}}
	c, err := Collect(context.Background(), m, "one.db", Options{})
	if err != nil {
		t.Fatal(err)
	}
	svg := DepthHarvestChart([]*Crawl{c}).SVG()
	if !strings.Contains(svg, "depth (links from a seed) 2: 100% of 1 page</title>") || !strings.Contains(svg, `class="bar-pages"`) {
		t.Errorf("the depth-2 bar does not say it is one page:\n%s", svg)
	}
	if c.Threshold != 0.9 || c.ThresholdRecorded {
		t.Errorf("threshold %v (recorded %v): want the lowest relevant score, 0.9, not recorded", c.Threshold, c.ThresholdRecorded)
	}
}
