package frontier

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

func openTest(t *testing.T) (*SQLiteStore, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crawl.db")
	s, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func entry(u, host string, prio float64, depth int) Entry {
	e := Entry{URL: u, Host: host}
	e.Priority, e.Depth, e.Site = prio, depth, host
	return e
}

func lease(t *testing.T, s Store, r LeaseRequest) []string {
	t.Helper()
	if r.For == 0 {
		r.For = time.Minute
	}
	us, err := s.Lease(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, u := range us {
		out = append(out, u.URL)
	}
	return out
}

// Two handles on one file, as seed next and seed add in one pipe: every
// URL queued is leased exactly once.
// Two URLs with one hash are told apart by their text.
func TestHashCollision(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if _, err := s.Apply(ctx, Batch{Queue: []Entry{entry("http://a.cn/", "a.cn", 0.5, 0)}}); err != nil {
		t.Fatal(err)
	}
	// Plant a done URL that shares http://b.cn/'s hash.
	if _, err := s.DB().Exec(`INSERT INTO urls (h, url, host_id, state, priority, depth, added_at, score) VALUES (?, 'http://impostor.cn/', 1, 2, 0, 0, 0, 0.9)`, urlHash("http://b.cn/")); err != nil {
		t.Fatal(err)
	}
	res, err := s.Apply(ctx, Batch{Queue: []Entry{entry("http://b.cn/", "b.cn", 0.9, 0)}})
	if err != nil || res.Queued != 1 {
		t.Fatalf("queue colliding URL: %+v %v, want it queued, not taken for the impostor", res, err)
	}
	res, err = s.Apply(ctx, Batch{Queue: []Entry{entry("http://b.cn/", "b.cn", 0.95, 0)}})
	if err != nil || res.Raised != 1 {
		t.Fatalf("colliding URL seen again: %+v %v, want it found and raised", res, err)
	}
	got := lease(t, s, LeaseRequest{N: 5})
	if fmt.Sprint(got) != "[http://b.cn/ http://a.cn/]" {
		t.Fatalf("leased %v", got)
	}
	m, err := s.PageScores(ctx, []string{"http://b.cn/"})
	if err != nil || len(m) != 0 {
		t.Errorf("page scores %v %v: b.cn is not fetched (the impostor is)", m, err)
	}
	if _, err := s.Apply(ctx, Batch{Done: []Outcome{{URL: "http://b.cn/", Host: "b.cn", Scored: true, Score: 0.4}}}); err != nil {
		t.Fatal(err)
	}
	m, err = s.PageScores(ctx, []string{"http://b.cn/"})
	if err != nil || m["http://b.cn/"] != 0.4 {
		t.Errorf("page scores %v %v", m, err)
	}
	var impostor float64
	if err := s.DB().QueryRow(`SELECT score FROM urls WHERE url = 'http://impostor.cn/'`).Scan(&impostor); err != nil || impostor != 0.9 {
		t.Errorf("the impostor was changed: %v %v", impostor, err)
	}
}
