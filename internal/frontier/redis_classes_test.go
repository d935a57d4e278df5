package frontier

import (
	"context"
	"testing"
	"time"
)

// TestRedisClassesRecomputed: a class that another worker ranks again
// between Apply's reading of it and its script makes the chunk computed
// again, so that a URL queued in it carries the class's new estimate as
// its queued URLs do. Worker b reports the outcomes that move /b/ while
// worker a, which read /b/'s classes before, queues a URL in one of them.
func TestRedisClassesRecomputed(t *testing.T) {
	ctx := context.Background()
	a, dsn := openTestRedis(t)
	b, err := OpenRedis(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	d := DefaultLearning()
	if err := a.SetLearning(ctx, &d); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Apply(ctx, Batch{Queue: classEntries()}); err != nil {
		t.Fatal(err)
	}
	a.afterSteps = func() {
		if _, err := b.Apply(ctx, Batch{Done: classOutcomes()}); err != nil {
			t.Error(err)
		}
	}
	// p99 falls in the class of p0 (/b/p#*), and has its link priority.
	if _, err := a.Apply(ctx, Batch{Queue: []Entry{child("http://h.cn/b/p99.html", 0.5)}}); err != nil {
		t.Fatal(err)
	}
	us, err := a.Lease(ctx, LeaseRequest{N: 1000, For: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	prio := map[string]float64{}
	for _, u := range us {
		prio[u.URL] = u.Priority
	}
	p0, p99 := prio["http://h.cn/b/p0.html"], prio["http://h.cn/b/p99.html"]
	if p0 == 0.5 {
		t.Fatalf("/b/p0 kept its link priority 0.5: the class was not ranked again")
	}
	if p99 != p0 {
		t.Errorf("/b/p99 priority %v, want /b/p0's %v (same class, same link priority)", p99, p0)
	}
}
