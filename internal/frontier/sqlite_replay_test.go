package frontier

import (
	"context"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// TestReplay: every store replays the pages judged, in fetch order, with
// the link that led to each.
func TestReplay(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		testReplay(t, s)
	})
}

func testReplay(t *testing.T, s Store) {
	ctx := context.Background()
	rp, ok := s.(interface {
		Replay(context.Context, func(record.Replay) error) error
	})
	if !ok {
		t.Fatalf("%T cannot replay", s)
	}
	root := entry("http://h.cn/", "h.cn", 1, 0)
	a, b := child("http://h.cn/a.html", 0.6), child("http://h.cn/b.html", 0.4)
	a.Anchor = "filters"
	if _, err := s.Apply(ctx, Batch{Queue: []Entry{root, a, b}}); err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(1700000000, 0)
	if _, err := s.Apply(ctx, Batch{
		Done: []Outcome{{URL: "http://h.cn/", Host: "h.cn", Site: "h.cn", Scored: true, Score: 0.5, FetchedAt: t0}},
		Edges: []Edge{{From: "http://h.cn/", To: "http://h.cn/a.html", Anchor: "filters", Context: "see the filters"},
			{From: "http://h.cn/", To: "http://h.cn/b.html"}},
	}); err != nil {
		t.Fatal(err)
	}
	// b comes back before a; both after the root.
	if _, err := s.Apply(ctx, Batch{Done: []Outcome{
		{URL: "http://h.cn/a.html", Host: "h.cn", Site: "h.cn", Scored: true, Score: 0.9, FetchedAt: t0.Add(2 * time.Second)},
		{URL: "http://h.cn/b.html", Host: "h.cn", Site: "h.cn", Error: "http 404", FetchedAt: t0.Add(time.Second)},
	}}); err != nil {
		t.Fatal(err)
	}
	var got []record.Replay
	if err := rp.Replay(ctx, func(r record.Replay) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []record.Replay{
		{URL: "http://h.cn/", Score: 0.5},
		{URL: "http://h.cn/b.html", Parent: "http://h.cn/", ParentScore: 0.5, Failed: true},
		{URL: "http://h.cn/a.html", Parent: "http://h.cn/", Anchor: "filters", Context: "see the filters", ParentScore: 0.5, Score: 0.9},
	}
	if len(got) != len(want) {
		t.Fatalf("replayed %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("replay %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
