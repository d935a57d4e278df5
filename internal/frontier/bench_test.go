package frontier

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

func benchEntries(from, n int) []Entry {
	es := make([]Entry, n)
	for i := range es {
		host := fmt.Sprintf("www%d.example%d.cn", (from+i)%7, (from+i)%200)
		es[i] = entry(fmt.Sprintf("https://%s/news/%d.html", host, from+i), host, float64((from+i)%100)/100, 1)
	}
	return es
}

// BenchmarkApplyQueue: new URLs queued in batches of 2,000.
func BenchmarkApplyQueue(b *testing.B) {
	s, err := OpenSQLite(filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	const batch = 2000
	b.ResetTimer()
	for i := 0; i < b.N; i += batch {
		n := min(batch, b.N-i)
		if _, err := s.Apply(ctx, Batch{Queue: benchEntries(i, n)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLease: the best URLs leased 1,000 at a time from 100,000.
func BenchmarkLease(b *testing.B) {
	s, err := OpenSQLite(filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	fill := func(from int) {
		for i := 0; i < 100000; i += 10000 {
			if _, err := s.Apply(ctx, Batch{Queue: benchEntries(from+i, 10000)}); err != nil {
				b.Fatal(err)
			}
		}
	}
	fill(0)
	b.ResetTimer()
	leased, round := 0, 1
	for leased < b.N {
		us, err := s.Lease(ctx, LeaseRequest{N: min(1000, b.N-leased), For: time.Hour})
		if err != nil {
			b.Fatal(err)
		}
		if len(us) == 0 {
			b.StopTimer()
			fill(round * 100000)
			round++
			b.StartTimer()
			continue
		}
		leased += len(us)
	}
}
