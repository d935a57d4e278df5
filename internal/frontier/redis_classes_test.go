package frontier

import (
	"context"
	"strings"
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
	b := openRedisAgain(t, dsn)
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

// TestRedisClassesLayoutVersion: turning learning on marks the crawl as
// layout version 2 (records with the class fields), which this build
// opens and a build that reads only version 1 refuses; an unknown
// version is refused with a message that names it.
func TestRedisClassesLayoutVersion(t *testing.T) {
	ctx := context.Background()
	s, dsn := openTestRedis(t)
	version := func() string {
		v, err := s.Client().HGet(ctx, s.Prefix()+"meta", "schema").Result()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := version(); v != "1" {
		t.Fatalf("a new crawl is version %s, want 1", v)
	}
	d := DefaultLearning()
	if err := s.SetLearning(ctx, &d); err != nil {
		t.Fatal(err)
	}
	if v := version(); v != "2" {
		t.Fatalf("a learning crawl is version %s, want 2", v)
	}
	s2, err := OpenRedis(ctx, dsn)
	if err != nil {
		t.Fatalf("reopen version 2: %v", err)
	}
	s2.Close()
	if err := s.Client().HSet(ctx, s.Prefix()+"meta", "schema", "3").Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenRedis(ctx, dsn); err == nil || !strings.Contains(err.Error(), "key layout version 3") {
		t.Fatalf("version 3 opened: %v", err)
	}
}
