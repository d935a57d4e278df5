package report

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestCollectCurves checks every point of the curves against the
// figures counted by brute force from the pages.
func TestCollectCurves(t *testing.T) {
	src := fixedCrawl(250, func(i int) bool { return (i*7)%10 < 5 || i%11 == 0 }, nil)
	const window = 30
	for _, maxPoints := range []int{1000, 60, 7} {
		c, err := Collect(context.Background(), src, "x", Options{Window: window, MaxPoints: maxPoints})
		if err != nil {
			t.Fatal(err)
		}
		relevantBefore := func(n int) (k int) { // relevant among the first n pages
			for _, p := range src.pages[:n] {
				if p.Relevant {
					k++
				}
			}
			return k
		}
		if c.Fetched != 250 || c.Relevant != int64(relevantBefore(250)) {
			t.Fatalf("fetched %d relevant %d, want 250 and %d", c.Fetched, c.Relevant, relevantBefore(250))
		}
		for _, curve := range []struct {
			name string
			pts  []Point
			want func(n int) float64
		}{
			{"harvest", c.Harvest, func(n int) float64 { return float64(relevantBefore(n)) / float64(n) }},
			{"moving", c.Moving, func(n int) float64 { return float64(relevantBefore(n)-relevantBefore(n-window)) / window }},
			{"found", c.Found, func(n int) float64 { return float64(relevantBefore(n)) }},
		} {
			if len(curve.pts) > maxPoints+1 {
				t.Errorf("max %d: %s has %d points", maxPoints, curve.name, len(curve.pts))
			}
			last := curve.pts[len(curve.pts)-1]
			if curve.name != "found" && last.X != 250 {
				t.Errorf("max %d: %s ends at page %v, want 250", maxPoints, curve.name, last.X)
			}
			for i, p := range curve.pts {
				n := int(p.X)
				if curve.name == "found" {
					n = int(p.X/1.5+0.5) + 1 // a page every 1.5 s
				}
				if curve.name == "moving" && n < window {
					t.Fatalf("moving window point before page %d: %v", window, p)
				}
				if i > 0 && p.X <= curve.pts[i-1].X {
					t.Fatalf("%s: x not increasing at %d: %v", curve.name, i, curve.pts[i-1:i+1])
				}
				if got, want := p.Y, curve.want(n); got != want {
					t.Errorf("max %d: %s at page %d = %v, want %v", maxPoints, curve.name, n, got, want)
				}
			}
		}
	}
}

func TestCollectTables(t *testing.T) {
	c := fixedCrawls(t)[0]
	if c.Failed != 7 || c.States["failed"] != 7 {
		t.Errorf("failed %d (states %d), want 7", c.Failed, c.States["failed"])
	}
	wantErrors := []Count{{"http 404", 6}, {"timeout", 1}}
	if !reflect.DeepEqual(c.Errors, wantErrors) {
		t.Errorf("errors %v, want %v", c.Errors, wantErrors)
	}
	var sum int64
	for _, d := range c.Depths {
		sum += d.Fetched
	}
	if sum != c.Fetched || len(c.Depths) != 5 || c.Depths[4].Queued != 125 || c.Depths[4].Reserve != 50 || c.Depths[4].Fetched != 0 {
		t.Errorf("depths %+v: want 0–3 summing to %d and depth 4 with 125 queued, 50 in the reserve", c.Depths, c.Fetched)
	}
	if c.States["reserve"] != 50 || c.FetchedReserve != 12 {
		t.Errorf("reserve %d, fetched from it %d: want 50, 12", c.States["reserve"], c.FetchedReserve)
	}
	if len(c.Hosts) != 3 || c.Hosts[0].Fetched < c.Hosts[1].Fetched {
		t.Errorf("hosts %+v: want 3, most pages first", c.Hosts)
	}
	if !reflect.DeepEqual(c.Refused, []Count{{"scope", 41}, {"max-depth", 7}}) {
		t.Errorf("refused %v", c.Refused)
	}
	if c.Parked == nil || len(c.Parked) != 0 {
		t.Errorf("parked %v: want an empty list from a store that reports none", c.Parked)
	}
}

func TestCollectEmptyAndShort(t *testing.T) {
	c, err := Collect(context.Background(), fixedCrawl(0, nil, nil), "empty", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Fetched != 0 || c.Harvest != nil || c.Moving != nil || c.Found != nil {
		t.Errorf("empty crawl: %+v", c)
	}
	for _, svg := range []string{HarvestChart([]*Crawl{c}).SVG(), DepthPagesChart([]*Crawl{c}).SVG(), HostsChart(c, 0).SVG()} {
		if !strings.Contains(svg, "no pages fetched yet") {
			t.Errorf("an empty chart does not say so:\n%s", svg)
		}
	}
	// A crawl shorter than the window has one moving point: its rate.
	c, err = Collect(context.Background(), fixedCrawl(20, func(i int) bool { return i < 5 }, nil), "short", Options{Window: 100})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Moving, []Point{{20, 0.25}}) {
		t.Errorf("moving %v, want one point at page 20, 0.25", c.Moving)
	}
}

func TestCollectStoreError(t *testing.T) {
	src := fixedCrawl(10, func(int) bool { return true }, nil)
	src.statErr = errors.New("disk on fire")
	if _, err := Collect(context.Background(), src, "x", Options{}); !errors.Is(err, src.statErr) {
		t.Fatalf("err = %v, want the store's", err)
	}
}

func TestParkedFromJSON(t *testing.T) {
	got, err := parkedFromJSON([]byte(`{"fetched":3,"parked_hosts":[
		{"host":"a.cn","reason":"robots.txt 503","next_retry":"2026-11-02T10:00:00.123456789Z","urls":12},
		{"host":"b.cn","reason":"connection\n refused","tries":3,"given_up":true}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Parked{
		{Host: "a.cn", Reason: "robots.txt 503", Extra: [][2]string{{"next_retry", "2026-11-02 10:00:00 UTC"}, {"urls", "12"}}},
		{Host: "b.cn", Reason: "connection refused", Extra: [][2]string{{"given_up", "yes"}, {"tries", "3"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parked %+v, want %+v", got, want)
	}
	tab := parkedTable(&Crawl{Label: "x", Parked: got})
	if !reflect.DeepEqual(tab.Head, []string{"host", "reason", "next retry", "urls", "given up", "tries"}) || tab.Rows[1][5].Text != "3" || tab.Rows[1][2].Text != "" {
		t.Fatalf("parked table %+v", tab)
	}
	if none, err := parkedFromJSON([]byte(`{"fetched":3}`)); err != nil || len(none) != 0 {
		t.Fatalf("no parked_hosts: %v, %v", none, err)
	}
}

// BenchmarkCollect is the report's own cost per page fetched (the store's
// reading excluded): go test -run - -bench Collect ./internal/report
func BenchmarkCollect(b *testing.B) {
	src := fixedCrawl(100_000, func(i int) bool { return i%3 != 0 }, nil)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Collect(context.Background(), src, "x", Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100_000, "ns/page")
}
