package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// pgTestDB is a PostgreSQL frontier of the test's own (a schema in the
// database at FOCUSCRAWL_TEST_POSTGRES, default
// postgres://postgres@127.0.0.1:5432/test), dropped at the end; without a
// server the test is skipped (failed under CI).
func pgTestDB(t *testing.T) string {
	t.Helper()
	base := os.Getenv("FOCUSCRAWL_TEST_POSTGRES")
	if base == "" {
		base = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	}
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	dsn := fmt.Sprintf("%s%sschema=seedtest_%d_%d", base, sep, os.Getpid(), time.Now().UnixNano())
	s, err := frontier.OpenPostgres(context.Background(), dsn)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL is needed under CI: %v", err)
		}
		t.Skipf("no PostgreSQL server: %v", err)
	}
	t.Cleanup(func() {
		_ = s.Drop(context.Background())
		s.Close()
	})
	return dsn
}

// TestPostgresHostParkingEndToEnd is TestRedisHostParkingEndToEnd on a
// PostgreSQL frontier: seed add, next, peek, stats and requeue treat the
// dead hosts as on SQLite.
func TestPostgresHostParkingEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	db := pgTestDB(t)
	web := &downWeb{n: 40, hits: map[string]int{}}
	proxy := newProxy(t, web)
	if r := runSeed(t, "http://good.test/p/0\n", nil, "add", "--db", db); r.code != 0 {
		t.Fatalf("seed: %s", r.stderr)
	}
	finishLoop(t, startFetchLoop(t, db, proxy, web, "--max-pages", strconv.Itoa(web.n)))
	st := frontierStats(t, db)
	if st.Fetched != int64(web.n) || st.States["done"] != int64(web.n) || st.States["parked"] != int64(web.n) || st.States["failed"] != 0 {
		t.Errorf("stats: fetched %d, states %v", st.Fetched, st.States)
	}
	if len(st.ParkedHosts) != 5 || st.Requeued != 5 {
		t.Fatalf("parked hosts %+v, requeued %d: want the 5 dead ones, leased once each", st.ParkedHosts, st.Requeued)
	}
	checkParkedRelease(t, db, web)
}

// TestPostgresPeekAndRequeueCommands is TestPeekAndRequeueCommands on
// PostgreSQL.
func TestPostgresPeekAndRequeueCommands(t *testing.T) {
	checkPeekAndRequeue(t, pgTestDB(t))
}

func newProxy(t *testing.T, web *downWeb) string {
	t.Helper()
	proxy := httptest.NewServer(web)
	t.Cleanup(proxy.Close)
	return proxy.URL
}
