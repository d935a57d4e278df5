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

// redisTestDB is a Redis frontier of the test's own (the server at
// FOCUSCRAWL_TEST_REDIS, default redis://127.0.0.1:6379/15), dropped at
// the end; without a server the test is skipped (failed under CI).
func redisTestDB(t *testing.T) string {
	t.Helper()
	base := os.Getenv("FOCUSCRAWL_TEST_REDIS")
	if base == "" {
		base = "redis://127.0.0.1:6379/15"
	}
	dsn := fmt.Sprintf("%s?prefix=seedtest-%d-%d", base, os.Getpid(), time.Now().UnixNano())
	s, err := frontier.OpenRedis(context.Background(), dsn)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("Redis is needed under CI: %v", err)
		}
		t.Skipf("no Redis server: %v", err)
	}
	t.Cleanup(func() {
		_ = s.Drop(context.Background())
		s.Close()
	})
	return dsn
}

// TestRedisHostParkingEndToEnd is TestHostParkingEndToEnd on a Redis
// frontier: the dead hosts are parked after one lease each, their URLs
// are neither leased nor counted, seed next, peek, stats and requeue
// treat them as on SQLite.
func TestRedisHostParkingEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	db := redisTestDB(t)
	web := &downWeb{n: 40, hits: map[string]int{}}
	proxy := httptest.NewServer(web)
	defer proxy.Close()
	if r := runSeed(t, "http://good.test/p/0\n", nil, "add", "--db", db); r.code != 0 {
		t.Fatalf("seed: %s", r.stderr)
	}
	finishLoop(t, startFetchLoop(t, db, proxy.URL, web, "--max-pages", strconv.Itoa(web.n)))
	st := frontierStats(t, db)
	if st.Fetched != int64(web.n) || st.States["done"] != int64(web.n) || st.States["parked"] != int64(web.n) || st.States["failed"] != 0 {
		t.Errorf("stats: fetched %d, states %v", st.Fetched, st.States)
	}
	if len(st.ParkedHosts) != 5 {
		t.Fatalf("parked hosts %+v, want the 5 dead ones", st.ParkedHosts)
	}
	for _, p := range st.ParkedHosts {
		if !strings.HasPrefix(p.Reason, "dns: robots.txt: proxy testproxy: dns_error") || p.NextRetry.Before(time.Now().Add(50*time.Minute)) {
			t.Errorf("parked host %+v", p)
		}
	}
	if st.Requeued != 5 {
		t.Errorf("%d URLs of dead hosts leased, want 5: one each", st.Requeued)
	}
	checkParkedRelease(t, db, web)
}

// TestRedisAddLearnsRobotsRules is TestAddLearnsRobotsRules on Redis.
func TestRedisAddLearnsRobotsRules(t *testing.T) {
	db := redisTestDB(t)
	for _, seed := range []string{"http://r.test/private/1", "http://r.test/private/2", "http://r.test/ok"} {
		if r := runSeed(t, seed+"\n", nil, "add", "--db", db); r.code != 0 {
			t.Fatalf("seeds: %s", r.stderr)
		}
	}
	nextURLs(t, db, "-n", "1")
	page := `{"url":"http://r.test/private/1","status":0,"fetched_at":"2026-11-23T23:00:00Z",` +
		`"error":"robots-disallow: robots.txt for focuscrawl: user-agent: * ; disallow: /private"}` + "\n"
	if r := runSeed(t, page, nil, "add", "--db", db); r.code != 0 || !strings.Contains(r.stderr, "refused: robots 1") {
		t.Fatalf("page: %d %s", r.code, r.stderr)
	}
	if r := runSeed(t, "http://r.test/private/3\nhttp://r.test/ok/2\n", nil, "add", "--db", db); r.code != 0 ||
		!strings.Contains(r.stderr, "1 URLs queued") || !strings.Contains(r.stderr, "refused: robots 1") {
		t.Fatalf("new URLs: %d %s", r.code, r.stderr)
	}
	st := frontierStats(t, db)
	if st.Refused["robots"] != 2 || st.Fetched != 1 || st.Unfetched != 1 || st.States["queued"] != 2 {
		t.Errorf("stats: refused %v, fetched %d, unfetched %d, states %v", st.Refused, st.Fetched, st.Unfetched, st.States)
	}
	for _, u := range nextURLs(t, db, "-n", "10") {
		if strings.Contains(u.URL, "/private") {
			t.Errorf("leased %s", u.URL)
		}
	}
}

// TestRedisPeekAndRequeueCommands is TestPeekAndRequeueCommands on Redis.
func TestRedisPeekAndRequeueCommands(t *testing.T) {
	checkPeekAndRequeue(t, redisTestDB(t))
}
