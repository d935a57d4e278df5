package frontier

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli/clitest"
)

// TestPostgresRidesOutAnOutage: a crawl step (lease, then apply the
// outcomes and links) during a PostgreSQL outage — a loopback proxy in
// front of the server, cut — waits for the server (outage_wait), says so
// in one line when the outage begins and one when it ends, and goes on
// when it is back; an outage longer than the wait fails the step with
// ErrPostgresOutage.
func TestPostgresRidesOutAnOutage(t *testing.T) {
	_, dsn := openTestPostgres(t) // skips without a server; its cleanup drops the schema
	u, _ := url.Parse(dsn)
	p := newCutProxy(t, u.Host)
	u.Host = p.ln.Addr().String()
	q := u.Query()
	q.Set("outage_wait", "6s")
	u.RawQuery = q.Encode()
	ctx := context.Background()
	s, err := OpenPostgres(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var log clitest.SyncBuffer
	s.outage.log = &log
	cQueue(t, s, entry("http://a.cn/1", "a.cn", 0.9, 0), entry("http://b.cn/1", "b.cn", 0.8, 0), entry("http://c.cn/1", "c.cn", 0.7, 0))

	step := func() error {
		us, err := s.Lease(ctx, LeaseRequest{N: 1, For: time.Minute})
		if err != nil {
			return err
		}
		if len(us) != 1 {
			return errors.New("nothing leased")
		}
		e := entry(us[0].URL+"/next", HostOf(us[0].URL), 0.5, 1)
		e.Parent = us[0].URL
		_, err = s.Apply(ctx, Batch{Done: []Outcome{{URL: us[0].URL, Host: HostOf(us[0].URL), Status: 200}}, Queue: []Entry{e}})
		return err
	}
	p.cut()
	go func() { time.Sleep(1500 * time.Millisecond); p.down.Store(false) }()
	start := time.Now()
	if err := step(); err != nil {
		t.Fatalf("a 1.5s outage with outage_wait=6s: %v", err)
	}
	if d := time.Since(start); d < time.Second {
		t.Fatalf("the step took %v: no outage seen", d)
	}
	t.Logf("stderr:\n%s", log.String())
	if got := log.String(); strings.Count(got, "unreachable") != 1 || strings.Count(got, "is back after") != 1 {
		t.Errorf("want one line as the outage begins and one as it ends, got:\n%s", got)
	}
	if st := cStats(t, s); st.Fetched != 1 || st.Total != 4 {
		t.Errorf("after the outage: %d fetched of %d URLs, want 1 of 4", st.Fetched, st.Total)
	}

	p.cut() // for good
	start = time.Now()
	err = step()
	if !errors.Is(err, ErrPostgresOutage) || !strings.Contains(err.Error(), "outage_wait=6s") {
		t.Fatalf("a lasting outage: %v", err)
	}
	if d := time.Since(start); d < 6*time.Second || d > 12*time.Second {
		t.Errorf("gave up after %v, want about 6s", d)
	}
}
