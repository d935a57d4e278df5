package frontier

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// cutProxy forwards loopback TCP to a Redis server, and can cut it: every
// connection closed, new ones closed as they come, as when the server
// goes away.
type cutProxy struct {
	ln     net.Listener
	target string
	down   atomic.Bool
	mu     sync.Mutex
	conns  []net.Conn
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); p.cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if p.down.Load() {
				c.Close()
				continue
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, s)
			p.mu.Unlock()
			go func() { io.Copy(s, c); s.Close() }()
			go func() { io.Copy(c, s); c.Close() }()
		}
	}()
	return p
}

func (p *cutProxy) cut() {
	p.down.Store(true)
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// A command during a Redis outage waits for the server (outage_wait) and
// goes on when it is back; an outage longer than the wait fails the
// command with ErrRedisOutage.
func TestRedisRidesOutAnOutage(t *testing.T) {
	_, dsn := openTestRedis(t) // skips without a server
	u, _ := url.Parse(dsn)
	p := newCutProxy(t, u.Host)
	u.Host = p.ln.Addr().String()
	q := u.Query()
	q.Set("outage_wait", "6s")
	u.RawQuery = q.Encode()
	s, err := OpenRedis(context.Background(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Counts(context.Background()); err != nil {
		t.Fatal(err)
	}

	p.cut()
	go func() { time.Sleep(1500 * time.Millisecond); p.down.Store(false) }()
	start := time.Now()
	if _, err := s.Counts(context.Background()); err != nil {
		t.Fatalf("a 1.5s outage with outage_wait=6s: %v", err)
	}
	if d := time.Since(start); d < time.Second {
		t.Fatalf("the command returned in %v: no outage seen", d)
	}

	p.cut() // for good
	start = time.Now()
	_, err = s.Counts(context.Background())
	if !errors.Is(err, ErrRedisOutage) || !strings.Contains(err.Error(), "outage_wait=6s") {
		t.Fatalf("a lasting outage: %v", err)
	}
	if d := time.Since(start); d < 6*time.Second || d > 12*time.Second {
		t.Errorf("gave up after %v, want about 6s", d)
	}
}
