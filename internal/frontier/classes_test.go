package frontier

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

func TestLearningValidate(t *testing.T) {
	for _, l := range []Learning{
		{Weight: 4.5, Pseudo: 4},
		{Weight: -1, Pseudo: 4},
		{Weight: 0.5, Pseudo: 0},
		{Weight: 0.5, Pseudo: 4, Epsilon: 1},
	} {
		if err := l.Validate(); err == nil {
			t.Errorf("%+v accepted", l)
		}
	}
	d := DefaultLearning()
	if err := d.Validate(); err != nil {
		t.Error(err)
	}
}

// child is an entry linked from the page http://h.cn/.
func child(u string, prio float64) Entry {
	e := entry(u, "h.cn", prio, 1)
	e.Parent = "http://h.cn/"
	return e
}

// classEntries: 20 links under /a/ with the better link priorities, 20
// under /b/, and the three pages of each that will come back first.
func classEntries() []Entry {
	es := []Entry{entry("http://h.cn/", "h.cn", 1, 0)}
	for i := range 3 {
		es = append(es, child(fmt.Sprintf("http://h.cn/a/seen%d.html", i), 0.6), child(fmt.Sprintf("http://h.cn/b/seen%d.html", i), 0.5))
	}
	for i := range 20 {
		es = append(es, child(fmt.Sprintf("http://h.cn/a/p%d.html", i), 0.6+float64(i%5)/100))
		es = append(es, child(fmt.Sprintf("http://h.cn/b/p%d.html", i), 0.5+float64(i%5)/100))
	}
	return es
}

// classOutcomes: the root page and three pages of each directory come
// back; /b/'s are relevant.
func classOutcomes() []Outcome {
	os := []Outcome{{URL: "http://h.cn/", Host: "h.cn", Site: "h.cn", Scored: true, Score: 0.5}}
	for i := range 3 {
		os = append(os,
			Outcome{URL: fmt.Sprintf("http://h.cn/a/seen%d.html", i), Host: "h.cn", Site: "h.cn", Scored: true, Score: 0.05},
			Outcome{URL: fmt.Sprintf("http://h.cn/b/seen%d.html", i), Host: "h.cn", Site: "h.cn", Scored: true, Score: 0.9, Relevant: true})
	}
	return os
}

func leaseAll(t *testing.T, s Store) []string {
	t.Helper()
	return lease(t, s, LeaseRequest{N: 1000, For: time.Minute})
}

// readClassFigures reads the figures of the class with key (of the one host
// the test queued; "" is the crawl's) where the store is SQL; ok is false
// on another store.
func readClassFigures(t *testing.T, s Store, key string) (fetched, relevant int, labels, priors float64, ok bool) {
	t.Helper()
	const q = `SELECT fetched, relevant, labels, priors FROM classes WHERE key = `
	var err error
	switch s := s.(type) {
	case *SQLiteStore:
		err = s.DB().QueryRow(q+`?`, key).Scan(&fetched, &relevant, &labels, &priors)
	case *PostgresStore:
		err = s.Pool().QueryRow(context.Background(), q+`$1`, key).Scan(&fetched, &relevant, &labels, &priors)
	default:
		return 0, 0, 0, 0, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return fetched, relevant, labels, priors, true
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// BenchmarkApplyLearning: one crawl-sized Apply with learning on — ten
// pages come back (their classes re-rank their queued URLs) with 60 links
// each — in a frontier of 100,000 queued URLs over 20 hosts × 50
// directories.
func BenchmarkApplyLearning(b *testing.B) {
	s, err := OpenSQLite(filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	d := DefaultLearning()
	if err := s.SetLearning(ctx, &d); err != nil {
		b.Fatal(err)
	}
	link := func(i int) Entry {
		host := fmt.Sprintf("h%d.cn", i%20)
		e := entry(fmt.Sprintf("http://%s/d%d/p-%d.html", host, (i/20)%50, i), host, float64(i%100)/100, 2)
		e.Parent = "http://h0.cn/"
		return e
	}
	es := []Entry{entry("http://h0.cn/", "h0.cn", 1, 0)}
	for i := range 100000 {
		es = append(es, link(i))
	}
	if _, err := s.Apply(ctx, Batch{Queue: es}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	next := 100000
	for n := range b.N {
		var batch Batch
		for k := range 10 {
			u := link(n*10 + k).URL
			batch.Done = append(batch.Done, Outcome{URL: u, Host: HostOf(u), Site: HostOf(u), Scored: true, Score: float64((n*10+k)%7) / 7})
		}
		for range 60 {
			batch.Queue = append(batch.Queue, link(next))
			next++
		}
		if _, err := s.Apply(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
}
