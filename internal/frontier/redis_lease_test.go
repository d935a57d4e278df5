package frontier

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestLoadFactsRoom: the facts the Redis lease plan reads of a host are
// its HostLoad (running leases, the asking worker's, the workers holding
// it, who leased it last and when, whether a page came back), and
// LeaseRequest.Room on them gives each host's room.
func TestLoadFactsRoom(t *testing.T) {
	ctx := context.Background()
	s, _ := openTestRedis(t)
	cQueue(t, s, entry("http://a.cn/1", "a.cn", 0.9, 0), entry("http://a.cn/2", "a.cn", 0.8, 0),
		entry("http://b.cn/1", "b.cn", 0.7, 0), entry("http://b.cn/2", "b.cn", 0.6, 0), entry("http://b.cn/3", "b.cn", 0.5, 0),
		entry("http://c.cn/1", "c.cn", 0.4, 0))
	gap := LeaseRequest{N: 1, PerHost: 1, HostGap: time.Hour}
	before := time.Now().UnixMilli()
	gap.Owner = 1
	if got := lease(t, s, gap); fmt.Sprint(got) != "[http://a.cn/1]" {
		t.Fatalf("worker 1 leased %v", got)
	}
	gap.Owner = 2
	if got := lease(t, s, gap); fmt.Sprint(got) != "[http://b.cn/1]" {
		t.Fatalf("worker 2 leased %v, want b.cn/1 (a.cn in its gap)", got)
	}
	cReport(t, s, nil, Outcome{URL: "http://b.cn/1"})
	if got := lease(t, s, gap); fmt.Sprint(got) != "[http://b.cn/2]" {
		t.Fatalf("worker 2 leased %v, want b.cn/2", got)
	}
	after := time.Now().UnixMilli()

	r := LeaseRequest{N: 5, Owner: 1, HostLimit: 1, HostGap: time.Hour, FirstContact: true}
	facts, err := s.loadLeaseFacts(ctx, r, after, 10, map[string]redisProbe{})
	if err != nil {
		t.Fatal(err)
	}
	loads := map[string]HostLoad{}
	var order []string
	for _, f := range facts.Hosts {
		loads[f.Host] = f.HostLoad()
		order = append(order, f.Host)
	}
	if !slices.Equal(order, []string{"a.cn", "b.cn", "c.cn"}) || facts.Tier != int(Queued) {
		t.Fatalf("facts of hosts %v in tier %d, want a.cn, b.cn, c.cn, best first, of the queue", order, facts.Tier)
	}
	for h, want := range map[string]HostLoad{
		"a.cn": {Running: 1, Mine: 1, Workers: 1, LastOwner: 1},
		"b.cn": {Running: 1, Workers: 1, Answered: true, LastOwner: 2},
		"c.cn": {},
	} {
		got := loads[h]
		if got.LastLease != 0 && (got.LastLease < before || got.LastLease > after) {
			t.Errorf("%s: last lease at %d, not in [%d, %d]", h, got.LastLease, before, after)
		}
		got.LastLease = 0
		if got != want {
			t.Errorf("%s: facts %+v, want %+v", h, got, want)
		}
	}
	// a.cn: first contact with one URL out; b.cn: held by another worker
	// at the host limit; c.cn: first contact, none out.
	for h, want := range map[string]int{"a.cn": 0, "b.cn": 0, "c.cn": 1} {
		if got := r.Room(loads[h], after); got != want {
			t.Errorf("%s: room %d, want %d", h, got, want)
		}
	}
}

// TestRedisLeasePlanComputedAgain: a host another worker leases between a
// lease's reading of its facts and its script is planned again on what
// holds then: under a host limit of one worker, the two workers share no
// host and no URL is leased twice.
func TestRedisLeasePlanComputedAgain(t *testing.T) {
	a, dsn := openTestRedis(t)
	b := openRedisAgain(t, dsn)
	cQueue(t, a, entry("http://x.cn/1", "x.cn", 0.9, 0), entry("http://x.cn/2", "x.cn", 0.8, 0), entry("http://x.cn/3", "x.cn", 0.7, 0),
		entry("http://y.cn/1", "y.cn", 0.6, 0), entry("http://y.cn/2", "y.cn", 0.5, 0))
	r := LeaseRequest{N: 2, PerHost: 2, HostLimit: 1}
	var gotB []string
	a.afterLeaseFacts = func() {
		rb := r
		rb.Owner = 2
		gotB = lease(t, b, rb)
	}
	r.Owner = 1
	gotA := lease(t, a, r)
	if fmt.Sprint(gotB) != "[http://x.cn/1 http://x.cn/2]" {
		t.Fatalf("worker 2 leased %v, want x.cn/1 and x.cn/2", gotB)
	}
	if fmt.Sprint(gotA) != "[http://y.cn/1 http://y.cn/2]" {
		t.Errorf("worker 1 leased %v after worker 2 took x.cn; want y.cn/1 and y.cn/2 (host limit 1)", gotA)
	}
}

// TestRedisLeaseReadsFurther: when the best hosts have no room, the lease
// reads the facts of hosts further down the queue and plans again.
func TestRedisLeaseReadsFurther(t *testing.T) {
	s, _ := openTestRedis(t)
	var held []Entry
	for i := 0; i < 60; i++ {
		held = append(held, entry(fmt.Sprintf("http://h%d.cn/1", i), fmt.Sprintf("h%d.cn", i), 0.9, 0),
			entry(fmt.Sprintf("http://h%d.cn/2", i), fmt.Sprintf("h%d.cn", i), 0.8, 0))
	}
	cQueue(t, s, held...)
	cQueue(t, s, entry("http://free.cn/1", "free.cn", 0.1, 0))
	if got := lease(t, s, LeaseRequest{N: 60, PerHost: 1, HostLimit: 1, Owner: 2}); len(got) != 60 {
		t.Fatalf("worker 2 leased %d URLs, want one of each of 60 hosts", len(got))
	}
	if got := lease(t, s, LeaseRequest{N: 1, HostLimit: 1, Owner: 1}); fmt.Sprint(got) != "[http://free.cn/1]" {
		t.Errorf("worker 1 leased %v, want free.cn/1 (the 60 better hosts are held by worker 2)", got)
	}
}

// TestRedisProbeTimedInGo: a parked host's probe goes out at its retry
// time with the next probe timed by ProbeSent, computed in Go, whether the
// lease reads host facts first (host limit) or not.
func TestRedisProbeTimedInGo(t *testing.T) {
	for _, r := range []LeaseRequest{{N: 10}, {N: 10, HostLimit: 1, Owner: 1}} {
		t.Run(fmt.Sprintf("facts-%v", r.needsFacts()), func(t *testing.T) {
			s, _ := openTestRedis(t)
			p := fastPolicy()
			p.HostTries = 0
			p.HostBackoff, p.HostMaxBackoff = 300*time.Millisecond, 300*time.Millisecond
			cQueue(t, s, entry("http://down.cn/1", "down.cn", 0.9, 0), entry("http://down.cn/2", "down.cn", 0.8, 0))
			if got := lease(t, s, LeaseRequest{N: 1}); fmt.Sprint(got) != "[http://down.cn/1]" {
				t.Fatalf("leased %v", got)
			}
			cReport(t, s, p, Outcome{URL: "http://down.cn/1", Error: "dns: lookup down.cn: no such host"})
			time.Sleep(time.Until(cParked0(t, s).NextRetry) + 20*time.Millisecond)
			before := time.Now().UnixMilli()
			if got := lease(t, s, r); fmt.Sprint(got) != "[http://down.cn/1]" {
				t.Fatalf("probe: leased %v", got)
			}
			after := time.Now().UnixMilli()
			// The wait is 300ms: ProbeSent holds the next probe a second.
			next := cParked0(t, s).NextRetry.UnixMilli()
			lo := ProbeSent(HostStatus{Mode: HostParked, Wait: 300}, before).RetryAt
			hi := ProbeSent(HostStatus{Mode: HostParked, Wait: 300}, after).RetryAt
			if next < lo || next > hi {
				t.Errorf("next probe at %d, want ProbeSent's, in [%d, %d]", next, lo, hi)
			}
		})
	}
}

// TestRedisLeasedNamesABadField: a leased URL's record with a field not
// of its kind (a depth or priority that is text, a URL or anchor that is
// a number) fails the lease with the field's name, rather than leasing
// the URL with a zero or "" in its place.
func TestRedisLeasedNamesABadField(t *testing.T) {
	record := func(field int, v any) scriptRow {
		r := newRow(recSeq)
		r.set(recURL, "https://a.example.cn/")
		r.set(recHost, "")
		r.set(recState, int(Leased))
		r.set(recPrio, 0.5)
		r.set(recDepth, 2)
		r.set(recParent, "")
		r.set(recAnchor, "an anchor")
		r.set(recInh, 0.25)
		r.set(recMeta, "")
		r.set(recSeq, 7)
		if field > 0 {
			r.set(field, v)
		}
		return r
	}
	answer := func(rec scriptRow) any {
		packed, err := appendMsgpackRows(nil, []scriptRow{rec})
		if err != nil {
			t.Fatal(err)
		}
		row := newRow(lrowWidth)
		row.set(lrowRecord, string(packed[1:])) // the one row, without the list's header
		row.set(lrowParent, "")
		row.set(lrowSite, "example.cn")
		return []any{[]any(row)}
	}
	got, err := redisLeased(answer(record(0, nil)))
	if err != nil || len(got) != 1 || got[0].Depth != 2 || got[0].Priority != 0.5 || got[0].Anchor != "an anchor" {
		t.Fatalf("a good record leased as %+v, %v", got, err)
	}
	for _, tt := range []struct {
		field int
		value any
		name  string
	}{
		{recDepth, "2", "DEPTH"},
		{recPrio, "0.5", "PRIO"},
		{recInh, "", "INH"},
		{recURL, 12, "URL"},
		{recAnchor, 3.5, "ANCHOR"},
		{recMeta, 0, "META"},
	} {
		got, err := redisLeased(answer(record(tt.field, tt.value)))
		if err == nil || !strings.Contains(err.Error(), "field "+tt.name+" ") {
			t.Errorf("field %s as %T: leased %+v, error %v; want an error naming %s", tt.name, tt.value, got, err, tt.name)
		}
	}
}
