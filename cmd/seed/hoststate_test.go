package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAddLearnsRobotsRules: a page refused by robots.txt that carries the
// rules makes seed add refuse the host's other disallowed URLs, queued or
// new, under the guard "robots"; they are never leased.
func TestAddLearnsRobotsRules(t *testing.T) {
	db := filepath.Join(t.TempDir(), "crawl.db")
	// One seed add each, so that they are queued in this order (seed add
	// parses a stream's lines in parallel).
	for _, seed := range []string{"http://r.test/private/1", "http://r.test/private/2", "http://r.test/ok"} {
		if r := runSeed(t, seed+"\n", nil, "add", "--db", db); r.code != 0 {
			t.Fatalf("seeds: %s", r.stderr)
		}
	}
	nextURLs(t, db, "-n", "1") // r.test/private/1, the first queued
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

func TestRetryFlagsChecked(t *testing.T) {
	db := filepath.Join(t.TempDir(), "crawl.db")
	for _, args := range [][]string{{"--retries", "-1"}, {"--host-backoff", "0s"}, {"--retry-backoff", "1m", "--retry-backoff-max", "10s"}} {
		r := runSeed(t, "", nil, append([]string{"add", "--db", db}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, args[len(args)-2]) {
			t.Errorf("%v: exit %d %s", args, r.code, r.stderr)
		}
	}
}

func TestPeekAndRequeueCommands(t *testing.T) {
	checkPeekAndRequeue(t, filepath.Join(t.TempDir(), "crawl.db"))
}

// checkPeekAndRequeue runs seed peek and seed requeue on the new frontier db
// (either store).
func checkPeekAndRequeue(t *testing.T, db string) {
	t.Helper()
	if r := runSeed(t, "http://a.test/1\nhttp://b.test/1\n", nil, "add", "--db", db); r.code != 0 {
		t.Fatal(r.stderr)
	}
	// Peek shows what the next lease takes, and leases nothing.
	r := runSeed(t, "", nil, "peek", "--db", db, "--json", "-n", "1")
	if r.code != 0 || strings.Count(r.stdout, "\n") != 1 {
		t.Fatalf("peek: %d %q %s", r.code, r.stdout, r.stderr)
	}
	first := nextURLs(t, db, "-n", "1")
	if len(first) != 1 || !strings.Contains(r.stdout, `"url":"`+first[0].URL+`"`) {
		t.Errorf("peek showed %q, the lease took %+v", r.stdout, first)
	}
	if rest := nextURLs(t, db, "-n", "2"); len(rest) != 1 {
		t.Errorf("after peek and one lease, %d URLs left to lease, want 1", len(rest))
	}
	pages := `{"url":"http://a.test/1","status":405,"error":"http 405"}` + "\n" + `{"url":"http://b.test/1","status":404,"error":"http 404"}` + "\n"
	if r := runSeed(t, pages, nil, "add", "--db", db); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r = runSeed(t, "", nil, "requeue", "--db", db, "--error", "http 405")
	if r.code != 0 || r.stdout != "requeued 1 failed URLs; released 0 parked hosts holding 0 URLs\n" {
		t.Errorf("requeue: %d %q %s", r.code, r.stdout, r.stderr)
	}
	if us := nextURLs(t, db, "-n", "10"); len(us) != 1 || us[0].URL != "http://a.test/1" {
		t.Errorf("after requeue leased %+v", us)
	}
}
