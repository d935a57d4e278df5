package frontier

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"
)

// outageWatch rides out a frontier server's outage (the server
// restarting, a network cut): an operation whose connection failed is
// run again, every 100–500 ms, until the server answers or wait has
// passed since the outage began, saying so in one line when it begins and
// one when it ends. Both server stores use it (?outage_wait=): the
// PostgreSQL store around its statements and transactions (pg_outage.go),
// the Redis store in a go-redis hook (redis_outage.go).
type outageWatch struct {
	server string // what the lines name: "postgres at HOST:PORT"
	wait   time.Duration
	log    io.Writer
	// lost tells a failure of the connection from one of the operation.
	lost func(error) bool
	// gaveUp is the error an outage longer than wait ends with.
	gaveUp error

	mu    sync.Mutex
	since time.Time // zero while the server answers
}

// run runs op until it succeeds, fails otherwise than by a lost
// connection, or the outage has lasted wait.
func (w *outageWatch) run(ctx context.Context, op func() error) error {
	pause := 100 * time.Millisecond
	for {
		err := op()
		if !w.lost(err) {
			w.back()
			return err
		}
		since := w.down(err)
		if d := time.Since(since); d >= w.wait {
			return fmt.Errorf("%w: %s for %v (outage_wait=%v): %v", w.gaveUp, w.server, d.Round(time.Second), w.wait, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 500*time.Millisecond)
	}
}

// down records an outage and says so when it begins; it returns when.
func (w *outageWatch) down(err error) time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.since.IsZero() {
		w.since = time.Now()
		fmt.Fprintf(w.log, "frontier: %s unreachable (%v); waiting up to %v for it (outage_wait)\n", w.server, err, w.wait)
	}
	return w.since
}

// back ends an outage, saying so.
func (w *outageWatch) back() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.since.IsZero() {
		fmt.Fprintf(w.log, "frontier: %s is back after %v\n", w.server, time.Since(w.since).Round(100*time.Millisecond))
		w.since = time.Time{}
	}
}

// parseOutageWait reads ?outage_wait= (def when empty).
func parseOutageWait(v string, def time.Duration) (time.Duration, error) {
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("outage_wait=%s: not a duration (30s, 2m)", v)
	}
	return d, nil
}
