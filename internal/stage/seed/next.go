package seed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// NextOptions configure Next (seed next's flags).
type NextOptions struct {
	// N URLs are leased (with Follow: at most N per lease), at most
	// PerHost per host (0: no limit), HostLimit running leases per host
	// over every worker, a host at most once per HostGap.
	N, PerHost, HostLimit int
	HostGap               time.Duration
	// Lease is how long a URL stays leased unless its page comes back.
	Lease time.Duration
	// Follow keeps leasing as URLs arrive, at most InFlight out at once,
	// looking every Poll, until nothing is queued or leased, MaxPages
	// URLs went out (0: no limit) or the crawl fetched Budget pages. It
	// renews its leases for up to RenewFor, gives a new host one URL at a
	// time with Probe, and fails when none came back for StallTimeout.
	Follow                       bool
	InFlight, MaxPages           int
	Budget                       int64
	Poll, RenewFor, StallTimeout time.Duration
	Probe                        bool
	// Release first queues again every leased URL.
	Release bool
	// Reserve leases the reserve (the links score pruned) when no other
	// URL is queued and none is out (frontier.LeaseRequest.Reserve), and
	// keeps a follower going while it holds URLs. seed next sets it with
	// --follow and a page budget.
	Reserve bool
	// DB names the frontier in the hint about parked hosts.
	DB string
	// Gone tells whether the reader of the output went away (nil: never
	// known before a write fails).
	Gone func() bool
	// Owner tells this run's leases from others' (0: a random one).
	Owner int64
}

// errDownstreamGone ends a follower whose reader closed the pipe: a quiet
// exit, as for any closed stdout.
var errDownstreamGone = fmt.Errorf("the next stage closed its input: %w", syscall.EPIPE)

// leaseChunk is the most URLs one lease transaction takes.
const leaseChunk = 1000

// Next leases URLs of store as url records to out, as seed next does, and
// logs what it did on log (nil: nothing).
func Next(ctx context.Context, store frontier.Store, out io.Writer, log *cli.Logger, o NextOptions) error {
	s := cli.NewStream(strings.NewReader(""), out, log)
	return errors.Join(NextStream(ctx, store, s, o), s.Close())
}

// NextStream is Next on an open stream (seed next's output, log and
// progress); the caller closes s.
func NextStream(ctx context.Context, store frontier.Store, s *cli.Stream, o NextOptions) error {
	nx := &nexter{NextOptions: o, stall: stallWatch{bound: o.StallTimeout}}
	if nx.Owner == 0 {
		nx.Owner = rand.Int64N(1<<53) + 1
	}
	if nx.Gone == nil {
		nx.Gone = func() bool { return false }
	}
	if o.Release {
		n, err := store.Release(ctx)
		if err != nil {
			return err
		}
		s.Log.Infof("queued again %d leased URLs", n)
	}
	var emitted int
	var err error
	if nx.Follow {
		start := time.Now()
		stop := s.ShowProgress(time.Second, func() {
			n := nx.emittedNow.Load()
			s.Log.Progressf("%d URLs leased, %.0f/s, %d in flight", n, float64(n)/time.Since(start).Seconds(), nx.holdingNow.Load())
		})
		emitted, err = nx.runFollow(ctx, store, s.Out, nx.Gone, s.Log)
		stop()
		if ctx.Err() != nil {
			// Interrupted (Ctrl-C, or the loop's supervisor stopping it):
			// the pages in the pipe will not come back, so this run's
			// leases are made to run out now instead of in --lease, and
			// the next run leases them again at once.
			if n, rerr := nx.releaseOwn(context.WithoutCancel(ctx), store); rerr != nil {
				err = errors.Join(err, rerr)
			} else if n > 0 {
				s.Log.Infof("interrupted: released the %d URLs this run held (queued again)", n)
			}
		}
	} else {
		emitted, err = nx.runOnce(ctx, store, s.Out)
	}
	s.Log.Infof("leased %d URLs", emitted)
	if nx.reserveLeft {
		// Said so that a crawl that ran out of links above the threshold
		// does not look like one that ran out of links.
		s.Log.Infof("nothing left above thresholds.link; the reserve holds URLs (links score pruned): " +
			"seed next leases them with --reserve, or with --follow and a page budget (--max-pages, --budget)")
	}
	if hosts, urls, at, perr := store.ParkedSummary(context.WithoutCancel(ctx)); perr == nil && hosts > 0 {
		// Said on every run, so that a crawl that leased nothing because
		// its hosts are parked does not look finished.
		s.Log.Infof("%d hosts parked (down or robots.txt unreachable) hold %d URLs, next probe at %s; "+
			"seed stats --db %s lists them, seed requeue --db %s releases them", hosts, urls,
			at.Format("15:04:05"), o.DB, o.DB)
	}
	return err
}

// nexter is one run of Next.
type nexter struct {
	NextOptions
	// progress figures of a follower, read by the progress line
	emittedNow, holdingNow atomic.Int64
	stall                  stallWatch
	// reserveLeft: the follower ended with URLs in the reserve it may not
	// lease.
	reserveLeft bool
}

func (nx *nexter) request(n int) frontier.LeaseRequest {
	r := frontier.LeaseRequest{N: min(n, leaseChunk), PerHost: nx.PerHost, For: nx.Lease, Owner: nx.Owner, HostGap: nx.HostGap,
		HostLimit: nx.HostLimit, FirstContact: nx.Follow && nx.Probe, Reserve: nx.Reserve}
	if !nx.Follow && nx.PerHost > 0 {
		// One run leases -n URLs in chunks: --per-host bounds them all,
		// through this run's running leases (the chunks before are still
		// out).
		r.PerHost, r.OwnHostLimit = 0, nx.PerHost
	}
	return r
}

// runOnce leases -n URLs, in chunks; the per-host bound counts the running
// leases, so it holds over them all.
func (nx *nexter) runOnce(ctx context.Context, store frontier.Store, out *jsonl.Writer) (int, error) {
	emitted := 0
	for emitted < nx.N {
		us, err := store.Lease(ctx, nx.request(nx.N-emitted))
		if err != nil {
			return emitted, err
		}
		if len(us) == 0 {
			break
		}
		for _, u := range us {
			if err := out.Write(u); err != nil {
				return emitted, err
			}
			emitted++
		}
	}
	return emitted, out.Flush()
}

// runFollow leases as room in the in-flight window and new URLs allow,
// until the frontier is drained or the page budget spent.
//
// The budget counts URLs leased less those that came back without a page
// and were put back in the queue (a parked host, a retry, a cancelled
// fetch: Counts.Requeued), so they do not use it up. When it is spent
// while URLs are still out, the run waits for them (up to --lease) and
// leases again as many as came back unfetched.
//
// While the run lives it renews its leases (every third of --lease, for up
// to --renew-for), so a slow stage never makes a page's lease run out and
// its URL go out twice; when the run dies the renewals stop and the leases
// run out, which is what brings the URLs back.
func (nx *nexter) runFollow(ctx context.Context, store frontier.Store, out *jsonl.Writer, gone func() bool, log *cli.Logger) (int, error) {
	emitted := 0
	toldOthers := false
	lastRenew := time.Now()
	var requeuedBase int64 = -1
	var spentAt time.Time
	for {
		if nx.RenewFor > 0 && time.Since(lastRenew) >= nx.Lease/3 {
			if _, err := store.Renew(ctx, nx.Owner, time.Now().Add(nx.Lease), nx.RenewFor); err != nil {
				return emitted, err
			}
			lastRenew = time.Now()
		}
		if err := ctx.Err(); err != nil {
			return emitted, err
		}
		if err := out.Err(); err != nil {
			return emitted, err // downstream is gone
		}
		if gone() {
			return emitted, errDownstreamGone
		}
		holding, err := store.Holding(ctx, nx.Owner)
		if err != nil {
			return emitted, err
		}
		nx.holdingNow.Store(int64(holding))
		if err := nx.stall.check(time.Now(), emitted, holding); err != nil {
			return emitted, err
		}
		room := min(nx.InFlight-holding, nx.N)
		if nx.MaxPages > 0 {
			c, err := store.Counts(ctx)
			if err != nil {
				return emitted, err
			}
			if requeuedBase < 0 {
				requeuedBase = c.Requeued
			}
			left := nx.MaxPages - (emitted - int(c.Requeued-requeuedBase))
			if left <= 0 {
				if spentAt.IsZero() {
					spentAt = time.Now()
				}
				if holding == 0 || time.Since(spentAt) > nx.Lease {
					return emitted, nil
				}
				if err := nx.sleep(ctx); err != nil {
					return emitted, err
				}
				continue
			}
			room = min(room, left)
		}
		if nx.Budget > 0 {
			p, err := store.Progress(ctx)
			if err != nil {
				return emitted, err
			}
			if p.Fetched >= nx.Budget {
				return emitted, nil // the crawl as a whole is done
			}
			room = min(room, int(nx.Budget-p.Fetched-p.Running))
		}
		got := 0
		if room > 0 {
			us, err := store.Lease(ctx, nx.request(room))
			if err != nil {
				return emitted, err
			}
			for _, u := range us {
				if err := out.Write(u); err != nil {
					return emitted, err
				}
			}
			got = len(us)
			emitted += got
			nx.emittedNow.Store(int64(emitted))
			if got > 0 {
				if err := out.Flush(); err != nil {
					return emitted, err
				}
			}
		}
		if got > 0 && got == room {
			continue // more may be waiting
		}
		counts, err := store.Counts(ctx)
		if err != nil {
			return emitted, err
		}
		if !counts.Queued && !counts.Leased && !(nx.Reserve && counts.Reserve) {
			nx.reserveLeft = counts.Reserve
			return emitted, nil
		}
		if !toldOthers && got == 0 && holding == 0 && !counts.Queued && counts.Leased {
			// Nothing to lease, and the URLs left are another run's: say
			// so once, rather than wait for their leases in silence.
			toldOthers = true
			if p, err := store.Progress(ctx); err == nil && p.Running > 0 {
				log.Infof("%d URLs are leased by another run (a loop still running, or one that was killed: "+
					"its leases run out within --lease, %v); waiting for them. If no other loop runs, "+
					"seed next --release (crawl.sh: RELEASE=1) queues them again at once", p.Running, nx.Lease)
			}
		}
		if err := nx.sleep(ctx); err != nil {
			return emitted, err
		}
	}
}

// releaseOwn makes the running leases of this run end now, so that the
// frontier leases their URLs again at once (an expired lease is queued
// work); others' leases are left alone.
func (nx *nexter) releaseOwn(ctx context.Context, store frontier.Store) (int, error) {
	return store.Renew(ctx, nx.Owner, time.Now(), 100*365*24*time.Hour)
}

// sleep waits one poll interval.
func (nx *nexter) sleep(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(nx.Poll):
		return nil
	}
}

// stallWatch notices a loop whose pages stopped coming back: the URLs this
// run leased and the frontier has since recorded (emitted − holding) have
// not grown for bound while some were in flight.
type stallWatch struct {
	bound time.Duration
	acked int
	since time.Time
}

func (s *stallWatch) check(now time.Time, emitted, holding int) error {
	if s.bound <= 0 {
		return nil
	}
	acked := emitted - holding
	if s.since.IsZero() || holding == 0 || acked != s.acked {
		s.acked, s.since = acked, now
		return nil
	}
	if now.Sub(s.since) >= s.bound {
		return fmt.Errorf("%d URLs in flight and none came back for %v: a later stage of the loop is stuck or gone (--stall-timeout)",
			holding, s.bound)
	}
	return nil
}
