package frontier

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The PostgreSQL store's tests use the server at FOCUSCRAWL_TEST_POSTGRES
// (default postgres://postgres@127.0.0.1:5432/test), each in a schema of
// its own, dropped at cleanup. Without a server they are skipped, except
// under CI=true, where they fail.

var pgTestSeq atomic.Int64

// testPostgresURL is the database the PostgreSQL tests use.
func testPostgresURL() string {
	if u := os.Getenv("FOCUSCRAWL_TEST_POSTGRES"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

// openTestPostgres opens a PostgreSQL store in a schema of its own, or
// skips (fails under CI) when no server answers.
func openTestPostgres(t testing.TB) (*PostgresStore, string) {
	t.Helper()
	sep := "?"
	if strings.Contains(testPostgresURL(), "?") {
		sep = "&"
	}
	dsn := fmt.Sprintf("%s%sschema=test_%d_%d_%d", testPostgresURL(), sep, os.Getpid(), time.Now().UnixNano(), pgTestSeq.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := OpenPostgres(ctx, dsn)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL is needed for these tests under CI: %v", err)
		}
		t.Skipf("no PostgreSQL server: %v", err)
	}
	t.Cleanup(func() {
		_ = s.Drop(context.Background())
		s.Close()
	})
	return s, dsn
}

// TestPostgresHostStepsLocked: two workers report outcomes of one host at
// once; the second's Apply waits for the first's lock on the host's
// state, then reads what it wrote, so neither step is lost. Two timeouts
// in a row park a host; each worker reports one, the second while the
// first holds the host (it would read no timeout yet without the lock).
func TestPostgresHostStepsLocked(t *testing.T) {
	ctx := context.Background()
	a, dsn := openTestPostgres(t)
	b, err := OpenPostgres(ctx, dsn)
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
	second := make(chan error, 1)
	a.afterHostLock = func() {
		go func() {
			_, err := b.Apply(ctx, Batch{Done: []Outcome{{URL: "http://slow.cn/2", Host: "slow.cn", Error: "timeout: slow"}}, Retry: p})
			second <- err
		}()
		// Let the second worker reach the host's lock (and, without one,
		// read the host's state) before this one writes it.
		time.Sleep(300 * time.Millisecond)
	}
	cReport(t, a, p, Outcome{URL: "http://slow.cn/1", Error: "timeout: slow"})
	if err := <-second; err != nil {
		t.Fatal(err)
	}
	st := cStats(t, a)
	if len(st.ParkedHosts) != 1 || st.States["parked"] != 2 {
		t.Errorf("two timeouts in a row from two workers: parked hosts %+v, states %v; want slow.cn parked with both URLs",
			st.ParkedHosts, st.States)
	}
}

// TestPostgresLeaseWorkers: eight workers lease at once from one crawl;
// no URL goes out twice, and the host limit holds over all of them at
// every moment.
func TestPostgresLeaseWorkers(t *testing.T) {
	ctx := context.Background()
	s, dsn := openTestPostgres(t)
	var q []Entry
	for i := 0; i < 3000; i++ {
		host := fmt.Sprintf("h%d.cn", i%40)
		q = append(q, entry(fmt.Sprintf("http://%s/%d", host, i), host, float64(i%97)/100, 1))
	}
	cQueue(t, s, q...)
	const workers, limit = 8, 2
	type leased struct {
		owner int64
		urls  []string
		err   error
	}
	out := make(chan leased, workers)
	for w := 1; w <= workers; w++ {
		go func(owner int64) {
			st, err := OpenPostgres(ctx, dsn)
			if err != nil {
				out <- leased{err: err}
				return
			}
			defer st.Close()
			var mine []string
			for {
				us, err := st.Lease(ctx, LeaseRequest{N: 25, PerHost: 5, HostLimit: limit, For: time.Minute, Owner: owner})
				if err != nil {
					out <- leased{err: err}
					return
				}
				if len(us) == 0 {
					break
				}
				// Every host this worker took is held by at most limit workers.
				var check []string
				for _, u := range us {
					mine = append(mine, u.URL)
					check = append(check, HostOf(u.URL))
				}
				var over int
				if err := st.Pool().QueryRow(ctx, sq(`SELECT count(*) FROM (SELECT u.host_id FROM urls u JOIN hosts h ON h.id = u.host_id
					WHERE u.state = {leased} AND h.host = ANY($1) GROUP BY u.host_id HAVING count(DISTINCT u.lease_owner) > $2) x`),
					check, limit).Scan(&over); err != nil || over > 0 {
					out <- leased{err: fmt.Errorf("%d hosts held by more than %d workers (%v)", over, limit, err)}
					return
				}
				var back Batch
				for _, u := range us {
					back.Done = append(back.Done, Outcome{URL: u.URL, Host: HostOf(u.URL)})
				}
				if _, err := st.Apply(ctx, back); err != nil {
					out <- leased{err: err}
					return
				}
			}
			out <- leased{owner: owner, urls: mine}
		}(int64(w))
	}
	seen := map[string]int64{}
	for w := 0; w < workers; w++ {
		l := <-out
		if l.err != nil {
			t.Fatal(l.err)
		}
		for _, u := range l.urls {
			if o, dup := seen[u]; dup {
				t.Fatalf("%s leased by workers %d and %d", u, o, l.owner)
			}
			seen[u] = l.owner
		}
	}
	if len(seen) != len(q) {
		t.Fatalf("leased %d of %d URLs", len(seen), len(q))
	}
}

// TestPostgresBulkAllNew: a large bulk of new URLs is inserted without ON
// CONFLICT once the one before found none known; one known URL in it
// sends it back to the insert that sorts new from known, and the counts
// and the known URL's raise are as if nothing had been tried.
func TestPostgresBulkAllNew(t *testing.T) {
	ctx := context.Background()
	s, _ := openTestPostgres(t)
	batch := func(from, n int, prio float64) []Entry {
		var es []Entry
		for i := from; i < from+n; i++ {
			host := fmt.Sprintf("h%d.cn", i%50)
			es = append(es, entry(fmt.Sprintf("http://%s/%d", host, i), host, prio, 1))
		}
		return es
	}
	for _, c := range []struct {
		es             []Entry
		fast           bool // tried as all new
		queued, raised int
	}{
		{batch(0, pgFreshBulk, 0.5), false, pgFreshBulk, 0},
		{batch(pgFreshBulk, pgFreshBulk, 0.5), true, pgFreshBulk, 0},
		// One known URL, with a better priority, at the end.
		{append(batch(2*pgFreshBulk, pgFreshBulk, 0.5), entry("http://h0.cn/0", "h0.cn", 0.9, 1)), true, pgFreshBulk, 1},
		{batch(3*pgFreshBulk, pgFreshBulk, 0.5), false, pgFreshBulk, 0},
	} {
		if got := s.bulkFresh.Load(); got != c.fast {
			t.Errorf("before a batch of %d: tried as all new %v, want %v", len(c.es), got, c.fast)
		}
		r, err := s.Apply(ctx, Batch{Queue: c.es})
		if err != nil {
			t.Fatal(err)
		}
		if r.Queued != c.queued || r.Raised != c.raised {
			t.Errorf("queued %d, raised %d; want %d, %d", r.Queued, r.Raised, c.queued, c.raised)
		}
	}
	if n := cStats(t, s).Total; n != 4*int64(pgFreshBulk) {
		t.Errorf("%d URLs stored, want %d", n, 4*pgFreshBulk)
	}
	if got := lease(t, s, LeaseRequest{N: 1}); len(got) != 1 || got[0] != "http://h0.cn/0" {
		t.Errorf("first leased %v, want the raised http://h0.cn/0", got)
	}
}
