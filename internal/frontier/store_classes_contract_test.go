package frontier

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"sort"
	"testing"
	"time"
)

// The URL-class contract (classes.go): every store whose Capabilities
// say it ranks URL classes keeps these behaviours, judged by what a crawl
// sees — the lease order and the priorities leased — so that one test
// holds for every store. On the SQL stores the class figures stored are
// checked too (readClassFigures), as the lease order shows their ratio
// but not every count. A store that does not rank classes must refuse
// SetLearning. The fixtures (classEntries, classOutcomes) are in
// classes_test.go.

// forEachClassStore runs fn on a fresh store of each kind that ranks URL
// classes, with learning on as l, and checks the others refuse it.
func forEachClassStore(t *testing.T, l Learning, fn func(t *testing.T, s Store, reopen func(*testing.T) Store)) {
	forEachStore(t, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
		ctx := context.Background()
		caps := s.Capabilities()
		err := s.SetLearning(ctx, &l)
		if !caps.ClassRanking {
			if err == nil {
				t.Fatalf("%s: Capabilities say no class ranking, but SetLearning accepted it", caps.Kind)
			}
			t.Skipf("%s: no class ranking (%v)", caps.Kind, err)
		}
		if err != nil {
			t.Fatal(err)
		}
		fn(t, s, reopen)
	})
}

// classRatios are ρ of the crawl's class, the host's and a directory's
// after n pages of one host, all in that directory, came back with Σ
// labels L against Σ priors P (the crawl knows no other host).
func classRatios(l Learning, n, L, P float64) (crawl, host, dir float64) {
	k := l.Pseudo
	crawl = (n*L/P + k) / (n + k)
	host = (n*L/P + k*crawl) / (n + k)
	dir = (n*L/P + k*host) / (n + k)
	return crawl, host, dir
}

func leaseURLs(t *testing.T, s Store, n int) []string {
	t.Helper()
	var out []string
	for _, u := range leaseRecords(t, s, n) {
		out = append(out, u.URL)
	}
	return out
}

func leaseRecords(t *testing.T, s Store, n int) []leased {
	t.Helper()
	us, err := s.Lease(context.Background(), LeaseRequest{N: n, For: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]leased, len(us))
	for i, u := range us {
		out[i] = leased{u.URL, u.Priority}
	}
	return out
}

type leased struct {
	URL      string
	Priority float64
}

// TestClassesColdStartKeepsOrder: before any page comes back, a store
// that learns leases in the order of the link priorities, the order a
// SQLite frontier that does not learn gives.
func TestClassesColdStartKeepsOrder(t *testing.T) {
	es := classEntries()
	// Entries of another host with ties, to check ties keep their order.
	for i := range 10 {
		es = append(es, entry(fmt.Sprintf("http://g.cn/x/%d.html", i), "g.cn", 0.55, 1+i%2))
	}
	// The order of the link priorities: priority, then depth, then the
	// order queued.
	want := append([]Entry(nil), es...)
	sort.SliceStable(want, func(i, j int) bool {
		if want[i].Priority != want[j].Priority {
			return want[i].Priority > want[j].Priority
		}
		return want[i].Depth < want[j].Depth
	})
	plain, _ := openTest(t)
	if _, err := plain.Apply(context.Background(), Batch{Queue: es}); err != nil {
		t.Fatal(err)
	}
	plainOrder := leaseAll(t, plain)
	for i, w := range want {
		if i >= len(plainOrder) || plainOrder[i] != w.URL {
			t.Fatalf("a SQLite frontier that does not learn leases %v, want the link priorities' order", plainOrder)
		}
	}
	forEachClassStore(t, DefaultLearning(), func(t *testing.T, s Store, _ func(*testing.T) Store) {
		if _, err := s.Apply(context.Background(), Batch{Queue: es}); err != nil {
			t.Fatal(err)
		}
		got := leaseRecords(t, s, 1000)
		if len(got) != len(want) {
			t.Fatalf("leased %d, want %d", len(got), len(want))
		}
		for i, g := range got {
			if g.URL != want[i].URL || g.Priority != want[i].Priority {
				t.Fatalf("cold start: leased #%d %s (priority %v), want %s (%v)", i, g.URL, g.Priority, want[i].URL, want[i].Priority)
			}
		}
	})
}

// TestClassesOffKeepsLinkOrder: on every store, the pages that come back
// while learning was never turned on move no queued URL: /a/'s better link
// priorities come first, with those priorities.
func TestClassesOffKeepsLinkOrder(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		ctx := context.Background()
		if _, err := s.Apply(ctx, Batch{Queue: classEntries()}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Apply(ctx, Batch{Done: classOutcomes()}); err != nil {
			t.Fatal(err)
		}
		prior := map[string]float64{}
		for _, e := range classEntries() {
			prior[e.URL] = e.Priority
		}
		got := leaseRecords(t, s, 20)
		if len(got) != 20 {
			t.Fatalf("leased %d, want 20", len(got))
		}
		for _, u := range got {
			if u.URL[len("http://h.cn/"):][0] != 'a' || u.Priority != prior[u.URL] {
				t.Fatalf("without learning leased %v, want only /a/ URLs with their link priorities", got)
			}
		}
	})
}

// TestClassesRerankQueuedURLs: pages that come back re-rank the URLs
// their classes hold queued.
func TestClassesRerankQueuedURLs(t *testing.T) {
	forEachClassStore(t, DefaultLearning(), func(t *testing.T, s Store, _ func(*testing.T) Store) {
		ctx := context.Background()
		if _, err := s.Apply(ctx, Batch{Queue: classEntries()}); err != nil {
			t.Fatal(err)
		}
		// The outcomes come after the links were queued: only ranking
		// them again can move /b/'s ahead of /a/'s better link priorities.
		if _, err := s.Apply(ctx, Batch{Done: classOutcomes()}); err != nil {
			t.Fatal(err)
		}
		got := leaseURLs(t, s, 20)
		inB := 0
		for _, u := range got {
			if u[len("http://h.cn/"):][0] == 'b' {
				inB++
			}
		}
		if inB != 20 {
			t.Errorf("%d of the first 20 leased are under /b/, want all: %v", inB, got)
		}
	})
}

// TestClassesNewLinksAndRaise: links queued after the feedback take their
// class's estimate, and a better sighting raises a URL within its class.
// PostgreSQL inserts new links in one bulk statement or, when the batch
// holds their parent (or a host bound is set), one statement each
// (pgApply.queueAll): both ways are checked, on every store.
func TestClassesNewLinksAndRaise(t *testing.T) {
	d := DefaultLearning()
	for _, way := range []struct {
		name       string
		parent     bool  // the links' parent page queued (again) in their batch
		maxPerHost int64 // a bound the host stays under
	}{{"bulk", false, 0}, {"one-by-one", true, 100}} {
		t.Run(way.name, func(t *testing.T) {
			forEachClassStore(t, d, func(t *testing.T, s Store, _ func(*testing.T) Store) {
				newLinksAndRaise(t, s, d, way.parent, way.maxPerHost)
			})
		})
	}
}

func newLinksAndRaise(t *testing.T, s Store, d Learning, parent bool, maxPerHost int64) {
	ctx := context.Background()
	if _, err := s.Apply(ctx, Batch{Queue: classEntries()[:7]}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx, Batch{Done: classOutcomes()}); err != nil {
		t.Fatal(err)
	}
	// Queued after the feedback: a new /b/ URL with a lower prior beats
	// an /a/ one; /c/ (no evidence) keeps its prior.
	es := []Entry{child("http://h.cn/a/new.html", 0.6), child("http://h.cn/b/new.html", 0.4), child("http://h.cn/c/new.html", 0.55)}
	if parent {
		// The root page, fetched already, is known and stays done.
		es = append([]Entry{entry("http://h.cn/", "h.cn", 1, 0)}, es...)
	}
	if _, err := s.Apply(ctx, Batch{Queue: es, MaxPerHost: maxPerHost}); err != nil {
		t.Fatal(err)
	}
	// A better sighting of /a/new raises its prior, within its class.
	if _, err := s.Apply(ctx, Batch{Queue: []Entry{child("http://h.cn/a/new.html", 0.7)}, MaxPerHost: maxPerHost}); err != nil {
		t.Fatal(err)
	}
	got := leaseRecords(t, s, 10)
	want := []string{"http://h.cn/b/new.html", "http://h.cn/c/new.html", "http://h.cn/a/new.html"}
	if len(got) != 3 || got[0].URL != want[0] || got[1].URL != want[1] || got[2].URL != want[2] {
		t.Fatalf("leased %v, want %v", got, want)
	}
	// /a/ pages 0.05 against priors 0.6, /b/ pages 0.9 against 0.5;
	// the root page is a seed and teaches nothing.
	_, host, _ := classRatios(d, 6, 3*0.05+3*0.9, 3*0.6+3*0.5)
	a := (3*0.05/0.6 + d.Pseudo*host) / (3 + d.Pseudo)
	b := (3*0.9/0.5 + d.Pseudo*host) / (3 + d.Pseudo)
	if wantP := 0.7 * math.Pow(a/host, d.Weight); !near(got[2].Priority, wantP) {
		t.Errorf("raised /a/new priority %v, want %v", got[2].Priority, wantP)
	}
	if wantP := 0.4 * math.Pow(b/host, d.Weight); !near(got[0].Priority, wantP) {
		t.Errorf("/b/new priority %v, want %v", got[0].Priority, wantP)
	}
	if got[1].Priority != 0.55 {
		t.Errorf("/c/new priority %v, want its prior 0.55 (no evidence beyond the host's)", got[1].Priority)
	}
}

func TestClassesPersist(t *testing.T) {
	d := Learning{Weight: 0.7, Pseudo: 2, Epsilon: 0.005}
	forEachClassStore(t, d, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
		ctx := context.Background()
		if _, err := s.Apply(ctx, Batch{Queue: classEntries()[:7]}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Apply(ctx, Batch{Done: classOutcomes()}); err != nil {
			t.Fatal(err)
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
		// The classes' figures are kept: /b/x ranks by /b/'s record.
		us := leaseRecords(t, s2, 10)
		_, host, _ := classRatios(d, 6, 3*0.05+3*0.9, 3*0.6+3*0.5)
		b := (3*0.9/0.5 + d.Pseudo*host) / (3 + d.Pseudo)
		if len(us) != 2 || us[0].URL != "http://h.cn/b/x.html" {
			t.Fatalf("after reopen leased %v, want /b/ first", us)
		}
		if want := 0.5 * math.Pow(b/host, d.Weight); !near(us[0].Priority, want) {
			t.Errorf("after reopen /b/x priority %v, want %v", us[0].Priority, want)
		}
		if fetched, relevant, labels, priors, ok := readClassFigures(t, s2, "/b/"); ok &&
			(fetched != 3 || relevant != 3 || !near(labels, 3*0.9) || !near(priors, 3*0.5)) {
			t.Errorf("class /b/ after reopen: fetched %d, relevant %d, labels %v, priors %v; want 3, 3, 2.7, 1.5", fetched, relevant, labels, priors)
		}
		// Turned off, the frontier queues by link priority again.
		if err := s2.SetLearning(ctx, nil); err != nil {
			t.Fatal(err)
		}
		for _, st := range []Store{s, s2} {
			if l, err := st.Learning(ctx); err != nil || l != nil {
				t.Fatalf("learning after off: %+v, %v", l, err)
			}
		}
		if _, err := s.Apply(ctx, Batch{Queue: []Entry{child("http://h.cn/a/y.html", 0.6), child("http://h.cn/b/y.html", 0.5)}}); err != nil {
			t.Fatal(err)
		}
		want := []leased{{"http://h.cn/a/y.html", 0.6}, {"http://h.cn/b/y.html", 0.5}}
		if got := leaseRecords(t, s, 10); !reflect.DeepEqual(got, want) {
			t.Errorf("learning off: leased %v, want %v", got, want)
		}
	})
}

func TestClassesOutcomeCountedOnce(t *testing.T) {
	d := DefaultLearning()
	forEachClassStore(t, d, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		ctx := context.Background()
		es := []Entry{entry("http://h.cn/", "h.cn", 1, 0), child("http://h.cn/b/p.html", 0.5), child("http://h.cn/b/q.html", 0.4),
			child("http://h.cn/b/r.html", 0.3)}
		if _, err := s.Apply(ctx, Batch{Queue: es}); err != nil {
			t.Fatal(err)
		}
		if got := leaseURLs(t, s, 10); len(got) != 4 {
			t.Fatalf("leased %v", got)
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
		// Each page once, the failure as 0, the unscored page and the
		// one never queued not at all: 2 pages, labels 0.8, priors 0.9.
		// The ratio shows in the lease below; the stored counts, where
		// they are SQL rows, show the relevant page too.
		if fetched, relevant, labels, priors, ok := readClassFigures(t, s, "/b/"); ok &&
			(fetched != 2 || relevant != 1 || !near(labels, 0.8) || !near(priors, 0.5+0.4)) {
			t.Errorf("class /b/: fetched %d, relevant %d, labels %v, priors %v; want 2, 1, 0.8 and 0.9", fetched, relevant, labels, priors)
		}
		if _, err := s.Apply(ctx, Batch{Queue: []Entry{child("http://h.cn/b/z.html", 0.5)}}); err != nil {
			t.Fatal(err)
		}
		_, host, b := classRatios(d, 2, 0.8, 0.9)
		us := leaseRecords(t, s, 10)
		if want := 0.5 * math.Pow(b/host, d.Weight); len(us) != 1 || !near(us[0].Priority, want) {
			t.Errorf("leased %v, want /b/z with priority %v", us, want)
		}
	})
}
