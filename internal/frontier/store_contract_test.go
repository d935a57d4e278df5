package frontier

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// The contract every Store keeps, run against each implementation: the
// SQLite file and a Redis database (the server at FOCUSCRAWL_TEST_REDIS,
// default redis://127.0.0.1:6379/15; each test uses a prefix of its own
// and deletes its keys). Without a Redis server the Redis runs are
// skipped, except under CI=true, where they fail.

var redisTestSeq atomic.Int64

// testRedisURL is the database the Redis tests use.
func testRedisURL() string {
	if u := os.Getenv("FOCUSCRAWL_TEST_REDIS"); u != "" {
		return u
	}
	return "redis://127.0.0.1:6379/15"
}

// openTestRedis opens a Redis store under a prefix of its own, or skips
// (fails under CI) when no server answers.
func openTestRedis(t testing.TB) (*RedisStore, string) {
	t.Helper()
	dsn := fmt.Sprintf("%s?prefix=test-%d-%d-%d", testRedisURL(), os.Getpid(), time.Now().UnixNano(), redisTestSeq.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := OpenRedis(ctx, dsn)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("Redis is needed for these tests under CI: %v", err)
		}
		t.Skipf("no Redis server: %v", err)
	}
	t.Cleanup(func() {
		_ = s.Drop(context.Background())
		s.Close()
	})
	return s, dsn
}

// openRedisAgain opens a second handle on the Redis frontier of dsn, as
// another worker would; it is closed when the test ends.
func openRedisAgain(t testing.TB, dsn string) *RedisStore {
	t.Helper()
	s, err := OpenRedis(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// forEachStore runs fn against a fresh store of each kind; reopen opens a
// second handle on the same frontier, as another process would.
func forEachStore(t *testing.T, fn func(t *testing.T, s Store, reopen func(*testing.T) Store)) {
	t.Run("sqlite", func(t *testing.T) {
		s, path := openTest(t)
		fn(t, s, func(t *testing.T) Store {
			s2, err := OpenSQLite(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s2.Close() })
			return s2
		})
	})
	t.Run("redis", func(t *testing.T) {
		s, dsn := openTestRedis(t)
		fn(t, s, func(t *testing.T) Store {
			s2, err := OpenRedis(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s2.Close() })
			return s2
		})
	})
	t.Run("postgres", func(t *testing.T) {
		s, dsn := openTestPostgres(t)
		fn(t, s, func(t *testing.T) Store {
			s2, err := OpenPostgres(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s2.Close() })
			return s2
		})
	})
}

func TestApplyBestPriorityWins(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
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
	})
}

func TestLeasePerHostAndOrder(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
		var q []Entry
		for i := 0; i < 9; i++ {
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
		// Per host bounds one call.
		got = lease(t, s, LeaseRequest{N: 10, PerHost: 2})
		if fmt.Sprint(got) != fmt.Sprint([]string{"http://a.cn/2", "http://a.cn/3"}) {
			t.Fatalf("second lease %v", got)
		}
		// The host limit bounds the workers holding a host's leases: a.cn's
		// four are worker 0's, so worker 1 waits until they come back,
		// while worker 0 may take more.
		if got = lease(t, s, LeaseRequest{N: 10, HostLimit: 1, Owner: 1}); len(got) != 0 {
			t.Fatalf("worker 1 leased %v while worker 0 holds a.cn, limit 1", got)
		}
		if got = lease(t, s, LeaseRequest{N: 1, HostLimit: 1}); fmt.Sprint(got) != "[http://a.cn/4]" {
			t.Fatalf("worker 0, holding a.cn, leased %v", got)
		}
		done := Batch{Done: []Outcome{}}
		for _, u := range []string{"http://a.cn/0", "http://a.cn/1", "http://a.cn/2", "http://a.cn/3", "http://a.cn/4"} {
			done.Done = append(done.Done, Outcome{URL: u, Host: "a.cn"})
		}
		if _, err := s.Apply(context.Background(), done); err != nil {
			t.Fatal(err)
		}
		got = lease(t, s, LeaseRequest{N: 10, HostLimit: 1, Owner: 1, PerHost: 2})
		if fmt.Sprint(got) != fmt.Sprint([]string{"http://a.cn/5", "http://a.cn/6"}) {
			t.Fatalf("worker 1's lease once a.cn's came back: %v", got)
		}
		if got = lease(t, s, LeaseRequest{N: 10, HostLimit: 2, Owner: 2, PerHost: 1}); fmt.Sprint(got) != "[http://a.cn/7]" {
			t.Fatalf("limit 2: a second worker's lease %v", got)
		}
		if got = lease(t, s, LeaseRequest{N: 10, HostLimit: 2, Owner: 3}); len(got) != 0 {
			t.Fatalf("limit 2: a third worker leased %v", got)
		}
	})
}

// TestLeaseHostGap: a host passes from the worker that leased it last to
// another only HostGap after that lease; the worker that holds it goes on.
func TestLeaseHostGap(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		var q []Entry
		for i := 0; i < 8; i++ {
			q = append(q, entry(fmt.Sprintf("http://g.cn/%d", i), "g.cn", 0.9-float64(i)/100, 1))
		}
		cQueue(t, s, q...)
		gap := 300 * time.Millisecond
		if got := lease(t, s, LeaseRequest{N: 1, HostGap: gap, Owner: 1}); fmt.Sprint(got) != "[http://g.cn/0]" {
			t.Fatalf("first lease %v", got)
		}
		if got := lease(t, s, LeaseRequest{N: 1, HostGap: gap, Owner: 1}); fmt.Sprint(got) != "[http://g.cn/1]" {
			t.Fatalf("the worker holding g.cn waits for its own gap: %v", got)
		}
		cReport(t, s, nil, Outcome{URL: "http://g.cn/0", Host: "g.cn"}, Outcome{URL: "http://g.cn/1", Host: "g.cn"})
		if got := lease(t, s, LeaseRequest{N: 1, HostGap: gap, Owner: 2}); len(got) != 0 {
			t.Fatalf("worker 2 took g.cn within the gap: %v", got)
		}
		time.Sleep(gap + 50*time.Millisecond)
		if got := lease(t, s, LeaseRequest{N: 1, HostGap: gap, Owner: 2}); fmt.Sprint(got) != "[http://g.cn/2]" {
			t.Fatalf("worker 2 after the gap: %v", got)
		}
		if got := lease(t, s, LeaseRequest{N: 1, HostGap: gap, Owner: 1}); len(got) != 0 {
			t.Fatalf("worker 1 took g.cn back within the gap: %v", got)
		}
	})
}

func TestLeaseExpiryAndDone(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
		ctx := context.Background()
		if _, err := s.Apply(ctx, Batch{Queue: []Entry{entry("http://a.cn/", "a.cn", 1, 0), entry("http://a.cn/x", "a.cn", 0.5, 1)}}); err != nil {
			t.Fatal(err)
		}
		// A lease long enough that a loaded machine (go test -race on two
		// shared cores) does not see it run out before the checks below.
		got := lease(t, s, LeaseRequest{N: 2, For: 700 * time.Millisecond, Owner: 7})
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
		time.Sleep(750 * time.Millisecond)
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
		st, err := s.Stats(ctx, StatsQuery{TopHosts: 5})
		if err != nil {
			t.Fatal(err)
		}
		if st.States["done"] != 1 || st.States["leased"] != 1 || st.Expired != 1 || st.Relevant != 1 || st.HarvestRate != 1 {
			t.Errorf("stats %+v", st)
		}
		if len(st.TopHosts) != 1 || st.TopHosts[0].URLs != 2 || st.TopHosts[0].Fetched != 1 {
			t.Errorf("top hosts %+v", st.TopHosts)
		}
	})
}

func TestApplyMaxPerHostAndEdges(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
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
		st, err := s.Stats(ctx, StatsQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if st.Refused[GuardMaxPerHost] != 1 || st.Edges != 1 {
			t.Errorf("refused %v edges %d, want 1 and 1", st.Refused, st.Edges)
		}
		// A new process sees the host count from the database.
		s2 := reopen(t)
		res, err = s2.Apply(ctx, Batch{MaxPerHost: 2, Queue: []Entry{entry("http://a.cn/3", "a.cn", 1, 1)}})
		if err != nil || res.Refused != 1 {
			t.Fatalf("second process: %+v %v", res, err)
		}
	})
}

func TestFinalURLAndMeta(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
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
		st, _ := s.Stats(ctx, StatsQuery{})
		if st.States["failed"] != 2 {
			t.Errorf("failed = %d, want 2 (URL and final URL)", st.States["failed"])
		}
	})
}

// TestRedirectIsOneFetch: a fetch that was redirected records its URL and
// the URL it ended at done, but it is one page: the crawl's page budget
// (Progress) and seed stats count it once, as the archive holds one record
// for it. Counting both made a 2,000-page crawl stop at 1,999 records.
func TestRedirectIsOneFetch(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
		ctx := context.Background()
		// b.cn/dir/ is queued already; c.cn/ is not known yet.
		q := []Entry{entry("http://a.cn/dir", "a.cn", 1, 0), entry("http://b.cn/x", "b.cn", 0.9, 0), entry("http://b.cn/dir/", "b.cn", 0.1, 1)}
		if _, err := s.Apply(ctx, Batch{Queue: q}); err != nil {
			t.Fatal(err)
		}
		if us := lease(t, s, LeaseRequest{N: 2}); len(us) != 2 {
			t.Fatalf("leased %+v", us)
		}
		done := []Outcome{
			{URL: "http://a.cn/dir", Host: "a.cn", FinalURL: "http://b.cn/dir/", FinalHost: "b.cn", Status: 200, Scored: true, Score: 0.9, Relevant: true},
			{URL: "http://b.cn/x", Host: "b.cn", FinalURL: "http://c.cn/", FinalHost: "c.cn", Status: 200, Scored: true, Score: 0.1},
		}
		if _, err := s.Apply(ctx, Batch{Done: done}); err != nil {
			t.Fatal(err)
		}
		p, err := s.Progress(ctx)
		if err != nil || p.Fetched != 2 {
			t.Errorf("progress %+v %v: want 2 pages fetched", p, err)
		}
		st, err := s.Stats(ctx, StatsQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if st.Fetched != 2 || st.Relevant != 1 || st.States["done"] != 4 {
			t.Errorf("stats: fetched %d relevant %d done %d, want 2 pages fetched, 1 relevant, 4 URLs done", st.Fetched, st.Relevant, st.States["done"])
		}
		// The history marks the redirect targets, so a reader counts the
		// pages as Stats does.
		{
			var pages, targets []string
			if err := s.History(ctx, func(f Fetched) error {
				if f.Redirect {
					targets = append(targets, f.URL)
				} else {
					pages = append(pages, f.URL)
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			sort.Strings(pages)
			sort.Strings(targets)
			if fmt.Sprint(pages) != "[http://a.cn/dir http://b.cn/x]" || fmt.Sprint(targets) != "[http://b.cn/dir/ http://c.cn/]" {
				t.Errorf("history: pages %v, redirect targets %v", pages, targets)
			}
		}
		// The same page again (a record that reached seed add twice)
		// counts nothing more.
		if _, err := s.Apply(ctx, Batch{Done: done[:1]}); err != nil {
			t.Fatal(err)
		}
		if p, err := s.Progress(ctx); err != nil || p.Fetched != 2 {
			t.Errorf("progress after a duplicate %+v %v: want 2", p, err)
		}
	})
}

func TestConcurrentProcesses(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
		s2 := reopen(t)
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
			var back Batch
			for _, u := range lease(t, s, LeaseRequest{N: 150, PerHost: 30, HostLimit: 30}) {
				if seen[u] {
					t.Fatalf("%s leased twice", u)
				}
				seen[u] = true
				back.Done = append(back.Done, Outcome{URL: u, Host: HostOf(u)})
			}
			if _, err := s.Apply(ctx, back); err != nil {
				t.Fatal(err)
			}
		}
		wg.Wait()
		if len(seen) != total {
			t.Fatalf("leased %d of %d", len(seen), total)
		}
	})
}

func TestPageScoresAndEdges(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
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
		m, err := s.(interface {
			PageScores(context.Context, []string) (map[string]float64, error)
		}).PageScores(ctx, []string{"http://a.cn/", "http://a.cn/1", "http://a.cn/bad", "http://nowhere/"})
		if err != nil {
			t.Fatal(err)
		}
		if len(m) != 2 || m["http://a.cn/"] != 0.7 || m["http://a.cn/bad"] != 0 {
			t.Errorf("page scores %v, want the two fetched pages only", m)
		}
		var got []string
		err = s.(interface {
			WalkEdges(context.Context, func(Edge) error) error
		}).WalkEdges(ctx, func(e Edge) error {
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
	})
}

func TestRenew(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
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
	})
}

// TestLeaseOrderAgrees queues the same URLs — many hosts, tied
// priorities, depths, URLs seen again with better priorities — into both
// stores and leases them all in chunks, with and without the per-host
// bound (each chunk coming back done): every store must hand them out in
// the same order.
func TestLeaseOrderAgrees(t *testing.T) {
	for _, perHost := range []int{0, 3} {
		for _, reserve := range []bool{false, true} {
			t.Run(fmt.Sprintf("per-host-%d-reserve-%v", perHost, reserve), func(t *testing.T) {
				t.Parallel() // each case has stores of its own; 47 s one after another under -race
				leaseOrderAgrees(t, perHost, reserve)
			})
		}
	}
}

// leaseOrderAgrees is TestLeaseOrderAgrees with the per-host bound, and
// with a third of the entries in the reserve (some seen both ways).
func leaseOrderAgrees(t *testing.T, perHost int, reserve bool) {
	sq, _ := openTest(t)
	rd, _ := openTestRedis(t)
	pg, _ := openTestPostgres(t)
	rng := rand.New(rand.NewPCG(7, uint64(perHost)))
	n := 3000
	if raceDetector {
		n = 900
	}
	var q []Entry
	for i := 0; i < n; i++ {
		host := fmt.Sprintf("h%d.cn", rng.IntN(50))
		u := fmt.Sprintf("http://%s/%d", host, rng.IntN(2500))
		e := entry(u, host, float64(rng.IntN(100))/100, rng.IntN(6))
		e.Reserve = reserve && i%3 == 0
		q = append(q, e)
	}
	ctx := context.Background()
	stores := []Store{sq, rd, pg}
	for _, s := range stores {
		for i := 0; i < len(q); i += 500 {
			if _, err := s.Apply(ctx, Batch{Queue: q[i:min(i+500, len(q))]}); err != nil {
				t.Fatal(err)
			}
		}
	}
	var orders [3][]string
	for k, s := range stores {
		for {
			got := lease(t, s, LeaseRequest{N: 37, PerHost: perHost, HostLimit: 2 * perHost, Reserve: reserve})
			if len(got) == 0 {
				break
			}
			orders[k] = append(orders[k], got...)
			var back Batch
			for _, u := range got {
				back.Done = append(back.Done, Outcome{URL: u, Host: HostOf(u)})
			}
			if _, err := s.Apply(ctx, back); err != nil {
				t.Fatal(err)
			}
		}
	}
	sameOrders(t, orders[:], 1)
	// A URL seen once outside the reserve left it; the reserve comes after
	// every other URL.
	inReserve := map[string]bool{}
	for _, e := range q {
		if r, seen := inReserve[e.URL]; !seen || r {
			inReserve[e.URL] = e.Reserve
		}
	}
	first := -1
	for i, u := range orders[0] {
		switch {
		case inReserve[u] && first < 0:
			first = i
		case !inReserve[u] && first >= 0:
			t.Fatalf("lease %d: %s, outside the reserve, after the reserve's %s (lease %d)", i, u, orders[0][first], first)
		}
	}
	if reserve && first < 0 {
		t.Fatal("no URL of the reserve was leased")
	}
}

// TestLeaseRoomStoresAgree: three workers lease and give back URLs in one
// seeded order under every lease bound (per host, host limit, a host gap,
// first contact); the three stores, which all call LeaseRequest.Room (the
// Redis one before its lease script), hand out the same URLs in the same
// order.
func TestLeaseRoomStoresAgree(t *testing.T) {
	for _, r := range []LeaseRequest{
		{N: 13, PerHost: 2, HostLimit: 1},
		{N: 13, HostLimit: 2, FirstContact: true},
		{N: 13, PerHost: 3, HostGap: time.Hour},
		{N: 13, PerHost: 4, HostLimit: 1, HostGap: time.Hour, FirstContact: true},
		{N: 13, OwnHostLimit: 2},
	} {
		t.Run(fmt.Sprintf("per-host-%d-limit-%d-own-%d-gap-%v-first-%v", r.PerHost, r.HostLimit, r.OwnHostLimit, r.HostGap > 0, r.FirstContact), func(t *testing.T) {
			t.Parallel()
			var orders [3][]string
			for k, s := range []Store{openTestStore(t), Store(first(openTestRedis(t))), Store(first(openTestPostgres(t)))} {
				orders[k] = leaseRounds(t, s, r)
			}
			sameOrders(t, orders[:], 100)
		})
	}
}

// sameOrders fails unless every store (sqlite, redis, postgres) leased at
// least least URLs, the same ones in the same order.
func sameOrders(t *testing.T, orders [][]string, least int) {
	t.Helper()
	names := []string{"sqlite", "redis", "postgres"}
	for k := 1; k < len(orders); k++ {
		if len(orders[0]) < least || len(orders[0]) != len(orders[k]) {
			t.Fatalf("sqlite leased %d URLs, %s %d", len(orders[0]), names[k], len(orders[k]))
		}
		for i := range orders[0] {
			if orders[0][i] != orders[k][i] {
				t.Fatalf("lease %d: sqlite %s, %s %s", i, orders[0][i], names[k], orders[k][i])
			}
		}
	}
}

func openTestStore(t *testing.T) Store {
	s, _ := openTest(t)
	return s
}

func first[A, B any](a A, _ B) A { return a }

// leaseRounds runs 60 seeded rounds of three workers on s and gives the
// URLs leased, each prefixed by its worker.
func leaseRounds(t *testing.T, s Store, r LeaseRequest) []string {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(11, 3))
	var q []Entry
	for i := 0; i < 600; i++ {
		host := fmt.Sprintf("h%d.cn", rng.IntN(12))
		q = append(q, entry(fmt.Sprintf("http://%s/%d", host, i), host, float64(rng.IntN(100))/100, rng.IntN(4)))
	}
	if _, err := s.Apply(ctx, Batch{Queue: q}); err != nil {
		t.Fatal(err)
	}
	held := map[int64][]string{}
	var order []string
	for round := 0; round < 60; round++ {
		w := int64(1 + rng.IntN(3))
		r.Owner = w
		got := lease(t, s, r)
		for _, u := range got {
			order = append(order, fmt.Sprintf("%d %s", w, u))
		}
		held[w] = append(held[w], got...)
		// The worker gives back a seeded share of what it holds.
		var back Batch
		keep := held[w][:0]
		for _, u := range held[w] {
			if rng.IntN(3) > 0 {
				back.Done = append(back.Done, Outcome{URL: u, Host: HostOf(u)})
			} else {
				keep = append(keep, u)
			}
		}
		held[w] = keep
		if _, err := s.Apply(ctx, back); err != nil {
			t.Fatal(err)
		}
	}
	return order
}
