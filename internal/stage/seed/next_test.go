package seed

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// Next from Go leases the best URLs as url records, at most PerHost per
// host; Peek and Stats show the frontier without changing it.
func TestNextPeekStats(t *testing.T) {
	s := openStore(t)
	in := "http://a.example/1\nhttp://a.example/2\nhttp://a.example/3\n{\"url\":\"http://b.example/\",\"priority\":0.9}\n"
	if _, err := Add(context.Background(), strings.NewReader(in), s, AddOptions{Ingest: frontier.IngestOptions{SeedPriority: 0.5}}); err != nil {
		t.Fatal(err)
	}
	var peek bytes.Buffer
	if err := Peek(context.Background(), s, &peek, 1, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(peek.String(), "0.9000") || !strings.Contains(peek.String(), "http://b.example/") {
		t.Errorf("peek:\n%s", peek.String())
	}
	var out, log bytes.Buffer
	err := Next(context.Background(), s, &out, cli.NewLogger("seed", &log, false),
		NextOptions{N: 10, PerHost: 2, Lease: time.Minute, Poll: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `"url":"http://b.example/"`) || !strings.Contains(log.String(), "leased 3 URLs") {
		t.Errorf("leased:\n%s\nlog: %s", out.String(), log.String())
	}
	var stats bytes.Buffer
	if err := Stats(context.Background(), s, &stats, frontier.StatsQuery{TopHosts: 5, ErrorKinds: true}, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"URLs  4", "queued  1", "leased  3"} {
		if !strings.Contains(strings.Join(strings.Fields(stats.String()), "  "), want) {
			t.Errorf("stats lack %q:\n%s", want, stats.String())
		}
	}
}

// followLoop runs Next with o over a frontier whose seed page came back
// with one kept link and four pruned ones (in the reserve), and returns the
// URLs leased in order and the log: a stand-in for the rest of the loop
// records each leased URL done, with no links.
func followLoop(t *testing.T, o NextOptions) ([]string, string) {
	t.Helper()
	s := openStore(t)
	// A follower that waits for a reserve it never leases would wait for
	// ever: bound it.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	seedPage := `{"url":"http://a.example/","status":200,"score":0.1,"relevant":false,"links":[` +
		`{"url":"http://a.example/kept","priority":0.05},` +
		`{"url":"http://a.example/r1","priority":0.19,"pruned":true},{"url":"http://b.example/r2","priority":0.18,"pruned":true},` +
		`{"url":"http://a.example/r3","priority":0.1,"pruned":true},{"url":"http://c.example/r4","priority":0.01,"pruned":true}]}` + "\n"
	if _, err := Add(ctx, strings.NewReader(seedPage), s, AddOptions{}); err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	var leased []string
	done := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			var u record.URL
			if err := json.Unmarshal(sc.Bytes(), &u); err != nil {
				done <- err
				return
			}
			leased = append(leased, u.URL)
			if _, err := s.Apply(ctx, frontier.Batch{Done: []frontier.Outcome{{URL: u.URL, Host: frontier.HostOf(u.URL), Status: 200}}}); err != nil {
				done <- err
				return
			}
		}
		done <- sc.Err()
	}()
	var log bytes.Buffer
	o.N, o.Lease, o.Poll, o.Follow, o.InFlight = 10, time.Minute, time.Millisecond, true, 10
	err := Next(ctx, s, pw, cli.NewLogger("seed", &log, false), o)
	pw.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return leased, log.String()
}

// TestNextFollowReserve: a follower with a page budget goes on into the
// reserve, best first, after every other URL; one without a budget ends
// where the URLs above the link threshold do, and says the reserve holds
// more; so does one with a budget and Reserve off (--reserve=false).
func TestNextFollowReserve(t *testing.T) {
	leased, log := followLoop(t, NextOptions{MaxPages: 4, Reserve: true})
	if fmt.Sprint(leased) != "[http://a.example/kept http://a.example/r1 http://b.example/r2 http://a.example/r3]" {
		t.Errorf("with a budget: leased %v\n%s", leased, log)
	}
	for _, o := range []NextOptions{{}, {MaxPages: 4}} {
		leased, log = followLoop(t, o)
		if fmt.Sprint(leased) != "[http://a.example/kept]" || !strings.Contains(log, "the reserve holds URLs") {
			t.Errorf("without Reserve (max pages %d): leased %v\n%s", o.MaxPages, leased, log)
		}
	}
}

// An interrupted follower lets go of the URLs it leased, so the next run
// leases them at once instead of after --lease; another run's leases
// found with nothing else queued are named, with how to release them.
func TestNextInterruptedReleasesItsLeases(t *testing.T) {
	s := openStore(t)
	var in strings.Builder
	for i := range 6 {
		fmt.Fprintf(&in, "http://h%d.example/\n", i)
	}
	if _, err := Add(context.Background(), strings.NewReader(in.String()), s, AddOptions{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	var log bytes.Buffer
	go func() {
		done <- Next(ctx, s, pw, cli.NewLogger("seed", &log, false),
			NextOptions{N: 10, InFlight: 3, Lease: time.Hour, Poll: time.Millisecond, Follow: true})
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	for range 3 { // the window: three leased, none back
		if !sc.Scan() {
			t.Fatalf("the follower ended early: %v", sc.Err())
		}
	}
	cancel()
	go io.Copy(io.Discard, pr)
	<-done
	if !strings.Contains(log.String(), "released the 3 URLs") {
		t.Errorf("log: %s", log.String())
	}
	c, err := s.Counts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c.Leased {
		t.Fatalf("leases still running after the interrupted run: %+v", c)
	}
	us, err := s.Lease(context.Background(), frontier.LeaseRequest{N: 10, For: time.Hour, Owner: 7})
	if err != nil || len(us) != 6 {
		t.Fatalf("a new run leased %d URLs (%v), want all 6", len(us), err)
	}
	// A second run finds only the first's (owner 7's) leases: it says so.
	log.Reset()
	ctx2, cancel2 := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel2()
	_ = Next(ctx2, s, io.Discard, cli.NewLogger("seed", &log, false),
		NextOptions{N: 10, InFlight: 3, Lease: time.Hour, Poll: 10 * time.Millisecond, Follow: true})
	if !strings.Contains(log.String(), "6 URLs are leased by another run") || !strings.Contains(log.String(), "--release") {
		t.Errorf("a run waiting for another's leases says: %s", log.String())
	}
}
