package frontier

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// The reserve's contract (reserve.go), run against both stores.

func rEntry(u, host string, prio float64, depth int) Entry {
	e := entry(u, host, prio, depth)
	e.Reserve = true
	return e
}

func cCounts(t *testing.T, s Store) Counts {
	t.Helper()
	c, err := s.Counts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func cDone(t *testing.T, s Store, urls ...string) {
	t.Helper()
	var os []Outcome
	for _, u := range urls {
		os = append(os, Outcome{URL: u, Status: 200})
	}
	cReport(t, s, nil, os...)
}

// TestStoreReserveAfterEveryOtherURL: a reserve URL is leased after every
// other queued URL, even one the per-host bound or first contact holds
// back this call, and not while a lease of another URL runs — though its
// priority beats theirs and its host is free. Without LeaseRequest.Reserve
// it is never leased; Counts and Stats tell it apart from the queue.
func TestStoreReserveAfterEveryOtherURL(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		var q []Entry
		for i := 0; i < 5; i++ {
			q = append(q, entry(fmt.Sprintf("http://a.cn/%d", i), "a.cn", 0.9-float64(i)/10, 1))
		}
		q = append(q, entry("http://b.cn/1", "b.cn", 0.05, 1),
			rEntry("http://c.cn/r1", "c.cn", 0.19, 1), rEntry("http://c.cn/r2", "c.cn", 0.18, 2),
			rEntry("http://a.cn/r", "a.cn", 0.1, 1))
		if res := cQueue(t, s, q...); res.Queued != 9 || res.Reserved != 3 {
			t.Fatalf("applied %+v, want 9 queued, 3 of them in the reserve", res)
		}
		if c := cCounts(t, s); !c.Queued || !c.Reserve {
			t.Fatalf("counts %+v, want queued and reserve", c)
		}
		st := cStats(t, s)
		if st.States["queued"] != 6 || st.States["reserve"] != 3 || st.Total != 9 {
			t.Errorf("states %v, total %d: want 6 queued, 3 in the reserve", st.States, st.Total)
		}
		for _, d := range st.Depths {
			if want := map[int][2]int64{1: {6, 2}, 2: {0, 1}}[d.Depth]; d.Queued != want[0] || d.Reserve != want[1] {
				t.Errorf("depth %d: %d queued, %d in the reserve, want %v", d.Depth, d.Queued, d.Reserve, want)
			}
		}
		if got := cState(t, s, "http://c.cn/r1"); got != "reserve" {
			t.Errorf("state of a reserve URL %q", got)
		}
		// The per-host bound leaves three a.cn URLs queued: the reserve waits.
		got := lease(t, s, LeaseRequest{N: 10, PerHost: 2, Reserve: true})
		if fmt.Sprint(got) != "[http://a.cn/0 http://a.cn/1 http://b.cn/1]" {
			t.Fatalf("first lease %v", got)
		}
		got = lease(t, s, LeaseRequest{N: 10, PerHost: 2, Reserve: true})
		if fmt.Sprint(got) != "[http://a.cn/2 http://a.cn/3]" {
			t.Fatalf("second lease %v", got)
		}
		// First contact holds a.cn (nothing of it came back) to its leases.
		if got = lease(t, s, LeaseRequest{N: 10, Reserve: true, FirstContact: true}); len(got) != 0 {
			t.Fatalf("leased %v while a.cn/4 is queued", got)
		}
		got = lease(t, s, LeaseRequest{N: 10, Reserve: true})
		if fmt.Sprint(got) != "[http://a.cn/4]" {
			t.Fatalf("third lease %v", got)
		}
		// Nothing else queued, but its leases run: their pages may bring
		// better links.
		if got = lease(t, s, LeaseRequest{N: 10, Reserve: true}); len(got) != 0 {
			t.Fatalf("leased %v while other URLs are out", got)
		}
		cDone(t, s, "http://a.cn/0", "http://a.cn/1", "http://a.cn/2", "http://a.cn/3", "http://a.cn/4")
		if got = lease(t, s, LeaseRequest{N: 10, Reserve: true}); len(got) != 0 {
			t.Fatalf("leased %v while b.cn/1 is out", got)
		}
		cDone(t, s, "http://b.cn/1")
		if c := cCounts(t, s); c.Queued || c.Leased || !c.Reserve {
			t.Fatalf("counts %+v, want only the reserve", c)
		}
		if got = lease(t, s, LeaseRequest{N: 10}); len(got) != 0 {
			t.Fatalf("leased %v without Reserve", got)
		}
		// Now the reserve, best first, with the per-host bound.
		got = lease(t, s, LeaseRequest{N: 10, PerHost: 1, Reserve: true})
		if fmt.Sprint(got) != "[http://c.cn/r1 http://a.cn/r]" {
			t.Fatalf("reserve lease %v", got)
		}
		// A lease of the reserve does not hold the reserve back.
		got = lease(t, s, LeaseRequest{N: 10, Reserve: true})
		if fmt.Sprint(got) != "[http://c.cn/r2]" {
			t.Fatalf("second reserve lease %v", got)
		}
		cDone(t, s, "http://c.cn/r1", "http://a.cn/r", "http://c.cn/r2")
		st = cStats(t, s)
		if st.Fetched != 9 || st.FetchedReserve != 3 || st.States["reserve"] != 0 || st.States["done"] != 9 {
			t.Errorf("stats %+v: want 9 fetched, 3 of them from the reserve", st)
		}
		if c := cCounts(t, s); c.Queued || c.Leased || c.Reserve {
			t.Errorf("counts %+v, want nothing left", c)
		}
	})
}

// TestStoreReserveKeptThroughStates: a reserve URL whose lease runs out,
// whose host is parked and let up, or that waits for a retry, comes back
// to the reserve; a kept link to it takes it out, in any of those states;
// a pruned link to a queued URL leaves it queued.
func TestStoreReserveKeptThroughStates(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		p := fastPolicy()
		p.HostBackoff, p.HostMaxBackoff, p.Backoff = time.Hour, time.Hour, time.Millisecond
		cQueue(t, s, rEntry("http://a.cn/1", "a.cn", 0.1, 1), rEntry("http://a.cn/2", "a.cn", 0.1, 1),
			rEntry("http://w.cn/1", "w.cn", 0.1, 1), entry("http://q.cn/1", "q.cn", 0.5, 1))
		// A pruned sighting of a queued URL changes nothing.
		if res := cQueue(t, s, rEntry("http://q.cn/1", "q.cn", 0.1, 1)); res.Known != 1 {
			t.Fatalf("applied %+v, want it known", res)
		}
		if got := cState(t, s, "http://q.cn/1"); got != "queued" {
			t.Fatalf("q.cn/1 is %s", got)
		}
		cDone(t, s, lease(t, s, LeaseRequest{N: 10})...)
		// An expired lease of the reserve comes back to the reserve.
		if got := lease(t, s, LeaseRequest{N: 1, Reserve: true, For: 30 * time.Millisecond}); fmt.Sprint(got) != "[http://a.cn/1]" {
			t.Fatalf("leased %v", got)
		}
		time.Sleep(60 * time.Millisecond)
		if got := lease(t, s, LeaseRequest{N: 1}); len(got) != 0 { // reclaims it
			t.Fatalf("leased %v without Reserve", got)
		}
		if got := cState(t, s, "http://a.cn/1"); got != "reserve" {
			t.Fatalf("after its lease ran out a.cn/1 is %s", got)
		}
		// A host found down parks its reserve URLs; let up, they are the
		// reserve's again.
		got := lease(t, s, LeaseRequest{N: 10, PerHost: 1, Reserve: true})
		if fmt.Sprint(got) != "[http://a.cn/1 http://w.cn/1]" {
			t.Fatalf("leased %v", got)
		}
		cReport(t, s, p, Outcome{URL: "http://a.cn/1", Error: "dns: no such host"},
			Outcome{URL: "http://w.cn/1", Error: "http 503"})
		if a, b, w := cState(t, s, "http://a.cn/1"), cState(t, s, "http://a.cn/2"), cState(t, s, "http://w.cn/1"); a != "parked" || b != "parked" || w != "waiting" {
			t.Fatalf("states %s %s %s, want parked, parked, waiting", a, b, w)
		}
		// A kept link takes a.cn/2 out of the reserve while parked.
		if res := cQueue(t, s, entry("http://a.cn/2", "a.cn", 0.4, 2)); res.Raised != 1 {
			t.Fatalf("applied %+v, want a.cn/2 out of the reserve", res)
		}
		rq, err := cAdmin(t, s).Requeue(context.Background(), RequeueFilter{Kind: "dns"})
		if err != nil || rq.Hosts != 1 || rq.Held != 2 {
			t.Fatalf("requeue %+v, %v", rq, err)
		}
		time.Sleep(5 * time.Millisecond) // w.cn/1's retry is due
		if a, b, w := cState(t, s, "http://a.cn/1"), cState(t, s, "http://a.cn/2"), cState(t, s, "http://w.cn/1"); a != "reserve" || b != "queued" || w != "waiting" {
			t.Fatalf("states %s %s %s, want reserve, queued, waiting", a, b, w)
		}
		if got := lease(t, s, LeaseRequest{N: 10, Reserve: true}); fmt.Sprint(got) != "[http://a.cn/2]" {
			t.Fatalf("leased %v, want a.cn/2 alone (w.cn/1 woke into the reserve)", got)
		}
		if got := cState(t, s, "http://w.cn/1"); got != "reserve" {
			t.Fatalf("w.cn/1 woke as %s", got)
		}
		// A kept link to a leased reserve URL: its lease now holds the
		// reserve back.
		cDone(t, s, "http://a.cn/2")
		if got := lease(t, s, LeaseRequest{N: 1, Reserve: true}); fmt.Sprint(got) != "[http://a.cn/1]" {
			t.Fatalf("leased %v", got)
		}
		cQueue(t, s, entry("http://a.cn/1", "a.cn", 0.3, 2))
		if got := lease(t, s, LeaseRequest{N: 1, Reserve: true}); len(got) != 0 {
			t.Fatalf("leased %v while a.cn/1, out of the reserve now, is out", got)
		}
		cDone(t, s, "http://a.cn/1")
		if got := lease(t, s, LeaseRequest{N: 1, Reserve: true}); fmt.Sprint(got) != "[http://w.cn/1]" {
			t.Fatalf("leased %v", got)
		}
		cDone(t, s, "http://w.cn/1")
		// a.cn/1 left the reserve before it was fetched; w.cn/1 did not.
		if st := cStats(t, s); st.FetchedReserve != 1 {
			t.Errorf("fetched from the reserve %d, want 1 (w.cn/1)", st.FetchedReserve)
		}
	})
}

// TestStoreReservePeekAndRelease: seed peek lists the reserve last and
// marks it; released leases of the reserve go back to it.
func TestStoreReservePeekAndRelease(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		cQueue(t, s, rEntry("http://a.cn/r", "a.cn", 0.19, 0), entry("http://b.cn/1", "b.cn", 0.05, 3),
			rEntry("http://c.cn/r", "c.cn", 0.19, 0))
		got, err := cAdmin(t, s).Peek(context.Background(), 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 || got[0].URL != "http://b.cn/1" || got[0].Reserve || got[1].URL != "http://a.cn/r" || !got[1].Reserve || !got[2].Reserve {
			t.Fatalf("peek %+v", got)
		}
		cDone(t, s, lease(t, s, LeaseRequest{N: 10})...)
		if got := lease(t, s, LeaseRequest{N: 10, Reserve: true}); len(got) != 2 {
			t.Fatalf("leased %v", got)
		}
		if n, err := s.Release(context.Background()); err != nil || n != 2 {
			t.Fatalf("released %d, %v", n, err)
		}
		if c := cCounts(t, s); c.Queued || c.Leased || !c.Reserve {
			t.Fatalf("counts after release %+v", c)
		}
		if st := cStats(t, s); st.States["reserve"] != 2 || st.States["leased"] != 0 {
			t.Fatalf("states after release %v", st.States)
		}
	})
}
