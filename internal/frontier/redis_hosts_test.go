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
	a, dsn := openTestRedis(t)
	b := openRedisAgain(t, dsn)
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

// TestRedisCleanHostHasNoRecord: a host keeps a status record only while
// it holds something (HostStatus.Clean is false): a host that answers
// after a timeout, and a parked host released by Requeue, have none.
func TestRedisCleanHostHasNoRecord(t *testing.T) {
	ctx := context.Background()
	s, _ := openTestRedis(t)
	p := fastPolicy() // parks after 2 timeouts
	p.Backoff, p.MaxBackoff = time.Hour, time.Hour
	hasRecord := func(h string) bool {
		t.Helper()
		n, err := s.Client().HExists(ctx, s.key("hs"), h).Result()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	cQueue(t, s, entry("http://a.cn/1", "a.cn", 0.9, 0), entry("http://a.cn/2", "a.cn", 0.8, 0),
		entry("http://b.cn/1", "b.cn", 0.7, 0), entry("http://b.cn/2", "b.cn", 0.6, 0))
	if got := lease(t, s, LeaseRequest{N: 4}); len(got) != 4 {
		t.Fatalf("leased %v", got)
	}
	cReport(t, s, p, Outcome{URL: "http://a.cn/1", Error: "timeout: slow"})
	if !hasRecord("a.cn") {
		t.Fatal("a.cn after a timeout: no record; want its timeout counted")
	}
	cReport(t, s, p, Outcome{URL: "http://a.cn/2"})
	if hasRecord("a.cn") {
		t.Error("a.cn answered after its timeout: a record is kept; a clean host has none")
	}
	cReport(t, s, p, Outcome{URL: "http://b.cn/1", Error: "timeout: slow"}, Outcome{URL: "http://b.cn/2", Error: "timeout: slow"})
	if st := cStats(t, s); len(st.ParkedHosts) != 1 {
		t.Fatalf("b.cn after two timeouts: parked hosts %+v, want b.cn", st.ParkedHosts)
	}
	if _, err := s.Requeue(ctx, RequeueFilter{Host: "b.cn"}); err != nil {
		t.Fatal(err)
	}
	if hasRecord("b.cn") {
		t.Error("b.cn released: a record is kept; a clean host has none")
	}
}
