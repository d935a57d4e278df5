package frontier

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

func openTest(t *testing.T) (*SQLiteStore, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crawl.db")
	s, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func entry(u, host string, prio float64, depth int) Entry {
	e := Entry{URL: u, Host: host}
	e.Priority, e.Depth, e.Site = prio, depth, host
	return e
}

func lease(t *testing.T, s Store, r LeaseRequest) []string {
	t.Helper()
	if r.For == 0 {
		r.For = time.Minute
	}
	us, err := s.Lease(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, u := range us {
		out = append(out, u.URL)
	}
	return out
}

func TestApplyBestPriorityWins(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	res, err := s.Apply(ctx, Batch{Queue: []Entry{
		entry("http://a.cn/1", "a.cn", 0.2, 1),
		entry("http://a.cn/2", "a.cn", 0.5, 1),
		entry("http://a.cn/1", "a.cn", 0.9, 2), // seen again, better priority
		entry("http://a.cn/2", "a.cn", 0.1, 1), // seen again, worse
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Queued != 2 || res.Raised != 1 || res.Known != 1 {
		t.Fatalf("applied %+v, want 2 queued, 1 raised, 1 known", res)
	}
	us, err := s.Lease(ctx, LeaseRequest{N: 10, For: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if len(us) != 2 || us[0].URL != "http://a.cn/1" || us[0].Priority != 0.9 || us[0].Depth != 1 {
		t.Fatalf("leased %+v, want a.cn/1 first with priority 0.9 and its lowest depth 1", us)
	}
	if us[1].Priority != 0.5 {
		t.Errorf("a.cn/2 priority %v, want 0.5 kept", us[1].Priority)
	}
	if got := lease(t, s, LeaseRequest{N: 10}); len(got) != 0 {
		t.Errorf("leased again %v while leases run", got)
	}
}

func TestLeasePerHostAndOrder(t *testing.T) {
	s, _ := openTest(t)
	var q []Entry
	for i := 0; i < 5; i++ {
		q = append(q, entry(fmt.Sprintf("http://a.cn/%d", i), "a.cn", 0.9-float64(i)/100, 1))
	}
	q = append(q, entry("http://b.cn/", "b.cn", 0.1, 1), entry("http://c.cn/", "c.cn", 0.5, 0))
	if _, err := s.Apply(context.Background(), Batch{Queue: q}); err != nil {
		t.Fatal(err)
	}
	got := lease(t, s, LeaseRequest{N: 4, PerHost: 2})
	want := []string{"http://a.cn/0", "http://a.cn/1", "http://c.cn/", "http://b.cn/"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("leased %v, want %v", got, want)
	}
	got = lease(t, s, LeaseRequest{N: 10, PerHost: 2})
	if fmt.Sprint(got) != fmt.Sprint([]string{"http://a.cn/2", "http://a.cn/3"}) {
		t.Fatalf("second lease %v", got)
	}
}

func TestLeaseExpiryAndDone(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if _, err := s.Apply(ctx, Batch{Queue: []Entry{entry("http://a.cn/", "a.cn", 1, 0), entry("http://a.cn/x", "a.cn", 0.5, 1)}}); err != nil {
		t.Fatal(err)
	}
	got := lease(t, s, LeaseRequest{N: 2, For: 50 * time.Millisecond, Owner: 7})
	if len(got) != 2 {
		t.Fatalf("leased %v", got)
	}
	if n, _ := s.Holding(ctx, 7); n != 2 {
		t.Errorf("Holding = %d, want 2", n)
	}
	if c, _ := s.Counts(ctx); c.Queued || !c.Leased {
		t.Errorf("counts %+v while leased", c)
	}
	// One comes back done; the other is lost by a crashed stage.
	if _, err := s.Apply(ctx, Batch{Done: []Outcome{{URL: "http://a.cn/", Host: "a.cn", Status: 200, Scored: true, Score: 0.8, Relevant: true}}}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(80 * time.Millisecond)
	if c, _ := s.Counts(ctx); !c.Queued || c.Leased {
		t.Errorf("counts %+v after expiry, want queued", c)
	}
	got = lease(t, s, LeaseRequest{N: 10})
	if fmt.Sprint(got) != "[http://a.cn/x]" {
		t.Fatalf("after expiry leased %v, want only the lost URL", got)
	}
	// Queuing a done URL again does not requeue it.
	res, err := s.Apply(ctx, Batch{Queue: []Entry{entry("http://a.cn/", "a.cn", 1, 0)}})
	if err != nil || res.Known != 1 {
		t.Fatalf("requeue done: %+v %v", res, err)
	}
	st, err := s.Stats(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	if st.States["done"] != 1 || st.States["leased"] != 1 || st.Expired != 1 || st.Relevant != 1 || st.HarvestRate != 1 {
		t.Errorf("stats %+v", st)
	}
	if len(st.TopHosts) != 1 || st.TopHosts[0].URLs != 2 || st.TopHosts[0].Fetched != 1 {
		t.Errorf("top hosts %+v", st.TopHosts)
	}
}

func TestApplyMaxPerHostAndEdges(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	b := Batch{MaxPerHost: 2, Queue: []Entry{
		entry("http://a.cn/", "a.cn", 1, 0), entry("http://a.cn/1", "a.cn", 1, 1), entry("http://a.cn/2", "a.cn", 1, 1),
	}, Edges: []Edge{{From: "http://a.cn/", To: "http://a.cn/1", Priority: 0.4}, {From: "http://a.cn/", To: "http://a.cn/2"}}}
	res, err := s.Apply(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if res.Queued != 2 || res.Refused != 1 {
		t.Fatalf("applied %+v, want 2 queued 1 refused", res)
	}
	st, err := s.Stats(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if st.Refused[GuardMaxPerHost] != 1 || st.Edges != 1 {
		t.Errorf("refused %v edges %d, want 1 and 1", st.Refused, st.Edges)
	}
	// A new process sees the host count from the database.
	s2, err := OpenSQLite(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	res, err = s2.Apply(ctx, Batch{MaxPerHost: 2, Queue: []Entry{entry("http://a.cn/3", "a.cn", 1, 1)}})
	if err != nil || res.Refused != 1 {
		t.Fatalf("second process: %+v %v", res, err)
	}
}

func TestFinalURLAndMeta(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	e := entry("http://a.cn/", "a.cn", 1, 0)
	e.Meta = record.Meta(`{"tag":"x"}`)
	if _, err := s.Apply(ctx, Batch{Queue: []Entry{e}}); err != nil {
		t.Fatal(err)
	}
	us, err := s.Lease(ctx, LeaseRequest{N: 1, For: time.Minute})
	if err != nil || len(us) != 1 || string(us[0].Meta) != `{"tag":"x"}` || us[0].Site != "a.cn" {
		t.Fatalf("lease %+v %v", us, err)
	}
	o := Outcome{URL: "http://a.cn/", Host: "a.cn", FinalURL: "https://www.a.cn/", FinalHost: "www.a.cn", Error: "HTTP 404", Status: 404}
	if _, err := s.Apply(ctx, Batch{Done: []Outcome{o}}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Apply(ctx, Batch{Queue: []Entry{entry("https://www.a.cn/", "www.a.cn", 1, 1)}})
	if err != nil || res.Queued != 0 {
		t.Fatalf("final URL queued again: %+v %v", res, err)
	}
	st, _ := s.Stats(ctx, 0)
	if st.States["failed"] != 2 {
		t.Errorf("failed = %d, want 2 (URL and final URL)", st.States["failed"])
	}
}

// Two handles on one file, as seed next and seed add in one pipe: every
// URL queued is leased exactly once.
func TestConcurrentProcesses(t *testing.T) {
	s, path := openTest(t)
	s2, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	ctx := context.Background()
	const total = 2000
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < total; i += 100 {
			var q []Entry
			for j := i; j < i+100; j++ {
				q = append(q, entry(fmt.Sprintf("http://h%d.cn/%d", j%7, j), fmt.Sprintf("h%d.cn", j%7), float64(j%10)/10, 1))
			}
			if _, err := s2.Apply(ctx, Batch{Queue: q}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	seen := map[string]bool{}
	deadline := time.Now().Add(20 * time.Second)
	for len(seen) < total && time.Now().Before(deadline) {
		for _, u := range lease(t, s, LeaseRequest{N: 150, PerHost: 30}) {
			if seen[u] {
				t.Fatalf("%s leased twice", u)
			}
			seen[u] = true
		}
	}
	wg.Wait()
	if len(seen) != total {
		t.Fatalf("leased %d of %d", len(seen), total)
	}
}

func TestPageScoresAndEdges(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	b := Batch{
		Done:  []Outcome{{URL: "http://a.cn/", Host: "a.cn", Scored: true, Score: 0.7}, {URL: "http://a.cn/bad", Host: "a.cn", Error: "timeout"}},
		Queue: []Entry{entry("http://a.cn/1", "a.cn", 0.5, 1)},
		Edges: []Edge{{From: "http://a.cn/", To: "http://a.cn/1", Anchor: "林业", Context: "关于林业"}, {From: "http://a.cn/", To: "http://a.cn/bad"},
			{From: "http://a.cn/", To: "http://refused.cn/"}},
	}
	if _, err := s.Apply(ctx, b); err != nil {
		t.Fatal(err)
	}
	m, err := s.PageScores(ctx, []string{"http://a.cn/", "http://a.cn/1", "http://a.cn/bad", "http://nowhere/"})
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != 2 || m["http://a.cn/"] != 0.7 || m["http://a.cn/bad"] != 0 {
		t.Errorf("page scores %v, want the two fetched pages only", m)
	}
	var got []string
	err = s.WalkEdges(ctx, func(e Edge) error {
		got = append(got, e.From+" "+e.To+" "+e.Anchor+" "+e.Context)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	want := []string{"http://a.cn/ http://a.cn/1 林业 关于林业", "http://a.cn/ http://a.cn/bad  "}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("edges %q, want %q", got, want)
	}
}

// Two URLs with one hash are told apart by their text.
func TestHashCollision(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if _, err := s.Apply(ctx, Batch{Queue: []Entry{entry("http://a.cn/", "a.cn", 0.5, 0)}}); err != nil {
		t.Fatal(err)
	}
	// Plant a done URL that shares http://b.cn/'s hash.
	if _, err := s.DB().Exec(`INSERT INTO urls (h, url, host_id, state, priority, depth, added_at, score) VALUES (?, 'http://impostor.cn/', 1, 2, 0, 0, 0, 0.9)`, urlHash("http://b.cn/")); err != nil {
		t.Fatal(err)
	}
	res, err := s.Apply(ctx, Batch{Queue: []Entry{entry("http://b.cn/", "b.cn", 0.9, 0)}})
	if err != nil || res.Queued != 1 {
		t.Fatalf("queue colliding URL: %+v %v, want it queued, not taken for the impostor", res, err)
	}
	res, err = s.Apply(ctx, Batch{Queue: []Entry{entry("http://b.cn/", "b.cn", 0.95, 0)}})
	if err != nil || res.Raised != 1 {
		t.Fatalf("colliding URL seen again: %+v %v, want it found and raised", res, err)
	}
	got := lease(t, s, LeaseRequest{N: 5})
	if fmt.Sprint(got) != "[http://b.cn/ http://a.cn/]" {
		t.Fatalf("leased %v", got)
	}
	m, err := s.PageScores(ctx, []string{"http://b.cn/"})
	if err != nil || len(m) != 0 {
		t.Errorf("page scores %v %v: b.cn is not fetched (the impostor is)", m, err)
	}
	if _, err := s.Apply(ctx, Batch{Done: []Outcome{{URL: "http://b.cn/", Host: "b.cn", Scored: true, Score: 0.4}}}); err != nil {
		t.Fatal(err)
	}
	m, err = s.PageScores(ctx, []string{"http://b.cn/"})
	if err != nil || m["http://b.cn/"] != 0.4 {
		t.Errorf("page scores %v %v", m, err)
	}
	var impostor float64
	if err := s.DB().QueryRow(`SELECT score FROM urls WHERE url = 'http://impostor.cn/'`).Scan(&impostor); err != nil || impostor != 0.9 {
		t.Errorf("the impostor was changed: %v %v", impostor, err)
	}
}

func TestRenew(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if _, err := s.Apply(ctx, Batch{Queue: []Entry{entry("http://a.cn/1", "a.cn", 1, 0), entry("http://a.cn/2", "a.cn", 0.5, 0)}}); err != nil {
		t.Fatal(err)
	}
	// Owner 1's lease is long enough to be running whatever the machine's
	// load; owner 2's is short, so it must run out once it is not renewed.
	lease(t, s, LeaseRequest{N: 1, For: 30 * time.Second, Owner: 1})
	lease(t, s, LeaseRequest{N: 1, For: 300 * time.Millisecond, Owner: 2})
	time.Sleep(20 * time.Millisecond)
	if n, err := s.Renew(ctx, 1, time.Now().Add(time.Minute), time.Hour); err != nil || n != 1 {
		t.Fatalf("Renew = %d, %v; want owner 1's one lease", n, err)
	}
	if n, _ := s.Renew(ctx, 2, time.Now().Add(time.Minute), 10*time.Millisecond); n != 0 {
		t.Errorf("a lease older than maxAge was renewed")
	}
	time.Sleep(400 * time.Millisecond)
	if got := lease(t, s, LeaseRequest{N: 5}); fmt.Sprint(got) != "[http://a.cn/2]" {
		t.Errorf("after expiry leased %v, want only the unrenewed URL", got)
	}
}
