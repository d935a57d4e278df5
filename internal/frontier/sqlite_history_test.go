package frontier

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// TestHistoryContract: every store lists the pages fetched in the order
// they came back, scored or not, failed ones too, and no URL only queued.
func TestHistoryContract(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
		ctx := context.Background()
		t0 := time.UnixMilli(1_700_000_000_000)
		if _, err := s.Apply(ctx, Batch{Queue: []Entry{
			entry("http://a.cn/", "a.cn", 1, 0),
			entry("http://a.cn/queued", "a.cn", 0.5, 1),
		}}); err != nil {
			t.Fatal(err)
		}
		want := []Fetched{
			{URL: "http://a.cn/", Host: "a.cn", Depth: 0, Status: 200, FetchedAt: t0, Scored: true, Score: 0.8, Relevant: true},
			{URL: "http://a.cn/z", Host: "a.cn", Depth: 1, Status: 200, FetchedAt: t0.Add(time.Second), Scored: true, Score: 0.1},
			{URL: "http://b.cn:8080/x", Host: "b.cn:8080", Depth: 2, Status: 404, FetchedAt: t0.Add(2 * time.Second), Error: "http 404"},
			{URL: "http://a.cn/y", Host: "a.cn", Depth: 1, Status: 200, FetchedAt: t0.Add(2 * time.Second)},
		}
		for _, f := range want {
			o := Outcome{URL: f.URL, Host: f.Host, Depth: f.Depth, Status: f.Status, FetchedAt: f.FetchedAt,
				Scored: f.Scored, Score: f.Score, Relevant: f.Relevant, Error: f.Error}
			if _, err := s.Apply(ctx, Batch{Done: []Outcome{o}}); err != nil {
				t.Fatal(err)
			}
		}
		var got []Fetched
		if err := reopen(t).History(ctx, func(f Fetched) error { got = append(got, f); return nil }); err != nil {
			t.Fatal(err)
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
	})
}

// TestHistoryLong: a history longer than the pages the Redis store reads
// it in comes back whole and in order.
func TestHistoryLong(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
		ctx := context.Background()
		t0 := time.UnixMilli(1_700_000_000_000)
		const n = 4100
		var b Batch
		for i := range n {
			b.Done = append(b.Done, Outcome{URL: fmt.Sprintf("http://a.cn/%d", i), Host: "a.cn", FetchedAt: t0.Add(time.Duration(i) * time.Millisecond)})
		}
		if _, err := s.Apply(ctx, b); err != nil {
			t.Fatal(err)
		}
		k := 0
		err := s.History(ctx, func(f Fetched) error {
			if want := fmt.Sprintf("http://a.cn/%d", k); f.URL != want {
				return fmt.Errorf("page %d is %s, want %s", k, f.URL, want)
			}
			k++
			return nil
		})
		if err != nil || k != n {
			t.Fatalf("%d pages of %d: %v", k, n, err)
		}
	})
}

// TestHistorySQLiteFetchTime: the SQLite store orders by fetch time, even
// when the pages were recorded in another order, then by the order the
// URLs entered the frontier.
func TestHistorySQLiteFetchTime(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	t0 := time.UnixMilli(1_700_000_000_000)
	if _, err := s.Apply(ctx, Batch{Done: []Outcome{
		{URL: "http://a.cn/3", Host: "a.cn", FetchedAt: t0.Add(2 * time.Second)},
		{URL: "http://a.cn/1", Host: "a.cn", FetchedAt: t0},
		{URL: "http://a.cn/4", Host: "a.cn", FetchedAt: t0.Add(2 * time.Second)},
		{URL: "http://a.cn/2", Host: "a.cn", FetchedAt: t0.Add(time.Second)},
	}}); err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := s.History(ctx, func(f Fetched) error { got = append(got, f.URL); return nil }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[http://a.cn/1 http://a.cn/2 http://a.cn/3 http://a.cn/4]" {
		t.Fatalf("order %v", got)
	}
}

func TestInfoContract(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
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
		info, err := reopen(t).Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if info[InfoTopic] != "forestry" || info[InfoLinks] != "shark, heuristic" || info["schema_version"] == "" || len(info) != 3 {
			t.Fatalf("info = %v, want the topic, the links and the schema version", info)
		}
	})
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
