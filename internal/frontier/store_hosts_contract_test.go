package frontier

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

// The host-state contract (parking, retries, give-up, robots.txt rules,
// requeue, peek, first contact), run against both stores: the same test
// body, the same expectations.

func cQueue(t *testing.T, s Store, es ...Entry) Applied {
	t.Helper()
	res, err := s.Apply(context.Background(), Batch{Queue: es})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func cReport(t *testing.T, s Store, p *RetryPolicy, os ...Outcome) Applied {
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

func cStats(t *testing.T, s Store) *Stats {
	t.Helper()
	st, err := s.Stats(context.Background(), StatsQuery{TopHosts: 10, ErrorKinds: true})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// cState names the state of u, as the SQLite frontier view does.
func cState(t *testing.T, s Store, u string) string {
	t.Helper()
	switch s := s.(type) {
	case *SQLiteStore:
		var st string
		if err := s.DB().QueryRow(`SELECT state FROM frontier WHERE url = ?`, u).Scan(&st); err != nil {
			t.Fatalf("state of %s: %v", u, err)
		}
		return st
	case interface {
		State(context.Context, string) (State, bool, error)
	}:
		st, ok, err := s.State(context.Background(), u)
		if err != nil || !ok {
			t.Fatalf("state of %s: %v %v", u, ok, err)
		}
		return st.String()
	}
	t.Fatalf("no state for a %T", s)
	return ""
}

func cAdmin(t *testing.T, s Store) HostAdmin {
	t.Helper()
	return s
}

func cParked0(t *testing.T, s Store) ParkedHost {
	t.Helper()
	st := cStats(t, s)
	if len(st.ParkedHosts) == 0 {
		t.Fatal("no parked host")
	}
	return st.ParkedHosts[0]
}

// TestStoreHostParking: a host down parks every URL of it, none is leased
// until its retry time, then one probe goes out; a failed probe doubles
// the wait, a good one unparks the host. Parked URLs are not fetched.
func TestStoreHostParking(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		p := fastPolicy()
		p.HostTries = 0
		// Long enough for a slow machine (-race) to lease before the time.
		p.HostBackoff, p.HostMaxBackoff = 300*time.Millisecond, 2*time.Second
		cQueue(t, s, entry("http://down.cn/1", "down.cn", 0.9, 0), entry("http://down.cn/2", "down.cn", 0.8, 0),
			entry("http://down.cn/3", "down.cn", 0.7, 0), entry("http://up.cn/1", "up.cn", 0.1, 0))
		if got := lease(t, s, LeaseRequest{N: 1}); fmt.Sprint(got) != "[http://down.cn/1]" {
			t.Fatalf("leased %v", got)
		}
		res := cReport(t, s, p, Outcome{URL: "http://down.cn/1", Error: "dns: lookup down.cn: no such host"})
		if res.Requeued != 1 || res.Done != 0 {
			t.Errorf("applied %+v, want the URL put back", res)
		}
		st := cStats(t, s)
		if st.Fetched != 0 || st.States["parked"] != 3 || st.Requeued != 1 {
			t.Errorf("after parking: fetched %d, states %v, requeued %d", st.Fetched, st.States, st.Requeued)
		}
		if len(st.ParkedHosts) != 1 || st.ParkedHosts[0].Host != "down.cn" || st.ParkedHosts[0].URLs != 3 ||
			!strings.HasPrefix(st.ParkedHosts[0].Reason, "dns:") || st.ParkedHosts[0].NextRetry.IsZero() || st.ParkedHosts[0].Since.IsZero() {
			t.Errorf("parked hosts %+v", st.ParkedHosts)
		}
		if hosts, urls, next, err := cAdmin(t, s).ParkedSummary(context.Background()); err != nil || hosts != 1 || urls != 3 || next.IsZero() {
			t.Errorf("parked summary: %d hosts, %d URLs, next %v, %v", hosts, urls, next, err)
		}
		if c, _ := s.Progress(context.Background()); c.Fetched != 0 {
			t.Errorf("progress %+v: a parked URL is not fetched", c)
		}
		// New URLs of the host are parked too; only up.cn is leased.
		cQueue(t, s, entry("http://down.cn/4", "down.cn", 1, 1))
		if got := lease(t, s, LeaseRequest{N: 10}); fmt.Sprint(got) != "[http://up.cn/1]" {
			t.Fatalf("leased %v while down.cn is parked", got)
		}
		// The retry time comes: one probe, the best held URL.
		time.Sleep(time.Until(cParked0(t, s).NextRetry) + 20*time.Millisecond)
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
		cReport(t, s, p, Outcome{URL: "http://down.cn/4", Error: "connect: refused"})
		if ph := cParked0(t, s); ph.Tries != 1 || ph.NextRetry.Sub(before) < 500*time.Millisecond || ph.URLs != 4 {
			t.Errorf("after a failed probe: %+v, want tries 1 and a doubled wait (600ms)", ph)
		}
		time.Sleep(time.Until(cParked0(t, s).NextRetry) + 20*time.Millisecond)
		if got := lease(t, s, LeaseRequest{N: 10}); fmt.Sprint(got) != "[http://down.cn/4]" {
			t.Fatalf("second probe: leased %v", got)
		}
		cReport(t, s, p, Outcome{URL: "http://down.cn/4", Status: 200})
		st = cStats(t, s)
		if len(st.ParkedHosts) != 0 || st.States["parked"] != 0 || st.States["queued"] != 3 || st.Fetched != 1 {
			t.Errorf("after a good probe: parked %+v, states %v, fetched %d", st.ParkedHosts, st.States, st.Fetched)
		}
	})
}

func TestStoreHostGivenUp(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		p := fastPolicy()
		p.HostBackoff, p.HostMaxBackoff, p.HostTries = time.Millisecond, time.Millisecond, 2
		cQueue(t, s, entry("http://down.cn/1", "down.cn", 0.9, 0), entry("http://down.cn/2", "down.cn", 0.8, 0))
		msg := "robots-unreachable: http 503"
		for i := 0; i < 3; i++ {
			time.Sleep(3 * time.Millisecond)
			got := lease(t, s, LeaseRequest{N: 1})
			if len(got) != 1 {
				t.Fatalf("round %d: leased %v, want one URL", i, got)
			}
			cReport(t, s, p, Outcome{URL: got[0], Error: msg})
		}
		st := cStats(t, s)
		if st.States["failed"] != 2 || st.Fetched != 0 || st.Unfetched != 2 || len(st.ParkedHosts) != 1 || !st.ParkedHosts[0].GivenUp ||
			st.ParkedHosts[0].URLs != 2 {
			t.Fatalf("given up: states %v fetched %d unfetched %d parked %+v", st.States, st.Fetched, st.Unfetched, st.ParkedHosts)
		}
		if got := cState(t, s, "http://down.cn/1"); got != "failed" {
			t.Errorf("down.cn/1 is %s", got)
		}
		res := cQueue(t, s, entry("http://down.cn/3", "down.cn", 1, 1))
		if res.Guards[GuardHostGivenUp] != 1 || res.Queued != 0 {
			t.Errorf("a new URL of a given-up host: %+v", res)
		}
		if st := cStats(t, s); st.Refused[GuardHostGivenUp] != 1 {
			t.Errorf("refused %v", st.Refused)
		}
		// seed requeue --error robots-unreachable brings the host back.
		rq, err := cAdmin(t, s).Requeue(context.Background(), RequeueFilter{Kind: "robots-unreachable"})
		if err != nil || rq.URLs != 2 || rq.Hosts != 1 {
			t.Fatalf("requeue: %+v %v", rq, err)
		}
		if got := lease(t, s, LeaseRequest{N: 10}); len(got) != 2 {
			t.Errorf("after requeue leased %v", got)
		}
		if st := cStats(t, s); st.Unfetched != 0 || len(st.ParkedHosts) != 0 {
			t.Errorf("after requeue: unfetched %d, parked %+v", st.Unfetched, st.ParkedHosts)
		}
	})
}

// TestStoreRetryBackoff: transient failures wait and come back, up to
// Retries; permanent ones stay failed at once.
func TestStoreRetryBackoff(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		p := fastPolicy()
		p.Backoff, p.MaxBackoff = 200*time.Millisecond, 2*time.Second
		cQueue(t, s, entry("http://a.cn/flaky", "a.cn", 0.9, 0), entry("http://a.cn/gone", "a.cn", 0.8, 0))
		lease(t, s, LeaseRequest{N: 10})
		res := cReport(t, s, p, Outcome{URL: "http://a.cn/flaky", Status: 503, Error: "http 503"},
			Outcome{URL: "http://a.cn/gone", Status: 404, Error: "http 404"})
		if res.Requeued != 1 || res.Done != 1 {
			t.Errorf("applied %+v", res)
		}
		if a, b := cState(t, s, "http://a.cn/flaky"), cState(t, s, "http://a.cn/gone"); a != "waiting" || b != "failed" {
			t.Fatalf("states %s %s", a, b)
		}
		if got := lease(t, s, LeaseRequest{N: 10}); len(got) != 0 {
			t.Fatalf("leased %v before the retry time", got)
		}
		if c, _ := s.Counts(context.Background()); !c.Queued || c.Requeued != 1 {
			t.Errorf("counts %+v: a retry is waiting", c)
		}
		for try := 1; try <= 2; try++ {
			time.Sleep(p.Backoff<<(try-1) + 20*time.Millisecond)
			if got := lease(t, s, LeaseRequest{N: 10}); fmt.Sprint(got) != "[http://a.cn/flaky]" {
				t.Fatalf("retry %d: leased %v", try, got)
			}
			cReport(t, s, p, Outcome{URL: "http://a.cn/flaky", Error: "network: connection reset"})
		}
		// Two retries spent: failed for good, fetched once.
		st := cStats(t, s)
		if got := cState(t, s, "http://a.cn/flaky"); got != "failed" || st.Fetched != 2 || st.Requeued != 2 {
			t.Errorf("after the retries: %s, fetched %d, requeued %d", got, st.Fetched, st.Requeued)
		}
		if q, err := cAdmin(t, s).Peek(context.Background(), 10); err != nil || len(q) != 0 {
			t.Errorf("peek %+v %v", q, err)
		}
	})
}

func TestStoreTimeoutsInARowParkTheHost(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		p := fastPolicy()
		p.Backoff = time.Hour // retries stay waiting
		var es []Entry
		for i := range 5 {
			es = append(es, entry(fmt.Sprintf("http://slow.cn/%d", i), "slow.cn", 1-float64(i)/10, 0))
		}
		cQueue(t, s, es...)
		got := lease(t, s, LeaseRequest{N: 2})
		cReport(t, s, p, Outcome{URL: got[0], Error: "timeout: deadline exceeded"})
		if st := cStats(t, s); len(st.ParkedHosts) != 0 || st.States["waiting"] != 1 {
			t.Fatalf("one timeout: %v %+v", st.States, st.ParkedHosts)
		}
		cReport(t, s, p, Outcome{URL: got[1], Error: "timeout: deadline exceeded"})
		st := cStats(t, s)
		if len(st.ParkedHosts) != 1 || st.States["parked"] != 5 || st.States["waiting"] != 0 {
			t.Fatalf("two timeouts in a row: %v %+v", st.States, st.ParkedHosts)
		}
	})
}

// A timeout between answers does not make a row.
func TestStoreTimeoutRowBrokenByAnAnswer(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		p := fastPolicy()
		p.Backoff = time.Hour
		cQueue(t, s, entry("http://a.cn/1", "a.cn", 0.9, 0), entry("http://a.cn/2", "a.cn", 0.8, 0), entry("http://a.cn/3", "a.cn", 0.7, 0))
		lease(t, s, LeaseRequest{N: 10})
		cReport(t, s, p, Outcome{URL: "http://a.cn/1", Error: "timeout: x"})
		cReport(t, s, p, Outcome{URL: "http://a.cn/2", Status: 404, Error: "http 404"})
		cReport(t, s, p, Outcome{URL: "http://a.cn/3", Error: "timeout: x"})
		if st := cStats(t, s); len(st.ParkedHosts) != 0 {
			t.Errorf("parked after timeouts not in a row: %+v", st.ParkedHosts)
		}
	})
}

func TestStoreCanceledIsQueuedAgain(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		cQueue(t, s, entry("http://a.cn/1", "a.cn", 0.9, 0))
		lease(t, s, LeaseRequest{N: 10})
		cReport(t, s, nil, Outcome{URL: "http://a.cn/1", Error: "canceled"})
		if st := cStats(t, s); st.States["queued"] != 1 || st.Fetched != 0 {
			t.Errorf("canceled: %v fetched %d", st.States, st.Fetched)
		}
	})
}

// TestStoreRobotsRulesLearned: a robots-disallow outcome that carries the
// host's rules refuses its other disallowed URLs, queued or new; they are
// never leased and count under the robots guard, not as fetched.
func TestStoreRobotsRulesLearned(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, reopen func(*testing.T) Store) {
		cQueue(t, s, entry("http://r.cn/private/1", "r.cn", 0.9, 0), entry("http://r.cn/private/2", "r.cn", 0.8, 0),
			entry("http://r.cn/private/ok/3", "r.cn", 0.7, 0), entry("http://r.cn/public", "r.cn", 0.6, 0))
		got := lease(t, s, LeaseRequest{N: 1})
		msg := "robots-disallow: robots.txt for focuscrawl: user-agent: * ; disallow: /private ; allow: /private/ok"
		res := cReport(t, s, nil, Outcome{URL: got[0], Error: msg})
		if res.Guards[GuardRobots] != 1 {
			t.Errorf("applied %+v, want the queued /private/2 refused", res)
		}
		res = cQueue(t, s, entry("http://r.cn/private/4", "r.cn", 1, 1), entry("http://r.cn/private/ok/5", "r.cn", 1, 1),
			entry("http://r.cn/?q=1", "r.cn", 1, 1))
		if res.Queued != 2 || res.Guards[GuardRobots] != 1 {
			t.Errorf("new URLs: %+v", res)
		}
		got = lease(t, s, LeaseRequest{N: 10})
		sort.Strings(got)
		if fmt.Sprint(got) != "[http://r.cn/?q=1 http://r.cn/private/ok/3 http://r.cn/private/ok/5 http://r.cn/public]" {
			t.Errorf("leased %v", got)
		}
		st := cStats(t, s)
		if st.Refused[GuardRobots] != 2 || st.Fetched != 1 || st.Unfetched != 1 {
			t.Errorf("stats: refused %v fetched %d unfetched %d", st.Refused, st.Fetched, st.Unfetched)
		}
		// The rules live in the store: another process applies them too.
		s2 := reopen(t)
		if res, err := s2.Apply(context.Background(), Batch{Queue: []Entry{entry("http://r.cn/private/6", "r.cn", 1, 1)}}); err != nil || res.Guards[GuardRobots] != 1 {
			t.Errorf("second process: %+v %v", res, err)
		}
		// Rules learned by another process reach one that read them before.
		msg2 := "robots-disallow: robots.txt for focuscrawl: user-agent: * ; disallow: /public2"
		cReport(t, s2, nil, Outcome{URL: "http://r.cn/public", Error: msg2})
		if res := cQueue(t, s, entry("http://r.cn/public2/x", "r.cn", 1, 1)); res.Guards[GuardRobots] != 1 {
			t.Errorf("rules learned by another process: %+v", res)
		}
	})
}

func TestStoreRequeueByKindAndHost(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		cQueue(t, s, entry("http://a.cn/1", "a.cn", 0.9, 0), entry("http://a.cn/2", "a.cn", 0.8, 0), entry("http://b.cn/1", "b.cn", 0.7, 0))
		lease(t, s, LeaseRequest{N: 10})
		cReport(t, s, nil, Outcome{URL: "http://a.cn/1", Status: 405, Error: "http 405"},
			Outcome{URL: "http://a.cn/2", Status: 404, Error: "http 404"},
			Outcome{URL: "http://b.cn/1", Status: 405, Error: "http 405"})
		if st := cStats(t, s); st.Fetched != 3 || fmt.Sprint(st.Errors) != "map[http 404:1 http 405:2]" || st.RequeuedErrors != nil {
			t.Fatalf("fetched %d, errors %v, requeued errors %v", st.Fetched, st.Errors, st.RequeuedErrors)
		}
		ctx := context.Background()
		admin := cAdmin(t, s)
		if rq, err := admin.Requeue(ctx, RequeueFilter{Kind: "http 405", Host: "a.cn"}); err != nil || rq.URLs != 1 {
			t.Fatalf("requeue 405 of a.cn: %+v %v", rq, err)
		}
		if got := lease(t, s, LeaseRequest{N: 10}); fmt.Sprint(got) != "[http://a.cn/1]" {
			t.Errorf("leased %v", got)
		}
		if rq, err := admin.Requeue(ctx, RequeueFilter{Kind: "4xx"}); err != nil || rq.URLs != 2 {
			t.Fatalf("requeue 4xx: %+v %v", rq, err)
		}
		st := cStats(t, s)
		if st.Fetched != 0 || st.States["queued"] != 2 || st.States["leased"] != 1 {
			t.Errorf("after requeue: %v fetched %d", st.States, st.Fetched)
		}
		// The failures requeue took off are kept as history, by host and kind.
		if len(st.Errors) != 0 || fmt.Sprint(st.RequeuedErrors) != "[{a.cn http 404 1} {a.cn http 405 1} {b.cn http 405 1}]" {
			t.Errorf("after requeue: errors %v, requeued errors %v", st.Errors, st.RequeuedErrors)
		}
		for _, h := range st.TopHosts {
			if h.Fetched != 0 {
				t.Errorf("%s's fetched figure %d after requeue", h.Host, h.Fetched)
			}
		}
		// Fetched again, a requeued URL is in the history once.
		cReport(t, s, nil, Outcome{URL: "http://a.cn/1", Status: 200})
		n := 0
		if err := s.History(ctx, func(f Fetched) error {
			if f.URL == "http://a.cn/1" {
				n++
			}
			return nil
		}); err != nil || n != 1 {
			t.Errorf("history holds a.cn/1 %d times (%v)", n, err)
		}
	})
}

func TestStorePeek(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		cQueue(t, s, entry("http://a.cn/1", "a.cn", 0.5, 2), entry("http://a.cn/2", "a.cn", 0.9, 1),
			entry("http://b.cn/1", "b.cn", 0.9, 0), entry("http://c.cn/1", "c.cn", 0.1, 0))
		admin := cAdmin(t, s)
		got, err := admin.Peek(context.Background(), 3)
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
		if st := cStats(t, s); st.States["queued"] != 4 || st.States["leased"] != 0 {
			t.Errorf("after peek: %v", st.States)
		}
		// A parked host's probe shows as parked.
		p := fastPolicy()
		p.HostBackoff = time.Millisecond
		lease(t, s, LeaseRequest{N: 1})
		cReport(t, s, p, Outcome{URL: "http://b.cn/1", Error: "dns: no such host"})
		cQueue(t, s, entry("http://x.cn/1", "x.cn", 1, 0))
		time.Sleep(5 * time.Millisecond)
		if got := lease(t, s, LeaseRequest{N: 1}); fmt.Sprint(got) != "[http://x.cn/1]" { // and wakes the probe
			t.Fatalf("leased %v", got)
		}
		got, _ = admin.Peek(context.Background(), 10)
		if len(got) != 4 || got[0].URL != "http://b.cn/1" || !got[0].Parked || got[1].Parked {
			t.Errorf("peek with a probe: %+v", got)
		}
	})
}

// TestStoreFirstContact: with FirstContact, a host none of whose pages
// came back has one URL out at a time; once one came back, the host is free.
func TestStoreFirstContact(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		cQueue(t, s, entry("http://new.cn/1", "new.cn", 0.9, 0), entry("http://new.cn/2", "new.cn", 0.8, 0),
			entry("http://new.cn/3", "new.cn", 0.7, 0), entry("http://other.cn/1", "other.cn", 0.1, 0))
		if got := lease(t, s, LeaseRequest{N: 10, FirstContact: true}); fmt.Sprint(got) != "[http://new.cn/1 http://other.cn/1]" {
			t.Fatalf("first contact: leased %v", got)
		}
		if got := lease(t, s, LeaseRequest{N: 10, FirstContact: true}); len(got) != 0 {
			t.Fatalf("while the first URLs are out: leased %v", got)
		}
		cReport(t, s, nil, Outcome{URL: "http://new.cn/1", Status: 200})
		if got := lease(t, s, LeaseRequest{N: 10, FirstContact: true}); fmt.Sprint(got) != "[http://new.cn/2 http://new.cn/3]" {
			t.Fatalf("after a page came back: leased %v", got)
		}
	})
}

// TestStoreStatsJSONFields: the names seed stats --json prints are a
// contract (docs/frontier.md), on either store.
func TestStoreStatsJSONFields(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		cQueue(t, s, entry("http://d.cn/1", "d.cn", 1, 0))
		lease(t, s, LeaseRequest{N: 1})
		cReport(t, s, fastPolicy(), Outcome{URL: "http://d.cn/1", Error: "dns: no such host"})
		b, err := json.Marshal(cStats(t, s))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
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
		phs, _ := m["parked_hosts"].([]any)
		if len(phs) != 1 {
			t.Fatalf("parked hosts %s", b)
		}
		ph := phs[0].(map[string]any)
		for _, k := range []string{"host", "reason", "since", "next_retry", "urls", "tries"} {
			if _, ok := ph[k]; !ok {
				t.Errorf("no %q in a parked host: %v", k, ph)
			}
		}
	})
}

// TestStoreAddedPerSecond: the stores that keep when URLs were added
// (SQLite, PostgreSQL) count them by the second, for seed report's queue
// over time.
func TestStoreAddedPerSecond(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		a, ok := s.(interface {
			AddedPerSecond(context.Context) (map[int64]int64, error)
		})
		if !ok {
			t.Skip("the store does not record when URLs were added")
		}
		before := time.Now().Unix()
		cQueue(t, s, entry("http://a.cn/1", "a.cn", 0.9, 0), entry("http://a.cn/2", "a.cn", 0.8, 0), entry("http://b.cn/1", "b.cn", 0.7, 0))
		m, err := a.AddedPerSecond(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		for sec, k := range m {
			if sec < before || sec > time.Now().Unix() {
				t.Errorf("added at %d, outside the test's time", sec)
			}
			n += k
		}
		if n != 3 {
			t.Errorf("%d URLs added, want 3 (%v)", n, m)
		}
	})
}
