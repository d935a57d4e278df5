package frontier

import (
	"context"
	"database/sql"
	"path/filepath"
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
	st, err := s.Stats(context.Background(), StatsQuery{})
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
	db.QueryRow(`SELECT count(*) FROM pragma_table_info('urls') WHERE name IN ('tries', 'retry_at', 'reserve')`).Scan(&n)
	if n != 3 {
		t.Errorf("%d new columns", n)
	}
	// The queue index orders the reserve last, and serves the lease's walk
	// without a sort.
	var plan, detail string
	rows, err := db.Query(`EXPLAIN QUERY PLAN SELECT id FROM urls WHERE state = 0 ORDER BY reserve, priority DESC, depth, id LIMIT 10`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, parent, unused int
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan += detail + "; "
	}
	rows.Close()
	if !strings.Contains(plan, "urls_queue") || strings.Contains(plan, "TEMP B-TREE") {
		t.Errorf("the queue walk of a migrated file: %s", plan)
	}
}
