package fetcher

import (
	"context"
	"net/http/httptrace"
	"sync"
	"time"
)

// gate spaces the moments requests to one host go out on the wire. The
// scheduler already spaces dispatches by the host's delay, but a request
// that must dial a new connection goes out later than one reusing a
// connection, so two dispatches a delay apart can reach the server
// closer together. The gate is passed when the connection is ready (just
// before the request is written), which is what the server sees.
type gate struct {
	mu   sync.Mutex
	last time.Time
}

// pass waits until delay has gone by since the previous request passed.
func (g *gate) pass(ctx context.Context, delay time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if wait := time.Until(g.last.Add(delay)); wait > 0 && !g.last.IsZero() {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
	g.last = time.Now()
}

// withGate makes the first connection of the request pass g.
func withGate(ctx context.Context, g *gate, delay time.Duration) context.Context {
	if g == nil || delay <= 0 {
		return ctx
	}
	var once sync.Once
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(httptrace.GotConnInfo) { once.Do(func() { g.pass(ctx, delay) }) },
	})
}
