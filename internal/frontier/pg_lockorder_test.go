package frontier

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// The PostgreSQL store takes the rows a statement writes in one order (id
// for URLs), so that workers side by side wait for one another but never
// deadlock (pgUpdateURLs, pgApply.lockURLs).

// openPgWorkers opens n stores on one crawl of its own: n workers.
func openPgWorkers(t *testing.T, n int) []*PostgresStore {
	t.Helper()
	a, dsn := openTestPostgres(t)
	workers := []*PostgresStore{a}
	for range n - 1 {
		s, err := OpenPostgres(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		workers = append(workers, s)
	}
	return workers
}

// checkNoDeadlock fails the test when PostgreSQL broke a transaction of
// the workers as deadlocked (inTx ran it again).
func checkNoDeadlock(t *testing.T, workers []*PostgresStore) {
	t.Helper()
	var deadlocks int64
	for _, s := range workers {
		deadlocks += s.deadlocks.Load()
	}
	if deadlocks > 0 {
		t.Errorf("%d transactions broken as deadlocked, want none", deadlocks)
	}
}

// TestPostgresNoDeadlock: workers raise the same known URLs at once, in
// opposite orders, while another renews its leases and a lease call runs;
// every transaction takes its URL rows in one order (id), so PostgreSQL
// breaks none as deadlocked. Written in the batch's order, the rows were
// taken in two orders and the deadlock check broke a transaction after a
// second's wait, over and over.
func TestPostgresNoDeadlock(t *testing.T) {
	ctx := context.Background()
	workers := openPgWorkers(t, 3)
	a := workers[0]
	const n = 200
	var es []Entry
	for i := range n {
		host := fmt.Sprintf("h%d.example", i%7)
		es = append(es, entry(fmt.Sprintf("http://%s/%d", host, i), host, 0.1, 3))
	}
	cQueue(t, a, es...)
	held := lease(t, a, LeaseRequest{N: n / 2, Owner: 9, For: time.Hour})
	if len(held) != n/2 {
		t.Fatalf("leased %d, want %d", len(held), n/2)
	}
	const rounds = 6
	errs := make(chan error, 3)
	for w, s := range workers[1:] {
		go func() {
			for r := range rounds {
				batch := make([]Entry, n)
				for i, e := range es {
					e.Priority, e.Depth = 0.2+float64(r)/100, 2
					if w == 1 {
						batch[n-1-i] = e
					} else {
						batch[i] = e
					}
				}
				if _, err := s.Apply(ctx, Batch{Queue: batch}); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	go func() {
		for range rounds * 4 {
			if _, err := a.Renew(ctx, 9, time.Now().Add(2*time.Hour), 24*time.Hour); err != nil {
				errs <- err
				return
			}
			if _, err := a.Lease(ctx, LeaseRequest{N: 3, Owner: 8, For: time.Hour}); err != nil {
				errs <- err
				return
			}
		}
		errs <- nil
	}()
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	checkNoDeadlock(t, workers)
}

// TestPostgresParkNoDeadlock: one worker parks a host, brings it back, and
// gives it up and requeues it, over and over, while two others lease its
// URLs and a third raises them. Parking, unparking, giving up and
// requeueing each write many of the host's URLs in one statement; they
// take those rows in id order, as the lease's mark and an Apply's lock do,
// so PostgreSQL breaks none of the transactions as deadlocked. The host's
// rows are first rewritten in reverse id order, so that the order the
// server meets them in (their place in the table) is not the id order:
// taken in that order, the rows deadlocked in every run.
func TestPostgresParkNoDeadlock(t *testing.T) {
	ctx := context.Background()
	workers := openPgWorkers(t, 4)
	a := workers[0]
	const host, n, rounds = "busy.example", 1500, 6
	var es []Entry
	for i := range n {
		es = append(es, entry(fmt.Sprintf("http://%s/%d", host, i), host, 0.1, 1))
	}
	cQueue(t, a, es...)
	// The URLs the parking worker reports for: leased by it for the whole
	// test, so no lease wants them.
	var held []Entry
	for i := range rounds * len(parkRound{}) {
		held = append(held, entry(fmt.Sprintf("http://%s/held/%d", host, i), host, 0.9, 1))
	}
	cQueue(t, a, held...)
	got := lease(t, a, LeaseRequest{N: len(held), Owner: 1, For: time.Hour})
	if len(got) != len(held) {
		t.Fatalf("leased %d URLs to report for, want %d", len(got), len(held))
	}
	// Raise every URL in reverse order: each row's new version goes to the
	// end of the table, so the table holds them in reverse id order.
	reverse := make([]Entry, n)
	for i, e := range es {
		e.Priority = 0.2
		reverse[n-1-i] = e
	}
	if r := cQueue(t, a, reverse...); r.Raised != n {
		t.Fatalf("raised %d, want %d", r.Raised, n)
	}

	p := &RetryPolicy{HostBackoff: time.Hour, HostMaxBackoff: time.Hour, HostTries: 1}
	done := make(chan struct{})
	errs := make(chan error, len(workers))
	go func() {
		defer close(done)
		errs <- parkOverAndOver(ctx, a, host, got, p)
	}()
	for w, s := range workers[1:3] {
		go func() {
			for {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				us, err := s.Lease(ctx, LeaseRequest{N: 50, Owner: int64(w + 2), For: time.Hour})
				if err != nil {
					errs <- err
					return
				}
				if len(us) == 0 {
					time.Sleep(time.Millisecond)
					continue
				}
				// Back to the queue as never tried, for the next lease.
				var back Batch
				for _, u := range us {
					back.Done = append(back.Done, Outcome{URL: u.URL, Host: host, Error: KindCanceled})
				}
				if _, err := s.Apply(ctx, back); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	go func() {
		s := workers[3]
		for r := 0; ; r++ {
			select {
			case <-done:
				errs <- nil
				return
			default:
			}
			batch := make([]Entry, 0, 200)
			for i := range 200 {
				e := es[(r*97+i*7)%n]
				e.Priority = 0.3 + float64(r%500)/1000
				batch = append(batch, e)
			}
			if _, err := s.Apply(ctx, Batch{Queue: batch}); err != nil {
				errs <- err
				return
			}
		}
	}()
	for range workers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	checkNoDeadlock(t, workers)
}

// parkRound is the URLs one round of parkOverAndOver reports for.
type parkRound [4]string

// parkOverAndOver parks host and brings it back, then parks it, gives it
// up and requeues it, once for every four URLs of held (URLs of host that
// s holds leased, so that no other worker wants them).
func parkOverAndOver(ctx context.Context, s *PostgresStore, host string, held []string, p *RetryPolicy) error {
	report := func(u, msg string) error {
		_, err := s.Apply(ctx, Batch{Done: []Outcome{{URL: u, Host: host, Error: msg}}, Retry: p})
		return err
	}
	const down = "dns: no such host"
	for len(held) >= len(parkRound{}) {
		var r parkRound
		copy(r[:], held)
		held = held[len(r):]
		if err := report(r[0], down); err != nil { // parked
			return err
		}
		if err := report(r[1], ""); err != nil { // back up
			return err
		}
		if err := report(r[2], down); err != nil { // parked again
			return err
		}
		// r[3] is the host's probe, as a lease's wake would make it (none
		// does here: s holds URLs of the host leased all along).
		if _, err := s.pool.Exec(ctx, `UPDATE host_state SET probe_id = (SELECT id FROM urls WHERE k = $1)
			WHERE host_id = (SELECT id FROM hosts WHERE host = $2)`, pgKey(r[3]), host); err != nil {
			return err
		}
		if err := report(r[3], down); err != nil { // given up
			return err
		}
		res, err := s.Requeue(ctx, RequeueFilter{Host: host})
		if err != nil {
			return err
		}
		if res.Hosts != 1 || res.URLs == 0 {
			return fmt.Errorf("requeue after the give-up: %+v, want the host and its URLs", res)
		}
	}
	return nil
}
