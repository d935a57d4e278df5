package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/fetcher"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// downWeb is a web behind an HTTP proxy, as the real-web mirror serves
// it: good.test holds a tree of n pages, each linking to two children and
// to a page of one of the hosts dead0.invalid … dead4.invalid, for which
// the proxy answers 502 with Proxy-Status error=dns_error.
type downWeb struct {
	n    int
	mu   sync.Mutex
	hits map[string]int // requests per host and path
}

func (w *downWeb) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	host := r.URL.Hostname()
	w.mu.Lock()
	w.hits[host+r.URL.Path]++
	w.mu.Unlock()
	switch {
	case strings.HasSuffix(host, ".invalid"):
		rw.Header().Set("Proxy-Status", "testproxy; error=dns_error")
		rw.WriteHeader(http.StatusBadGateway)
	case r.URL.Path == "/robots.txt":
		http.NotFound(rw, r)
	default:
		fmt.Fprintf(rw, "<p>%s</p>", r.URL.Path)
	}
}

func (w *downWeb) links(u string) []string {
	i, err := strconv.Atoi(strings.TrimPrefix(u, "http://good.test/p/"))
	if err != nil {
		return nil
	}
	var out []string
	for _, c := range []int{2*i + 1, 2*i + 2} {
		if c < w.n {
			out = append(out, fmt.Sprintf("http://good.test/p/%d", c))
		}
	}
	return append(out, fmt.Sprintf("http://dead%d.invalid/p/%d", i%5, i))
}

func (w *downWeb) deadHits() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for k, v := range w.hits {
		if strings.Contains(k, ".invalid") {
			n += v
		}
	}
	return n
}

// fetchWork fetches each url record with the real fetcher through the
// proxy, and writes a page record for a failure or a scored doc with the
// page's links, as fetch | segment | score would.
func fetchWork(in io.Reader, out io.Writer, proxy string, web *downWeb) error {
	cfg := fetcher.Defaults()
	cfg.Proxy, cfg.Delay, cfg.Retries = proxy, 0, 0
	f, err := fetcher.New(cfg)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(in)
	bw := bufio.NewWriter(out)
	for sc.Scan() {
		var u record.URL
		if err := json.Unmarshal(sc.Bytes(), &u); err != nil {
			return fmt.Errorf("worker: %q: %w", sc.Text(), err)
		}
		p := f.Fetch(context.Background(), u)
		var line []byte
		if p.Error != "" {
			line = append(fetcher.AppendPage(nil, &p), '\n')
		} else {
			d := record.ScoredDoc{Score: 0.5, Relevant: true}
			d.URL, d.Status, d.Lineage = u.URL, p.Status, u.Lineage
			for _, l := range web.links(u.URL) {
				sl := record.ScoredLink{Priority: 0.5}
				sl.URL = l
				d.Links = append(d.Links, sl)
			}
			line, _ = json.Marshal(d)
			line = append(line, '\n')
		}
		bw.Write(line)
		if err := bw.Flush(); err != nil {
			return nil // seed add is gone
		}
	}
	return nil
}

func startFetchLoop(t *testing.T, db, proxy string, web *downWeb, nextArgs ...string) *loop {
	t.Helper()
	next := seedCmd(t, append([]string{"next", "--db", db, "--follow", "--lease", "1s", "--in-flight", "4", "--per-host", "0", "--poll", "20ms"}, nextArgs...)...)
	add := seedCmd(t, "add", "--db", db, "--host-backoff", "1h")
	var nextErr, addErr strings.Builder
	next.Stderr, add.Stderr = &nextErr, &addErr
	nextOut, err := next.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	addIn, err := add.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := add.Start(); err != nil {
		t.Fatal(err)
	}
	if err := next.Start(); err != nil {
		t.Fatal(err)
	}
	l := &loop{
		next:      &procHandle{cmd: next, kill: next.Process.Kill, stderr: &nextErr},
		add:       &procHandle{cmd: add, kill: add.Process.Kill, stderr: &addErr},
		workerErr: make(chan error, 1),
	}
	go func() {
		defer addIn.Close()
		err := fetchWork(nextOut, addIn, proxy, web)
		nextOut.Close()
		l.workerErr <- err
	}()
	return l
}

func finishLoop(t *testing.T, l *loop) {
	t.Helper()
	if err := waitTimeout(l.next, 30*time.Second); err != nil {
		t.Fatalf("seed next: %v\n%s\n%s", err, l.next.stderr, l.add.stderr)
	}
	if err := <-l.workerErr; err != nil {
		t.Fatal(err)
	}
	if err := waitTimeout(l.add, 10*time.Second); err != nil {
		t.Fatalf("seed add: %v\n%s", err, l.add.stderr)
	}
}

func urlStates(t *testing.T, db string) map[string]string {
	t.Helper()
	h, err := sql.Open("sqlite", "file:"+db+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	rows, err := h.Query(`SELECT url, state FROM frontier`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var u, s string
		rows.Scan(&u, &s)
		out[u] = s
	}
	return out
}

// checkParked: every URL of a dead host is parked, none fetched or
// failed; every good page is done; stats agree.
func checkParked(t *testing.T, db string, web *downWeb) {
	t.Helper()
	good, dead := 0, 0
	for u, s := range urlStates(t, db) {
		switch {
		case strings.Contains(u, ".invalid"):
			dead++
			if s != "parked" {
				t.Errorf("%s: %s, want parked", u, s)
			}
		case s != "done":
			t.Errorf("%s: %s, want done", u, s)
		default:
			good++
		}
	}
	if good != web.n || dead != web.n {
		t.Errorf("%d good pages done, %d dead URLs, want %d each", good, dead, web.n)
	}
	st := frontierStats(t, db)
	if st.Fetched != int64(web.n) || st.States["parked"] != int64(web.n) || st.States["failed"] != 0 {
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
}

// TestHostParkingEndToEnd crawls a web where every page links to hosts
// that do not resolve: their URLs are parked as the first of each fails,
// are never leased again, and do not count as fetched.
func TestHostParkingEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	web := &downWeb{n: 40, hits: map[string]int{}}
	proxy := httptest.NewServer(web)
	defer proxy.Close()
	db := filepath.Join(t.TempDir(), "crawl.db")
	if r := runSeed(t, "http://good.test/p/0\n", nil, "add", "--db", db); r.code != 0 {
		t.Fatalf("seed: %s", r.stderr)
	}
	// The budget is exactly the good pages: the dead hosts' URLs that go
	// out before their host is parked must not use it up.
	finishLoop(t, startFetchLoop(t, db, proxy.URL, web, "--max-pages", strconv.Itoa(web.n)))
	checkParked(t, db, web)
	// One URL of each dead host went out (first contact), never the 8
	// each one holds.
	if n := frontierStats(t, db).Requeued; n != 5 {
		t.Errorf("%d URLs of dead hosts leased, want 5: one each", n)
	}
	checkParkedRelease(t, db, web)
}

// checkParkedRelease: with only the dead hosts' URLs left, parked, seed
// peek shows none of them, stats names them, next says so, and requeue
// --error dns queues them all again (either store).
func checkParkedRelease(t *testing.T, db string, web *downWeb) {
	t.Helper()
	// seed peek shows nothing of theirs; seed stats names them.
	if r := runSeed(t, "", nil, "peek", "--db", db); r.code != 0 || strings.Contains(r.stdout, ".invalid") {
		t.Errorf("peek: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := runSeed(t, "", nil, "stats", "--db", db); !strings.Contains(r.stdout, "dead0.invalid") || !strings.Contains(r.stdout, "parked host") {
		t.Errorf("stats does not show the parked hosts:\n%s", r.stdout)
	}
	// A run that finds only parked hosts says so, instead of looking done.
	if r := runSeed(t, "", nil, "next", "--db", db, "-n", "5"); r.code != 0 || r.stdout != "" ||
		!strings.Contains(r.stderr, fmt.Sprintf("5 hosts parked (down or robots.txt unreachable) hold %d URLs", web.n)) {
		t.Errorf("seed next with only parked hosts: %d %q %s", r.code, r.stdout, r.stderr)
	}
	// seed requeue --error dns releases them: all their URLs queue again.
	r := runSeed(t, "", nil, "requeue", "--db", db, "--error", "dns", "--json")
	if r.code != 0 || strings.TrimSpace(r.stdout) != fmt.Sprintf(`{"urls":0,"hosts":5,"held":%d}`, web.n) {
		t.Errorf("requeue: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if st := frontierStats(t, db); st.States["queued"] != int64(web.n) || len(st.ParkedHosts) != 0 {
		t.Errorf("after requeue: %v %+v", st.States, st.ParkedHosts)
	}
}

// TestHostParkingSurvivesSIGKILL kills seed next with SIGKILL in the
// middle of a crawl that parks hosts, and runs the loop again: the hosts
// stay parked (nothing of theirs is fetched by the second run, the URLs
// the killed run had out come back parked), every good page is fetched
// exactly once, and the budget counts only pages fetched.
func TestHostParkingSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	for _, victim := range []string{"next", "add"} {
		t.Run("kill "+victim, func(t *testing.T) {
			web := &downWeb{n: 120, hits: map[string]int{}}
			proxy := httptest.NewServer(web)
			defer proxy.Close()
			db := filepath.Join(t.TempDir(), "crawl.db")
			if r := runSeed(t, "http://good.test/p/0\n", nil, "add", "--db", db); r.code != 0 {
				t.Fatalf("seed: %s", r.stderr)
			}
			l := startFetchLoop(t, db, proxy.URL, web)
			deadline := time.Now().Add(20 * time.Second)
			for time.Now().Before(deadline) {
				st := frontierStats(t, db)
				if st.Fetched >= 30 && len(st.ParkedHosts) == 5 {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			victimProc, other := l.next, l.add
			if victim == "add" {
				victimProc, other = l.add, l.next
			}
			victimProc.kill()
			victimProc.cmd.Wait()
			waitOrKill(other, 5*time.Second)
			<-l.workerErr
			st := frontierStats(t, db)
			if len(st.ParkedHosts) != 5 || st.Fetched >= int64(web.n) {
				t.Fatalf("first run: %d parked hosts, %d fetched: want 5 parked and the crawl unfinished", len(st.ParkedHosts), st.Fetched)
			}
			deadBefore := web.deadHits()
			web.mu.Lock()
			clear(web.hits)
			web.mu.Unlock()

			// Resume, with a budget of exactly the pages left: parked
			// URLs must not use it up.
			left := web.n - int(st.Fetched)
			time.Sleep(1100 * time.Millisecond) // the killed run's leases run out
			finishLoop(t, startFetchLoop(t, db, proxy.URL, web, "--max-pages", strconv.Itoa(left)))
			checkParked(t, db, web)
			if n := web.deadHits(); n != 0 {
				t.Errorf("the second run sent %d requests to parked hosts (first run: %d)", n, deadBefore)
			}
			web.mu.Lock()
			defer web.mu.Unlock()
			for k, v := range web.hits {
				if v != 1 && strings.HasPrefix(k, "good.test/p/") {
					t.Errorf("%s fetched %d times by the second run", k, v)
				}
			}
		})
	}
}
