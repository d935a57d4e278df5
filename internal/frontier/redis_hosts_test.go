package frontier

import (
	"context"
	"testing"
	"time"
)

// TestRedisHostStepsRecomputed: a host whose state another worker changes
// between Apply's reading of it and its script is read again, so that no
// worker's step is lost. Two timeouts in a row park a host; each worker
// reports one, the second while the first reads.
func TestRedisHostStepsRecomputed(t *testing.T) {
	ctx := context.Background()
	a, dsn := openTestRedis(t)
	b, err := OpenRedis(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p := fastPolicy() // parks after 2 timeouts
	p.Backoff, p.MaxBackoff = time.Hour, time.Hour
	cQueue(t, a, entry("http://slow.cn/1", "slow.cn", 0.9, 0), entry("http://slow.cn/2", "slow.cn", 0.8, 0))
	if got := lease(t, a, LeaseRequest{N: 2}); len(got) != 2 {
		t.Fatalf("leased %v", got)
	}
	a.afterSteps = func() {
		cReport(t, b, p, Outcome{URL: "http://slow.cn/2", Error: "timeout: slow"})
	}
	cReport(t, a, p, Outcome{URL: "http://slow.cn/1", Error: "timeout: slow"})
	st := cStats(t, a)
	if len(st.ParkedHosts) != 1 || st.States["parked"] != 2 {
		t.Errorf("two timeouts in a row from two workers: parked hosts %+v, states %v; want slow.cn parked with both URLs",
			st.ParkedHosts, st.States)
	}
}
