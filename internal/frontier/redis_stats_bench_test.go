package frontier

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"
)

// failRedis fills s with n failed URLs of the bench's 1,400 hosts, four
// kinds of error, through the crawl's own path: queued, leased, reported.
func failRedis(b *testing.B, s *RedisStore, n int) {
	b.Helper()
	ctx := context.Background()
	fillRedis(b, s, 0, n)
	kinds := []string{"http 404", "http 410", "http 403", "robots-disallow: /x"}
	for failed := 0; failed < n; {
		us, err := s.Lease(ctx, LeaseRequest{N: 2000, For: time.Hour})
		if err != nil {
			b.Fatal(err)
		}
		if len(us) == 0 {
			b.Fatalf("%d URLs failed of %d: nothing more to lease", failed, n)
		}
		outs := make([]Outcome, len(us))
		for i, u := range us {
			outs[i] = Outcome{URL: u.URL, Host: HostOf(u.URL), Status: 404, Error: kinds[(failed+i)%len(kinds)]}
		}
		if _, err := s.Apply(ctx, Batch{Done: outs}); err != nil {
			b.Fatal(err)
		}
		failed += len(us)
	}
}

// BenchmarkRedisStats: Stats of each query (the counts alone, as seed
// stats --brief asks; the top 10 hosts; the error kinds; both, as seed
// stats asks) on a frontier of FOCUSCRAWL_BENCH_FAILED failed URLs
// (default 100,000).
func BenchmarkRedisStats(b *testing.B) {
	failed := 100000
	if v, err := strconv.Atoi(envOr("FOCUSCRAWL_BENCH_FAILED", "")); err == nil && v > 0 {
		failed = v
	}
	s, _ := openTestRedis(b)
	failRedis(b, s, failed)
	ctx := context.Background()
	for _, q := range []StatsQuery{{}, {TopHosts: 10}, {ErrorKinds: true}, {TopHosts: 10, ErrorKinds: true}} {
		b.Run(fmt.Sprintf("top=%d,errors=%v", q.TopHosts, q.ErrorKinds), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				st, err := s.Stats(ctx, q)
				if err != nil {
					b.Fatal(err)
				}
				if st.States["failed"] != int64(failed) {
					b.Fatalf("%d failed, want %d", st.States["failed"], failed)
				}
			}
		})
	}
}
