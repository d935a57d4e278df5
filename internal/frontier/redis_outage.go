package frontier

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultRedisOutageWait is how long a command waits for an unreachable
// Redis to come back before it fails (?outage_wait= changes it).
const DefaultRedisOutageWait = 30 * time.Second

// ErrRedisOutage marks a command that failed because Redis stayed
// unreachable for the whole outage wait.
var ErrRedisOutage = errors.New("redis unreachable")

// quietRedisLog drops go-redis's own log lines (a dozen "failed to dial
// after 5 attempts" a second during an outage): the outage hook says it
// once instead.
type quietRedisLog struct{}

func (quietRedisLog) Printf(context.Context, string, ...any) {}

var quietRedisOnce sync.Once

// outageHook retries a command whose connection failed (refused, reset,
// closed, the server loading its data after a restart) through an
// outageWatch (outage.go): until the server answers or wait has passed
// since the outage began, saying so in one line when it begins and one
// when it ends. A command that was sent on a connection that then broke
// may have run: the frontier's scripts are safe to run again (a lease run
// twice leaves URLs leased until their lease ends; a batch of outcomes
// applied twice changes nothing more).
type outageHook struct {
	watch *outageWatch
}

// inRetry marks the context of a command being retried.
type inRetry struct{}

func (h *outageHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *outageHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if ctx.Value(inRetry{}) != nil {
			// A command of a connection's set-up (HELLO …) inside a retried
			// one: retried with it, on a new connection, not on its own.
			return next(ctx, cmd)
		}
		ctx = context.WithValue(ctx, inRetry{}, true)
		err := h.watch.run(ctx, func() error { return next(ctx, cmd) })
		if errors.Is(err, ErrRedisOutage) {
			cmd.SetErr(err) // what the caller reads
		}
		return err
	}
}

func (h *outageHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if ctx.Value(inRetry{}) != nil {
			return next(ctx, cmds)
		}
		ctx = context.WithValue(ctx, inRetry{}, true)
		return h.watch.run(ctx, func() error { return next(ctx, cmds) })
	}
}

// connectionError tells a failure of the connection, not of the command.
func connectionError(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var op *net.OpError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return true
	case errors.As(err, &op) && op.Op == "dial":
		return true
	}
	msg := err.Error()
	return strings.HasPrefix(msg, "LOADING") || strings.Contains(msg, "connection refused") ||
		strings.Contains(msg, "connection reset") || strings.Contains(msg, "broken pipe")
}

// withOutageWait installs the outage hook on rdb, its wait read from the
// DSN's ?outage_wait= (removed from q, as go-redis does not know it).
func withOutageWait(rdb *redis.Client, addr, wait string) error {
	d, err := parseOutageWait(wait, DefaultRedisOutageWait)
	if err != nil {
		return err
	}
	quietRedisOnce.Do(func() { redis.SetLogger(quietRedisLog{}) })
	rdb.AddHook(&outageHook{&outageWatch{server: "redis at " + addr, wait: d, log: os.Stderr,
		lost: connectionError, gaveUp: ErrRedisOutage}})
	return nil
}
