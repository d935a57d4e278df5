package frontier

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"
)

func TestHistoryInFetchOrder(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	t0 := time.UnixMilli(1_700_000_000_000)
	if _, err := s.Apply(ctx, Batch{Queue: []Entry{
		entry("http://a.cn/", "a.cn", 1, 0),
		entry("http://a.cn/queued", "a.cn", 0.5, 1),
	}}); err != nil {
		t.Fatal(err)
	}
	// Recorded out of order, and two in the same millisecond: the order
	// is fetch time, then the order the URLs entered the frontier.
	if _, err := s.Apply(ctx, Batch{Done: []Outcome{
		{URL: "http://b.cn/x", Host: "b.cn", Depth: 2, Status: 404, FetchedAt: t0.Add(2 * time.Second), Error: "http 404"},
		{URL: "http://a.cn/", Host: "a.cn", Depth: 0, Status: 200, FetchedAt: t0, Scored: true, Score: 0.8, Relevant: true},
		{URL: "http://a.cn/y", Host: "a.cn", Depth: 1, Status: 200, FetchedAt: t0.Add(2 * time.Second)},
		{URL: "http://a.cn/z", Host: "a.cn", Depth: 1, Status: 200, FetchedAt: t0.Add(time.Second), Scored: true, Score: 0.1},
	}}); err != nil {
		t.Fatal(err)
	}
	var got []Fetched
	if err := s.History(ctx, func(f Fetched) error { got = append(got, f); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []Fetched{
		{URL: "http://a.cn/", Host: "a.cn", Depth: 0, Status: 200, FetchedAt: t0, Scored: true, Score: 0.8, Relevant: true},
		{URL: "http://a.cn/z", Host: "a.cn", Depth: 1, Status: 200, FetchedAt: t0.Add(time.Second), Scored: true, Score: 0.1},
		{URL: "http://b.cn/x", Host: "b.cn", Depth: 2, Status: 404, FetchedAt: t0.Add(2 * time.Second), Error: "http 404"},
		{URL: "http://a.cn/y", Host: "a.cn", Depth: 1, Status: 200, FetchedAt: t0.Add(2 * time.Second)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("history:\n got %+v\nwant %+v", got, want)
	}

	stop := errors.New("stop")
	n := 0
	err := s.History(ctx, func(Fetched) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Fatalf("an error from fn: got %v after %d calls, want stop after 1", err, n)
	}
}

func TestInfoRoundTrip(t *testing.T) {
	s, path := openTest(t)
	ctx := context.Background()
	if err := s.SetInfo(ctx, map[string]string{InfoTopic: "forestry", InfoLinks: "shark"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetInfo(ctx, map[string]string{InfoLinks: "shark, heuristic"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetInfo(ctx, map[string]string{"schema_version": "9"}); err == nil {
		t.Fatal("SetInfo overwrote the schema version")
	}
	s.Close()
	s2, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	info, err := s2.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"schema_version": SchemaVersion, InfoTopic: "forestry", InfoLinks: "shark, heuristic"}
	if !reflect.DeepEqual(info, want) {
		t.Fatalf("info = %v, want %v", info, want)
	}
}

// BenchmarkHistory reads 100,000 pages fetched over 1,000 hosts in fetch
// order: go test -run - -bench History ./internal/frontier
func BenchmarkHistory(b *testing.B) {
	s, err := OpenSQLite(b.TempDir() + "/crawl.db")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	const n = 100_000
	t0 := time.UnixMilli(1_700_000_000_000)
	for lo := 0; lo < n; lo += 10_000 {
		var batch Batch
		for i := lo; i < lo+10_000; i++ {
			host := fmt.Sprintf("h%d.example.cn", i%1000)
			batch.Done = append(batch.Done, Outcome{URL: fmt.Sprintf("http://%s/%d", host, i), Host: host, Depth: i % 7,
				Status: 200, FetchedAt: t0.Add(time.Duration(n-i) * time.Millisecond), Scored: true, Relevant: i%2 == 0})
		}
		if _, err := s.Apply(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		k := 0
		if err := s.History(ctx, func(Fetched) error { k++; return nil }); err != nil || k != n {
			b.Fatalf("%d pages, %v", k, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/page")
}
