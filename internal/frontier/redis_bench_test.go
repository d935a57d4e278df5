package frontier

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// usedMemory reads used_memory from INFO memory.
func usedMemory(b *testing.B, s *RedisStore) int64 {
	b.Helper()
	info, err := s.Client().Info(context.Background(), "memory").Result()
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(info, "\r\n") {
		if v, ok := strings.CutPrefix(line, "used_memory:"); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	b.Fatal("no used_memory in INFO memory")
	return 0
}

// fillRedis queues n bench URLs, from index from, in batches of 2,000.
func fillRedis(b *testing.B, s *RedisStore, from, n int) {
	b.Helper()
	ctx := context.Background()
	for i := 0; i < n; i += 2000 {
		if _, err := s.Apply(ctx, Batch{Queue: benchEntries(from+i, min(2000, n-i))}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRedisApplyQueue: new URLs queued in batches of 2,000.
func BenchmarkRedisApplyQueue(b *testing.B) {
	s, _ := openTestRedis(b)
	b.ResetTimer()
	fillRedis(b, s, 0, b.N)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "urls/s")
}

// BenchmarkRedisLease: the best URLs leased 1,000 at a time from 100,000.
func BenchmarkRedisLease(b *testing.B) {
	s, _ := openTestRedis(b)
	fillRedis(b, s, 0, 100000)
	ctx := context.Background()
	b.ResetTimer()
	leased, round := 0, 1
	for leased < b.N {
		us, err := s.Lease(ctx, LeaseRequest{N: min(1000, b.N-leased), For: time.Hour})
		if err != nil {
			b.Fatal(err)
		}
		if len(us) == 0 {
			b.StopTimer()
			fillRedis(b, s, round*100000, 100000)
			round++
			b.StartTimer()
			continue
		}
		leased += len(us)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "urls/s")
}

// BenchmarkRedisScale measures, with FOCUSCRAWL_BENCH_QUEUED URLs queued
// (default 1,000,000): memory per queued URL (INFO used_memory), adding
// 100,000 more, and leasing 100,000 by one client and by four at once
// (--per-host 10 over the bench's 1,400 hosts). Run with -benchtime=1x.
func BenchmarkRedisScale(b *testing.B) {
	queued := 1000000
	if v, err := strconv.Atoi(envOr("FOCUSCRAWL_BENCH_QUEUED", "")); err == nil && v > 0 {
		queued = v
	}
	for i := 0; i < b.N; i++ {
		s, _ := openTestRedis(b)
		before := usedMemory(b, s)
		start := time.Now()
		fillRedis(b, s, 0, queued)
		fill := time.Since(start)
		after := usedMemory(b, s)
		b.ReportMetric(float64(after-before)/float64(queued), "bytes/url")
		b.ReportMetric(float64(queued)/fill.Seconds(), "add-urls/s")

		start = time.Now()
		fillRedis(b, s, queued, 100000)
		b.ReportMetric(100000/time.Since(start).Seconds(), "add-more-urls/s")

		ctx := context.Background()
		lease := func(owner int64, n int) int {
			got := 0
			for got < n {
				us, err := s.Lease(ctx, LeaseRequest{N: min(1000, n-got), For: time.Hour, Owner: owner})
				if err != nil {
					b.Fatal(err)
				}
				if len(us) == 0 {
					break
				}
				got += len(us)
			}
			return got
		}
		start = time.Now()
		n := lease(1, 100000)
		b.ReportMetric(float64(n)/time.Since(start).Seconds(), "next-urls/s")

		var wg sync.WaitGroup
		var mu sync.Mutex
		total := 0
		start = time.Now()
		for w := int64(2); w < 6; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				k := lease(w, 25000)
				mu.Lock()
				total += k
				mu.Unlock()
			}()
		}
		wg.Wait()
		b.ReportMetric(float64(total)/time.Since(start).Seconds(), "next-4-clients-urls/s")
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
