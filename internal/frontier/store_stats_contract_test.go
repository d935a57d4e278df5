package frontier

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// TestStatsQuery: Stats makes the lists StatsQuery asks for and no other;
// the counts are the same whatever it asks (seed stats --brief reads the
// same figures as seed stats), on every store.
func TestStatsQuery(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		ctx := context.Background()
		p := fastPolicy()
		p.HostTries = 0
		p.HostBackoff, p.HostMaxBackoff = time.Hour, time.Hour // down.cn stays parked
		res, err := s.Apply(ctx, Batch{MaxPerHost: 3, Queue: []Entry{
			entry("http://a.cn/", "a.cn", 0.9, 0), entry("http://a.cn/1", "a.cn", 0.8, 1), entry("http://a.cn/2", "a.cn", 0.7, 1),
			entry("http://a.cn/3", "a.cn", 0.6, 1), // over --max-per-host: refused
			entry("http://b.cn/", "b.cn", 0.5, 0), entry("http://c.cn/", "c.cn", 0.4, 0),
			entry("http://down.cn/", "down.cn", 0.3, 0),
		}, Edges: []Edge{{From: "http://a.cn/", To: "http://a.cn/1", Priority: 0.4}}})
		if err != nil || res.Refused != 1 {
			t.Fatalf("applied %+v, %v", res, err)
		}
		if got := lease(t, s, LeaseRequest{N: 10}); len(got) != 6 {
			t.Fatalf("leased %v, want the 6 URLs queued", got)
		}
		cReport(t, s, p,
			Outcome{URL: "http://a.cn/", Status: 200, Scored: true, Score: 0.9, Relevant: true},
			Outcome{URL: "http://a.cn/1", Status: 404, Error: "http 404"},
			Outcome{URL: "http://b.cn/", Status: 404, Error: "http 404"},
			Outcome{URL: "http://c.cn/", Status: 403, Error: "http 403"},
			Outcome{URL: "http://down.cn/", Error: "dns: lookup down.cn: no such host"})
		cQueue(t, s, entry("http://down.cn/1", "down.cn", 0.2, 1), entry("http://b.cn/1", "b.cn", 0.2, 1)) // parked, queued

		full, err := s.Stats(ctx, StatsQuery{TopHosts: 10, ErrorKinds: true})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(full.Errors) != "map[http 403:1 http 404:2]" || len(full.TopHosts) != 4 || full.TopHosts[0].Host != "a.cn" {
			t.Fatalf("full stats: errors %v, top hosts %+v", full.Errors, full.TopHosts)
		}
		if full.States["failed"] != 3 || full.States["parked"] != 2 || full.States["queued"] != 1 || len(full.ParkedHosts) != 1 || full.Refused[GuardMaxPerHost] != 1 || full.Edges != 1 {
			t.Fatalf("full stats: states %v, parked hosts %+v, refused %v, edges %d", full.States, full.ParkedHosts, full.Refused, full.Edges)
		}
		for _, q := range []StatsQuery{{}, {TopHosts: 2}, {ErrorKinds: true}} {
			t.Run(fmt.Sprintf("%+v", q), func(t *testing.T) {
				st, err := s.Stats(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if len(st.TopHosts) != min(q.TopHosts, len(full.TopHosts)) || (st.Errors != nil) != q.ErrorKinds {
					t.Errorf("top hosts %+v, errors %v", st.TopHosts, st.Errors)
				}
				if q.TopHosts > 0 && !reflect.DeepEqual(st.TopHosts, full.TopHosts[:q.TopHosts]) {
					t.Errorf("top hosts %+v, want the first %d of %+v", st.TopHosts, q.TopHosts, full.TopHosts)
				}
				if q.ErrorKinds && !reflect.DeepEqual(st.Errors, full.Errors) {
					t.Errorf("errors %v, want %v", st.Errors, full.Errors)
				}
				counts, want := *st, *full
				counts.TopHosts, counts.Errors, want.TopHosts, want.Errors = nil, nil, nil, nil
				if !reflect.DeepEqual(counts, want) {
					t.Errorf("counts differ from a full query's:\n%+v\nwant\n%+v", counts, want)
				}
			})
		}
	})
}
