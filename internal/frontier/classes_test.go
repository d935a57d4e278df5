package frontier

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
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

// forEachLearner runs fn against a fresh store of each kind that ranks
// URL classes.
func forEachLearner(t *testing.T, fn func(t *testing.T, s Store, reopen func(*testing.T) Store)) {
	forEachStore(t, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
		if !s.Capabilities().ClassRanking {
			t.Skipf("the %s store does not rank URL classes", s.Capabilities().Kind)
		}
		fn(t, s, reopen)
	})
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

// TestLearningColdStartKeepsOrder: before any page comes back, a store
// that learns leases in the order a SQLite frontier that does not gives.
func TestLearningColdStartKeepsOrder(t *testing.T) {
	ctx := context.Background()
	es := classEntries()
	// Entries of another host with ties, to check ties keep their order.
	for i := range 10 {
		es = append(es, entry(fmt.Sprintf("http://g.cn/x/%d.html", i), "g.cn", 0.55, 1+i%2))
	}
	plain, _ := openTest(t)
	if _, err := plain.Apply(ctx, Batch{Queue: es}); err != nil {
		t.Fatal(err)
	}
	want := leaseAll(t, plain)
	forEachLearner(t, func(t *testing.T, learned Store, _ func(*testing.T) Store) {
		d := DefaultLearning()
		if err := learned.SetLearning(ctx, &d); err != nil {
			t.Fatal(err)
		}
		if _, err := learned.Apply(ctx, Batch{Queue: es}); err != nil {
			t.Fatal(err)
		}
		if got := leaseAll(t, learned); len(want) != len(es) || !reflect.DeepEqual(got, want) {
			t.Fatalf("cold start order differs:\n got %v\nwant %v", got, want)
		}
	})
}

func TestLearningReranksQueuedURLs(t *testing.T) {
	for _, learn := range []bool{false, true} {
		forEachLearner(t, func(t *testing.T, s Store, _ func(*testing.T) Store) { learnAndLease(t, s, learn) })
	}
}

// learnAndLease queues classEntries, reports classOutcomes and checks
// which URLs come first: /b/'s when the store learns, /a/'s when not.
func learnAndLease(t *testing.T, s Store, learn bool) {
	ctx := context.Background()
	if learn {
		d := DefaultLearning()
		if err := s.SetLearning(ctx, &d); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Apply(ctx, Batch{Queue: classEntries()}); err != nil {
		t.Fatal(err)
	}
	// The outcomes come after the links were queued: only re-ranking
	// can move them.
	if _, err := s.Apply(ctx, Batch{Done: classOutcomes()}); err != nil {
		t.Fatal(err)
	}
	got := lease(t, s, LeaseRequest{N: 20, For: time.Minute})
	inB := 0
	for _, u := range got {
		if u[len("http://h.cn/"):][0] == 'b' {
			inB++
		}
	}
	switch {
	case learn && inB != 20:
		t.Errorf("learning: %d of the first 20 leased are under /b/, want all: %v", inB, got)
	case !learn && inB != 0:
		t.Errorf("without learning: %d of the first 20 leased are under /b/, want none", inB)
	}
}

// TestLearningNewLinksAndRaise: links queued after the feedback take
// their class's estimate, in one statement each (a host near its bound,
// on PostgreSQL) as in a bulk insert, and a better sighting raises a URL
// within its class.
func TestLearningNewLinksAndRaise(t *testing.T) {
	for _, maxPerHost := range []int64{0, 100} {
		forEachLearner(t, func(t *testing.T, s Store, _ func(*testing.T) Store) { newLinksAndRaise(t, s, maxPerHost) })
	}
}

func newLinksAndRaise(t *testing.T, s Store, maxPerHost int64) {
	ctx := context.Background()
	d := DefaultLearning()
	learnFromClasses(t, s, d)
	// Queued after the feedback: a new /b/ URL with a lower prior beats a
	// /a/ one; /c/ (no evidence) keeps its prior.
	es := []Entry{child("http://h.cn/a/new.html", 0.6), child("http://h.cn/b/new.html", 0.4), child("http://h.cn/c/new.html", 0.55)}
	if _, err := s.Apply(ctx, Batch{Queue: es, MaxPerHost: maxPerHost}); err != nil {
		t.Fatal(err)
	}
	// A better sighting of /a/new raises its prior, within its class.
	if _, err := s.Apply(ctx, Batch{Queue: []Entry{child("http://h.cn/a/new.html", 0.7)}, MaxPerHost: maxPerHost}); err != nil {
		t.Fatal(err)
	}
	us, err := s.Lease(ctx, LeaseRequest{N: 10, For: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range us {
		got = append(got, u.URL)
	}
	want := []string{"http://h.cn/b/new.html", "http://h.cn/c/new.html", "http://h.cn/a/new.html"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("leased %v, want %v", got, want)
	}
	// Ratios: /a/ pages 0.05 against priors 0.6, /b/ pages 0.9 against 0.5;
	// the root page is a seed and teaches nothing. ρ shrinks each class
	// towards its parent's.
	k := d.Pseudo
	labels, priors := 3*0.05+3*0.9, 3*0.6+3*0.5
	crawl := (6*labels/priors + k*1) / (6 + k)
	host := (6*labels/priors + k*crawl) / (6 + k)
	a := (3*0.05/0.6 + k*host) / (3 + k)
	// A class ranks its URLs by its ratio against its host's.
	if wantP := 0.7 * math.Pow(a/host, d.Weight); !near(us[2].Priority, wantP) {
		t.Errorf("raised /a/new priority %v, want %v", us[2].Priority, wantP)
	}
	if us[1].Priority != 0.55 {
		t.Errorf("/c/new priority %v, want its prior 0.55 (no evidence beyond the host's)", us[1].Priority)
	}
}

// learnFromClasses turns learning on with d, queues the root page and the
// three seen pages of each directory, and reports them (classOutcomes).
func learnFromClasses(t *testing.T, s Store, d Learning) {
	t.Helper()
	ctx := context.Background()
	if err := s.SetLearning(ctx, &d); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx, Batch{Queue: classEntries()[:7]}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx, Batch{Done: classOutcomes()}); err != nil {
		t.Fatal(err)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

func TestLearningPersists(t *testing.T) {
	forEachLearner(t, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
		ctx := context.Background()
		d := Learning{Weight: 0.7, Pseudo: 2, Epsilon: 0.005}
		learnFromClasses(t, s, d)
		if _, ok := s.(*SQLiteStore); ok {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}
		s2 := reopen(t)
		got, err := s2.Learning(ctx)
		if err != nil || got == nil || *got != d {
			t.Fatalf("learning after reopen %+v (%v), want %+v", got, err, d)
		}
		if _, err := s2.Apply(ctx, Batch{Queue: []Entry{
			child("http://h.cn/a/x.html", 0.6),
			child("http://h.cn/b/x.html", 0.5),
		}}); err != nil {
			t.Fatal(err)
		}
		if got := leaseAll(t, s2); len(got) != 2 || got[0] != "http://h.cn/b/x.html" {
			t.Fatalf("after reopen leased %v, want /b/ first (the classes' figures kept)", got)
		}
		if fetched, relevant, _, _, ok := readClassFigures(t, s2, "/b/"); ok && (fetched != 3 || relevant != 3) {
			t.Errorf("class /b/: %d fetched, %d relevant, want 3, 3", fetched, relevant)
		}
		// Turned off, the frontier queues by link priority again.
		if err := s2.SetLearning(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if l, err := s2.Learning(ctx); err != nil || l != nil {
			t.Fatalf("learning after off: %+v, %v", l, err)
		}
	})
}

func TestLearningOutcomeCountedOnce(t *testing.T) {
	forEachLearner(t, outcomeCountedOnce)
}

func outcomeCountedOnce(t *testing.T, s Store, _ func(*testing.T) Store) {
	ctx := context.Background()
	d := DefaultLearning()
	if err := s.SetLearning(ctx, &d); err != nil {
		t.Fatal(err)
	}
	es := []Entry{entry("http://h.cn/", "h.cn", 1, 0), child("http://h.cn/b/p.html", 0.5), child("http://h.cn/b/q.html", 0.4),
		child("http://h.cn/b/r.html", 0.3)}
	if _, err := s.Apply(ctx, Batch{Queue: es}); err != nil {
		t.Fatal(err)
	}
	o := []Outcome{{URL: "http://h.cn/b/p.html", Host: "h.cn", Site: "h.cn", Scored: true, Score: 0.8, Relevant: true},
		{URL: "http://h.cn/b/q.html", Host: "h.cn", Site: "h.cn", Error: "robots"},
		{URL: "http://h.cn/b/r.html", Host: "h.cn", Site: "h.cn"}, // unscored: no label
		{URL: "http://h.cn/b/never-queued.html", Host: "h.cn", Site: "h.cn", Scored: true, Score: 1}}
	for range 2 {
		if _, err := s.Apply(ctx, Batch{Done: o}); err != nil {
			t.Fatal(err)
		}
	}
	fetched, relevant, labels, priors, ok := readClassFigures(t, s, "/b/")
	if !ok {
		t.Skipf("the %s store's class figures are not SQL rows: TestClassesOutcomeCountedOnce judges it by its lease order", s.Capabilities().Kind)
	}
	if fetched != 2 || relevant != 1 || !near(labels, 0.8) || !near(priors, 0.5+0.4) {
		t.Errorf("class /b/: fetched %d, relevant %d, labels %v, priors %v; want 2, 1, 0.8 and 0.9 (each page once, the failure as 0)",
			fetched, relevant, labels, priors)
	}
}

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
