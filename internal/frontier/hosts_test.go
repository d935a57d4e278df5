package frontier

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/sqlitedb"
)

// fastPolicy retries at once (1 ms waits), so tests need not sleep long.
func fastPolicy() *RetryPolicy {
	return &RetryPolicy{Retries: 2, Backoff: time.Millisecond, MaxBackoff: 4 * time.Millisecond,
		HostBackoff: 20 * time.Millisecond, HostMaxBackoff: 80 * time.Millisecond, HostTries: 3, ParkAfterTimeouts: 2}
}

func queueAll(t *testing.T, s *SQLiteStore, es ...Entry) Applied {
	t.Helper()
	res, err := s.Apply(context.Background(), Batch{Queue: es})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func report(t *testing.T, s *SQLiteStore, p *RetryPolicy, os ...Outcome) Applied {
	t.Helper()
	for i := range os {
		if os[i].Host == "" {
			os[i].Host = HostOf(os[i].URL)
		}
	}
	res, err := s.Apply(context.Background(), Batch{Done: os, Retry: p})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func states(t *testing.T, s *SQLiteStore) map[string]string {
	t.Helper()
	rows, err := s.DB().Query(`SELECT url, state FROM frontier`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var u, st string
		if err := rows.Scan(&u, &st); err != nil {
			t.Fatal(err)
		}
		out[u] = st
	}
	return out
}

func stats(t *testing.T, s *SQLiteStore) *Stats {
	t.Helper()
	st, err := s.Stats(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestClassify(t *testing.T) {
	tests := map[string]failure{
		"":                                    failNone,
		"canceled":                            failCanceled,
		"dns: lookup x.invalid: no such host": failHostDown,
		"dns: robots.txt: proxy p: dns_error": failHostDown,
		"connect: dial tcp: refused":          failHostDown,
		"robots-unreachable: http 503":        failHostDown,
		"timeout: context deadline exceeded":  failTimeout,
		"network: connection reset":           failTransient,
		"http 503":                            failTransient,
		"http 429":                            failTransient,
		"http 404":                            failPermanent,
		"http 405":                            failPermanent,
		"robots-disallow":                     failDisallow,
		"blocked address 10.1.2.3 (private)":  failPermanent,
		"tls: bad certificate":                failPermanent,
		"body: not html":                      failPermanent,
	}
	for msg, want := range tests {
		if got := classify(msg); got != want {
			t.Errorf("classify(%q) = %d, want %d", msg, got, want)
		}
	}
	for _, tt := range []struct {
		msg, kind string
		want      bool
	}{{"http 503", "http", true}, {"http 503", "5xx", true}, {"http 404", "5xx", false}, {"http 404", "4xx", true},
		{"dns: x", "dns", true}, {"dns: x", "connect", false}, {"blocked address 1.2.3.4 (private)", "blocked address", true}} {
		if got := MatchKind(tt.msg, tt.kind); got != tt.want {
			t.Errorf("MatchKind(%q, %q) = %v", tt.msg, tt.kind, got)
		}
	}
}

// TestHostParking: a host down parks every URL of it, none is leased
// until its retry time, then one probe goes out; a failed probe doubles
// the wait, a good one unparks the host. Parked URLs are not fetched.
func TestHostParking(t *testing.T) {
	s, _ := openTest(t)
	p := fastPolicy()
	p.HostTries = 0
	// Long enough for a slow machine (-race) to lease before the time.
	p.HostBackoff, p.HostMaxBackoff = 300*time.Millisecond, 2*time.Second
	queueAll(t, s, entry("http://down.cn/1", "down.cn", 0.9, 0), entry("http://down.cn/2", "down.cn", 0.8, 0),
		entry("http://down.cn/3", "down.cn", 0.7, 0), entry("http://up.cn/1", "up.cn", 0.1, 0))
	got := lease(t, s, LeaseRequest{N: 1})
	if fmt.Sprint(got) != "[http://down.cn/1]" {
		t.Fatalf("leased %v", got)
	}
	res := report(t, s, p, Outcome{URL: "http://down.cn/1", Error: "dns: lookup down.cn: no such host"})
	if res.Requeued != 1 || res.Done != 0 {
		t.Errorf("applied %+v, want the URL put back", res)
	}
	st := stats(t, s)
	if st.Fetched != 0 || st.States["parked"] != 3 || st.Requeued != 1 {
		t.Errorf("after parking: fetched %d, states %v, requeued %d", st.Fetched, st.States, st.Requeued)
	}
	if len(st.ParkedHosts) != 1 || st.ParkedHosts[0].Host != "down.cn" || st.ParkedHosts[0].URLs != 3 ||
		!strings.HasPrefix(st.ParkedHosts[0].Reason, "dns:") || st.ParkedHosts[0].NextRetry.IsZero() || st.ParkedHosts[0].Since.IsZero() {
		t.Errorf("parked hosts %+v", st.ParkedHosts)
	}
	// New URLs of the host are parked too; only up.cn is leased.
	queueAll(t, s, entry("http://down.cn/4", "down.cn", 1, 1))
	if got := lease(t, s, LeaseRequest{N: 10}); fmt.Sprint(got) != "[http://up.cn/1]" {
		t.Fatalf("leased %v while down.cn is parked", got)
	}
	// The retry time comes: one probe, the best held URL.
	time.Sleep(320 * time.Millisecond)
	if c, _ := s.Counts(context.Background()); !c.Queued {
		t.Errorf("counts %+v: a probe is due", c)
	}
	if got := lease(t, s, LeaseRequest{N: 10}); fmt.Sprint(got) != "[http://down.cn/4]" {
		t.Fatalf("probe: leased %v", got)
	}
	if got := lease(t, s, LeaseRequest{N: 10}); len(got) != 0 {
		t.Fatalf("a second probe while the first is out: %v", got)
	}
	before := time.Now()
	report(t, s, p, Outcome{URL: "http://down.cn/4", Error: "connect: refused"})
	st = stats(t, s)
	if ph := st.ParkedHosts[0]; ph.Tries != 1 || ph.NextRetry.Sub(before) < 500*time.Millisecond || ph.URLs != 4 {
		t.Errorf("after a failed probe: %+v, want tries 1 and a doubled wait (600ms)", ph)
	}
	time.Sleep(time.Until(ph0(t, s).NextRetry) + 20*time.Millisecond)
	if got := lease(t, s, LeaseRequest{N: 10}); fmt.Sprint(got) != "[http://down.cn/4]" {
		t.Fatalf("second probe: leased %v", got)
	}
	report(t, s, p, Outcome{URL: "http://down.cn/4", Status: 200})
	st = stats(t, s)
	if len(st.ParkedHosts) != 0 || st.States["parked"] != 0 || st.States["queued"] != 3 || st.Fetched != 1 {
		t.Errorf("after a good probe: parked %+v, states %v, fetched %d", st.ParkedHosts, st.States, st.Fetched)
	}
}

func TestHostGivenUp(t *testing.T) {
	s, _ := openTest(t)
	p := fastPolicy()
	p.HostBackoff, p.HostMaxBackoff, p.HostTries = time.Millisecond, time.Millisecond, 2
	queueAll(t, s, entry("http://down.cn/1", "down.cn", 0.9, 0), entry("http://down.cn/2", "down.cn", 0.8, 0))
	msg := "robots-unreachable: http 503"
	for i := 0; i < 3; i++ {
		time.Sleep(3 * time.Millisecond)
		got := lease(t, s, LeaseRequest{N: 1})
		if len(got) != 1 {
			t.Fatalf("round %d: leased %v, want one URL", i, got)
		}
		report(t, s, p, Outcome{URL: got[0], Error: msg})
	}
	st := stats(t, s)
	if st.States["failed"] != 2 || st.Fetched != 0 || st.Unfetched != 2 || len(st.ParkedHosts) != 1 || !st.ParkedHosts[0].GivenUp {
		t.Fatalf("given up: states %v fetched %d unfetched %d parked %+v", st.States, st.Fetched, st.Unfetched, st.ParkedHosts)
	}
	if sts := states(t, s); sts["http://down.cn/1"] != "failed" {
		t.Errorf("states %v", sts)
	}
	res := queueAll(t, s, entry("http://down.cn/3", "down.cn", 1, 1))
	if res.Guards[GuardHostGivenUp] != 1 {
		t.Errorf("a new URL of a given-up host: %+v", res)
	}
	// seed requeue --error robots-unreachable brings the host back.
	rq, err := s.Requeue(context.Background(), RequeueFilter{Kind: "robots-unreachable"})
	if err != nil || rq.URLs != 2 || rq.Hosts != 1 {
		t.Fatalf("requeue: %+v %v", rq, err)
	}
	if got := lease(t, s, LeaseRequest{N: 10}); len(got) != 2 {
		t.Errorf("after requeue leased %v", got)
	}
}

// TestRetryBackoff: transient failures wait and come back, up to
// Retries; permanent ones stay failed at once.
func TestRetryBackoff(t *testing.T) {
	s, _ := openTest(t)
	p := fastPolicy()
	p.Backoff, p.MaxBackoff = 200*time.Millisecond, 2*time.Second
	queueAll(t, s, entry("http://a.cn/flaky", "a.cn", 0.9, 0), entry("http://a.cn/gone", "a.cn", 0.8, 0))
	lease(t, s, LeaseRequest{N: 10})
	res := report(t, s, p, Outcome{URL: "http://a.cn/flaky", Status: 503, Error: "http 503"},
		Outcome{URL: "http://a.cn/gone", Status: 404, Error: "http 404"})
	if res.Requeued != 1 || res.Done != 1 {
		t.Errorf("applied %+v", res)
	}
	if sts := states(t, s); sts["http://a.cn/flaky"] != "waiting" || sts["http://a.cn/gone"] != "failed" {
		t.Fatalf("states %v", sts)
	}
	if got := lease(t, s, LeaseRequest{N: 10}); len(got) != 0 {
		t.Fatalf("leased %v before the retry time", got)
	}
	if c, _ := s.Counts(context.Background()); !c.Queued {
		t.Errorf("counts %+v: a retry is waiting", c)
	}
	for try := 1; try <= 2; try++ {
		time.Sleep(p.Backoff<<(try-1) + 20*time.Millisecond)
		if got := lease(t, s, LeaseRequest{N: 10}); fmt.Sprint(got) != "[http://a.cn/flaky]" {
			t.Fatalf("retry %d: leased %v", try, got)
		}
		report(t, s, p, Outcome{URL: "http://a.cn/flaky", Error: "network: connection reset"})
	}
	// Two retries spent: failed for good, fetched once.
	st := stats(t, s)
	if sts := states(t, s); sts["http://a.cn/flaky"] != "failed" || st.Fetched != 2 || st.Requeued != 2 {
		t.Errorf("after the retries: %v, fetched %d, requeued %d", sts, st.Fetched, st.Requeued)
	}
}

func TestTimeoutsInARowParkTheHost(t *testing.T) {
	s, _ := openTest(t)
	p := fastPolicy()
	p.Backoff = time.Hour // retries stay waiting
	var es []Entry
	for i := range 5 {
		es = append(es, entry(fmt.Sprintf("http://slow.cn/%d", i), "slow.cn", 1-float64(i)/10, 0))
	}
	queueAll(t, s, es...)
	got := lease(t, s, LeaseRequest{N: 2})
	report(t, s, p, Outcome{URL: got[0], Error: "timeout: deadline exceeded"})
	if st := stats(t, s); len(st.ParkedHosts) != 0 || st.States["waiting"] != 1 {
		t.Fatalf("one timeout: %v %+v", st.States, st.ParkedHosts)
	}
	report(t, s, p, Outcome{URL: got[1], Error: "timeout: deadline exceeded"})
	st := stats(t, s)
	if len(st.ParkedHosts) != 1 || st.States["parked"] != 5 || st.States["waiting"] != 0 {
		t.Fatalf("two timeouts in a row: %v %+v", st.States, st.ParkedHosts)
	}
}

// A timeout between answers does not make a row.
func TestTimeoutRowBrokenByAnAnswer(t *testing.T) {
	s, _ := openTest(t)
	p := fastPolicy()
	p.Backoff = time.Hour
	queueAll(t, s, entry("http://a.cn/1", "a.cn", 0.9, 0), entry("http://a.cn/2", "a.cn", 0.8, 0), entry("http://a.cn/3", "a.cn", 0.7, 0))
	lease(t, s, LeaseRequest{N: 10})
	report(t, s, p, Outcome{URL: "http://a.cn/1", Error: "timeout: x"})
	report(t, s, p, Outcome{URL: "http://a.cn/2", Status: 404, Error: "http 404"})
	report(t, s, p, Outcome{URL: "http://a.cn/3", Error: "timeout: x"})
	if st := stats(t, s); len(st.ParkedHosts) != 0 {
		t.Errorf("parked after timeouts not in a row: %+v", st.ParkedHosts)
	}
}

func TestCanceledIsQueuedAgain(t *testing.T) {
	s, _ := openTest(t)
	queueAll(t, s, entry("http://a.cn/1", "a.cn", 0.9, 0))
	lease(t, s, LeaseRequest{N: 10})
	report(t, s, nil, Outcome{URL: "http://a.cn/1", Error: "canceled"})
	if st := stats(t, s); st.States["queued"] != 1 || st.Fetched != 0 {
		t.Errorf("canceled: %v fetched %d", st.States, st.Fetched)
	}
}

// TestRobotsRulesLearned: a robots-disallow outcome that carries the
// host's rules refuses its other disallowed URLs, queued or new; they are
// never leased and count under the robots guard, not as fetched.
func TestRobotsRulesLearned(t *testing.T) {
	s, _ := openTest(t)
	queueAll(t, s, entry("http://r.cn/private/1", "r.cn", 0.9, 0), entry("http://r.cn/private/2", "r.cn", 0.8, 0),
		entry("http://r.cn/private/ok/3", "r.cn", 0.7, 0), entry("http://r.cn/public", "r.cn", 0.6, 0))
	got := lease(t, s, LeaseRequest{N: 1})
	msg := "robots-disallow: robots.txt for focuscrawl: user-agent: * ; disallow: /private ; allow: /private/ok"
	res := report(t, s, nil, Outcome{URL: got[0], Error: msg})
	if res.Guards[GuardRobots] != 1 {
		t.Errorf("applied %+v, want the queued /private/2 refused", res)
	}
	res = queueAll(t, s, entry("http://r.cn/private/4", "r.cn", 1, 1), entry("http://r.cn/private/ok/5", "r.cn", 1, 1),
		entry("http://r.cn/?q=1", "r.cn", 1, 1))
	if res.Queued != 2 || res.Guards[GuardRobots] != 1 {
		t.Errorf("new URLs: %+v", res)
	}
	got = lease(t, s, LeaseRequest{N: 10})
	sort.Strings(got)
	if fmt.Sprint(got) != "[http://r.cn/?q=1 http://r.cn/private/ok/3 http://r.cn/private/ok/5 http://r.cn/public]" {
		t.Errorf("leased %v", got)
	}
	st := stats(t, s)
	if st.Refused[GuardRobots] != 2 || st.Fetched != 1 || st.Unfetched != 1 {
		t.Errorf("stats: refused %v fetched %d unfetched %d", st.Refused, st.Fetched, st.Unfetched)
	}
	// The rules live in the database: another process applies them too.
	s2, err := OpenSQLite(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if res, err := s2.Apply(context.Background(), Batch{Queue: []Entry{entry("http://r.cn/private/6", "r.cn", 1, 1)}}); err != nil || res.Guards[GuardRobots] != 1 {
		t.Errorf("second process: %+v %v", res, err)
	}
}

func TestRequeueByKindAndHost(t *testing.T) {
	s, _ := openTest(t)
	queueAll(t, s, entry("http://a.cn/1", "a.cn", 0.9, 0), entry("http://a.cn/2", "a.cn", 0.8, 0), entry("http://b.cn/1", "b.cn", 0.7, 0))
	lease(t, s, LeaseRequest{N: 10})
	report(t, s, nil, Outcome{URL: "http://a.cn/1", Status: 405, Error: "http 405"},
		Outcome{URL: "http://a.cn/2", Status: 404, Error: "http 404"},
		Outcome{URL: "http://b.cn/1", Status: 405, Error: "http 405"})
	if st := stats(t, s); st.Fetched != 3 {
		t.Fatalf("fetched %d", st.Fetched)
	}
	ctx := context.Background()
	if rq, err := s.Requeue(ctx, RequeueFilter{Kind: "http 405", Host: "a.cn"}); err != nil || rq.URLs != 1 {
		t.Fatalf("requeue 405 of a.cn: %+v %v", rq, err)
	}
	if got := lease(t, s, LeaseRequest{N: 10}); fmt.Sprint(got) != "[http://a.cn/1]" {
		t.Errorf("leased %v", got)
	}
	if rq, err := s.Requeue(ctx, RequeueFilter{Kind: "4xx"}); err != nil || rq.URLs != 2 {
		t.Fatalf("requeue 4xx: %+v %v", rq, err)
	}
	st := stats(t, s)
	if st.Fetched != 0 || st.States["queued"] != 2 || st.States["leased"] != 1 {
		t.Errorf("after requeue: %v fetched %d", st.States, st.Fetched)
	}
	var fetched int64
	s.DB().QueryRow(`SELECT fetched FROM hosts WHERE host = 'a.cn'`).Scan(&fetched)
	if fetched != 0 {
		t.Errorf("a.cn's fetched figure %d after requeue", fetched)
	}
}

func TestPeek(t *testing.T) {
	s, _ := openTest(t)
	queueAll(t, s, entry("http://a.cn/1", "a.cn", 0.5, 2), entry("http://a.cn/2", "a.cn", 0.9, 1),
		entry("http://b.cn/1", "b.cn", 0.9, 0), entry("http://c.cn/1", "c.cn", 0.1, 0))
	got, err := s.Peek(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, q := range got {
		urls = append(urls, q.URL)
	}
	if fmt.Sprint(urls) != "[http://b.cn/1 http://a.cn/2 http://a.cn/1]" || got[0].Host != "b.cn" || got[1].Depth != 1 || got[0].Priority != 0.9 {
		t.Errorf("peek %+v", got)
	}
	// Peeking leases nothing.
	if st := stats(t, s); st.States["queued"] != 4 || st.States["leased"] != 0 {
		t.Errorf("after peek: %v", st.States)
	}
	// A parked host's probe shows as parked.
	p := fastPolicy()
	p.HostBackoff = time.Millisecond
	lease(t, s, LeaseRequest{N: 1})
	report(t, s, p, Outcome{URL: "http://b.cn/1", Error: "dns: no such host"})
	queueAll(t, s, entry("http://x.cn/1", "x.cn", 1, 0))
	time.Sleep(5 * time.Millisecond)
	if got := lease(t, s, LeaseRequest{N: 1}); fmt.Sprint(got) != "[http://x.cn/1]" { // and wakes the probe
		t.Fatalf("leased %v", got)
	}
	got, _ = s.Peek(context.Background(), 10)
	if len(got) != 4 || got[0].URL != "http://b.cn/1" || !got[0].Parked || got[1].Parked {
		t.Errorf("peek with a probe: %+v", got)
	}
}

// oldSchema is the layout before host state (schema version 1 as first
// released), to check that opening migrates it.
const oldSchema = `
CREATE TABLE info (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
INSERT INTO info VALUES ('schema_version', '1');
CREATE TABLE hosts (id INTEGER PRIMARY KEY, host TEXT NOT NULL UNIQUE, site TEXT NOT NULL DEFAULT '',
  urls INTEGER NOT NULL DEFAULT 0, fetched INTEGER NOT NULL DEFAULT 0, relevant INTEGER NOT NULL DEFAULT 0);
CREATE TABLE urls (id INTEGER PRIMARY KEY, h INTEGER NOT NULL UNIQUE, url TEXT NOT NULL, host_id INTEGER NOT NULL,
  state INTEGER NOT NULL DEFAULT 0, priority REAL NOT NULL DEFAULT 0, depth INTEGER NOT NULL DEFAULT 0, parent_id INTEGER,
  anchor TEXT, inherited REAL, meta TEXT, added_at INTEGER NOT NULL, leased_at INTEGER, lease_until INTEGER,
  lease_owner INTEGER, fetched_at INTEGER, status INTEGER, score REAL, relevant INTEGER, error TEXT);
CREATE INDEX urls_queue ON urls (priority DESC, depth, id) WHERE state = 0;
CREATE VIEW frontier AS SELECT u.url, CASE u.state WHEN 0 THEN 'queued' END AS state FROM urls u;
INSERT INTO hosts (id, host, urls) VALUES (1, 'a.cn', 2);
`

func TestMigrateOldDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sqlitedb.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(oldSchema); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO urls (h, url, host_id, state, priority, added_at, fetched_at, error)
		VALUES (?, 'http://a.cn/1', 1, 0, 0.9, 0, NULL, NULL), (?, 'http://a.cn/2', 1, 3, 0.5, 0, 1, 'robots')`,
		urlHash("http://a.cn/1"), urlHash("http://a.cn/2")); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for range 2 { // a second open finds it migrated
		s, err := OpenSQLite(path)
		if err != nil {
			t.Fatalf("open an old database: %v", err)
		}
		p := fastPolicy()
		if got := lease(t, s, LeaseRequest{N: 10}); len(got) > 1 {
			t.Fatalf("leased %v", got)
		}
		report(t, s, p, Outcome{URL: "http://a.cn/1", Error: "dns: no such host"})
		if st := stats(t, s); len(st.ParkedHosts) != 1 || st.States["parked"] != 1 {
			t.Errorf("parking in a migrated database: %v %+v", st.States, st.ParkedHosts)
		}
		if sts := states(t, s); sts["http://a.cn/1"] != "parked" {
			t.Errorf("view: %v", sts)
		}
		s.Close()
	}
	db, _ = sql.Open("sqlite", path)
	defer db.Close()
	var n int
	db.QueryRow(`SELECT count(*) FROM pragma_table_info('urls') WHERE name IN ('tries', 'retry_at')`).Scan(&n)
	if n != 2 {
		t.Errorf("%d new columns", n)
	}
}

// ph0 is the first parked host.
func ph0(t *testing.T, s *SQLiteStore) ParkedHost {
	t.Helper()
	st := stats(t, s)
	if len(st.ParkedHosts) == 0 {
		t.Fatal("no parked host")
	}
	return st.ParkedHosts[0]
}

// TestFirstContact: with FirstContact, a host none of whose pages came
// back has one URL out at a time; once one came back, the host is free.
func TestFirstContact(t *testing.T) {
	s, _ := openTest(t)
	queueAll(t, s, entry("http://new.cn/1", "new.cn", 0.9, 0), entry("http://new.cn/2", "new.cn", 0.8, 0),
		entry("http://new.cn/3", "new.cn", 0.7, 0), entry("http://other.cn/1", "other.cn", 0.1, 0))
	got := lease(t, s, LeaseRequest{N: 10, FirstContact: true})
	if fmt.Sprint(got) != "[http://new.cn/1 http://other.cn/1]" {
		t.Fatalf("first contact: leased %v", got)
	}
	if got := lease(t, s, LeaseRequest{N: 10, FirstContact: true}); len(got) != 0 {
		t.Fatalf("while the first URLs are out: leased %v", got)
	}
	report(t, s, nil, Outcome{URL: "http://new.cn/1", Status: 200})
	if got := lease(t, s, LeaseRequest{N: 10, FirstContact: true}); fmt.Sprint(got) != "[http://new.cn/2 http://new.cn/3]" {
		t.Fatalf("after a page came back: leased %v", got)
	}
}

// TestStatsJSONFields: the names seed stats --json prints are a contract
// (docs/frontier.md); renaming one breaks scripts that read them.
func TestStatsJSONFields(t *testing.T) {
	s, _ := openTest(t)
	queueAll(t, s, entry("http://d.cn/1", "d.cn", 1, 0))
	lease(t, s, LeaseRequest{N: 1})
	report(t, s, fastPolicy(), Outcome{URL: "http://d.cn/1", Error: "dns: no such host"})
	b, err := json.Marshal(stats(t, s))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	for _, k := range []string{"states", "fetched", "failed_unfetched", "requeued", "parked_hosts"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %q in %s", k, b)
		}
	}
	for _, k := range []string{"queued", "leased", "done", "failed", "parked", "waiting"} {
		if _, ok := m["states"].(map[string]any)[k]; !ok {
			t.Errorf("no state %q in %s", k, b)
		}
	}
	ph := m["parked_hosts"].([]any)[0].(map[string]any)
	for _, k := range []string{"host", "reason", "since", "next_retry", "urls", "tries"} {
		if _, ok := ph[k]; !ok {
			t.Errorf("no %q in a parked host: %v", k, ph)
		}
	}
}
