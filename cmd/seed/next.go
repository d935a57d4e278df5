package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"syscall"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

const (
	flagN         = "n"
	flagPerHost   = "per-host"
	flagHostGap   = "host-gap"
	flagHostLimit = "host-limit"
	flagBudget    = "budget"
	flagLease     = "lease"
	flagFollow    = "follow"
	flagMaxPages  = "max-pages"
	flagInFlight  = "in-flight"
	flagPoll      = "poll"
	flagRelease   = "release"
	flagRenewFor  = "renew-for"
	flagProbe     = "probe-new-hosts"
)

// errDownstreamGone ends a follower whose reader closed the pipe: a quiet
// exit, as for any closed stdout.
var errDownstreamGone = fmt.Errorf("the next stage closed its input: %w", syscall.EPIPE)

// leaseChunk is the most URLs one lease transaction takes.
const leaseChunk = 1000

func nextCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "next",
		Usage:     "lease the best queued URLs of the frontier as url records",
		ArgsUsage: " ",
		Description: "Leases the -n best queued URLs (priority, then depth, then age), at most --per-host\n" +
			"per host, and writes them as url records. A leased URL whose page does not come back\n" +
			"(seed add) within --lease is queued again. With --follow it keeps leasing as URLs\n" +
			"arrive, at most --in-flight at a time, and ends when nothing is queued or leased,\n" +
			"or after --max-pages URLs. While it runs it renews its own leases (--renew-for), so\n" +
			"only a crashed loop's leases run out.",
		Flags: append([]ucli.Flag{
			existingDBFlag(),
			&ucli.IntFlag{Name: flagN, Value: 100, Usage: "lease `N` URLs (with --follow: at most N per lease)", EnvVars: cli.Env("next-n")},
			&ucli.IntFlag{Name: flagPerHost, Value: 10, Usage: "at most `N` URLs per host per lease (without --follow: over the whole run) (0: no limit)", EnvVars: cli.Env("next-per-host")},
			&ucli.IntFlag{Name: flagHostLimit, Usage: "at most `N` running leases per host, counted over every worker of the frontier: set it on a frontier shared by several machines (0: no limit)", EnvVars: cli.Env("next-host-limit")},
			&ucli.Int64Flag{Name: flagBudget, Usage: "with --follow: stop once the crawl as a whole, every worker of the frontier counted, has fetched `N` pages (leases running count as spent until they come back; 0: no limit)", EnvVars: cli.Env("next-budget")},
			&ucli.DurationFlag{Name: flagHostGap, Usage: "lease a host's URLs at most once per `D` over every worker (a shared frontier's politeness across machines; 0: off)", EnvVars: cli.Env("next-host-gap")},
			&ucli.DurationFlag{Name: flagLease, Value: 10 * time.Minute, Usage: "a leased URL is queued again after `DURATION` unless its page came back", EnvVars: cli.Env(flagLease)},
			&ucli.BoolFlag{Name: flagFollow, Aliases: []string{"f"}, Usage: "keep emitting as URLs are queued, until nothing is queued or leased", EnvVars: cli.Env(flagFollow)},
			&ucli.IntFlag{Name: flagMaxPages, Usage: "with --follow: stop after `N` URLs, not counting those that come back unfetched and are put back (parked host, retry) (0: no limit)", EnvVars: cli.Env(flagMaxPages)},
			&ucli.IntFlag{Name: flagInFlight, Value: 256, Usage: "with --follow: at most `N` URLs leased by this run and not yet back", EnvVars: cli.Env(flagInFlight)},
			&ucli.DurationFlag{Name: flagPoll, Value: 50 * time.Millisecond, Usage: "with --follow: look for new URLs every `DURATION`", EnvVars: cli.Env(flagPoll)},
			&ucli.DurationFlag{Name: flagRenewFor, Value: time.Hour, Usage: "with --follow: keep this run's leases alive for up to `DURATION` while their pages travel down the pipe (0: never renew)", EnvVars: cli.Env(flagRenewFor)},
			&ucli.BoolFlag{Name: flagProbe, Value: true, Usage: "with --follow: a host none of whose pages came back yet gets one URL out at a time, so a host that is down costs one lease (--probe-new-hosts=false: no such bound)", EnvVars: cli.Env(flagProbe)},
			&ucli.BoolFlag{Name: flagRelease, Usage: "first queue again every leased URL (when no other crawl uses the database)", EnvVars: cli.Env(flagRelease)},
			stallFlag(),
		}, cli.StreamFlags()...),
		Action: runNext,
	}
}

// nexter is one run of seed next.
type nexter struct {
	n, perHost, maxPages, inFlight int
	hostLimit                      int
	budget                         int64
	lease, poll, renewFor, hostGap time.Duration
	follow, probe                  bool
	// progress figures of a follower, read by the progress line
	emittedNow, holdingNow atomic.Int64
	owner                  int64
	stall                  stallWatch
}

func runNext(c *ucli.Context) error {
	nx := &nexter{
		n: c.Int(flagN), perHost: c.Int(flagPerHost), maxPages: c.Int(flagMaxPages), inFlight: c.Int(flagInFlight),
		lease: c.Duration(flagLease), poll: c.Duration(flagPoll), follow: c.Bool(flagFollow), renewFor: c.Duration(flagRenewFor),
		hostGap: c.Duration(flagHostGap), hostLimit: c.Int(flagHostLimit), budget: c.Int64(flagBudget), probe: c.Bool(flagProbe),
		owner: rand.Int64N(1<<53) + 1, stall: stallWatch{bound: c.Duration(flagStallTimeout)},
	}
	switch {
	case nx.n <= 0:
		return cli.Usagef("-%s %d: lease at least one URL", flagN, nx.n)
	case nx.lease <= 0:
		return cli.Usagef("--%s %v: must be positive", flagLease, nx.lease)
	case nx.follow && nx.inFlight <= 0:
		return cli.Usagef("--%s %d: must be positive", flagInFlight, nx.inFlight)
	case nx.poll <= 0:
		return cli.Usagef("--%s %v: must be positive", flagPoll, nx.poll)
	}
	if c.Args().Present() {
		return cli.Usagef("seed next reads no input: unexpected argument %q", c.Args().First())
	}
	store, err := openExisting(c.Context, c.String(flagDB))
	if err != nil {
		return err
	}
	defer store.Close()
	st, err := cli.OpenStreamWith(c, nil, nil, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return err
	}
	if c.Bool(flagRelease) {
		n, err := store.Release(c.Context)
		if err != nil {
			return errors.Join(err, st.Close())
		}
		st.Log.Infof("queued again %d leased URLs", n)
	}
	var emitted int
	if nx.follow {
		if st.Progress {
			start := time.Now()
			stop := cli.Ticker(time.Second, func() {
				n := nx.emittedNow.Load()
				st.Log.Progressf("%d URLs leased, %.0f/s, %d in flight", n, float64(n)/time.Since(start).Seconds(), nx.holdingNow.Load())
			})
			defer st.Log.EndProgress()
			defer stop()
		}
		emitted, err = nx.runFollow(c.Context, store, st.Out, func() bool { return outputGone(c.App.Writer) })
	} else {
		emitted, err = nx.runOnce(c.Context, store, st.Out)
	}
	st.Log.Infof("leased %d URLs", emitted)
	admin, _ := store.(frontier.HostAdmin)
	if admin == nil {
		return errors.Join(err, st.Close())
	}
	if hosts, urls, at, perr := admin.ParkedSummary(context.WithoutCancel(c.Context)); perr == nil && hosts > 0 {
		// Said on every run, so that a crawl that leased nothing because
		// its hosts are parked does not look finished.
		st.Log.Infof("%d hosts parked (down or robots.txt unreachable) hold %d URLs, next probe at %s; "+
			"seed stats --db %s lists them, seed requeue --db %s releases them", hosts, urls,
			at.Format("15:04:05"), c.String(flagDB), c.String(flagDB))
	}
	return errors.Join(err, st.Close())
}

func (nx *nexter) request(n int) frontier.LeaseRequest {
	r := frontier.LeaseRequest{N: min(n, leaseChunk), PerHost: nx.perHost, For: nx.lease, Owner: nx.owner, HostGap: nx.hostGap,
		HostLimit: nx.hostLimit, FirstContact: nx.follow && nx.probe}
	if !nx.follow && nx.perHost > 0 {
		// One run leases -n URLs in chunks: --per-host bounds them all,
		// through the running leases (the chunks before are still out).
		r.PerHost = 0
		if r.HostLimit == 0 || nx.perHost < r.HostLimit {
			r.HostLimit = nx.perHost
		}
	}
	return r
}

// runOnce leases -n URLs, in chunks; the per-host bound counts the running
// leases, so it holds over them all.
func (nx *nexter) runOnce(ctx context.Context, store frontier.Store, out *jsonl.Writer) (int, error) {
	emitted := 0
	for emitted < nx.n {
		us, err := store.Lease(ctx, nx.request(nx.n-emitted))
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
func (nx *nexter) runFollow(ctx context.Context, store frontier.Store, out *jsonl.Writer, gone func() bool) (int, error) {
	emitted := 0
	lastRenew := time.Now()
	var requeuedBase int64 = -1
	var spentAt time.Time
	for {
		if nx.renewFor > 0 && time.Since(lastRenew) >= nx.lease/3 {
			if _, err := store.Renew(ctx, nx.owner, time.Now().Add(nx.lease), nx.renewFor); err != nil {
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
		holding, err := store.Holding(ctx, nx.owner)
		if err != nil {
			return emitted, err
		}
		nx.holdingNow.Store(int64(holding))
		if err := nx.stall.check(time.Now(), emitted, holding); err != nil {
			return emitted, err
		}
		room := min(nx.inFlight-holding, nx.n)
		if nx.maxPages > 0 {
			c, err := store.Counts(ctx)
			if err != nil {
				return emitted, err
			}
			if requeuedBase < 0 {
				requeuedBase = c.Requeued
			}
			left := nx.maxPages - (emitted - int(c.Requeued-requeuedBase))
			if left <= 0 {
				if spentAt.IsZero() {
					spentAt = time.Now()
				}
				if holding == 0 || time.Since(spentAt) > nx.lease {
					return emitted, nil
				}
				if err := nx.sleep(ctx); err != nil {
					return emitted, err
				}
				continue
			}
			room = min(room, left)
		}
		if nx.budget > 0 {
			p, err := store.Progress(ctx)
			if err != nil {
				return emitted, err
			}
			if p.Fetched >= nx.budget {
				return emitted, nil // the crawl as a whole is done
			}
			room = min(room, int(nx.budget-p.Fetched-p.Running))
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
		if !counts.Queued && !counts.Leased {
			return emitted, nil
		}
		if err := nx.sleep(ctx); err != nil {
			return emitted, err
		}
	}
}

// sleep waits one poll interval.
func (nx *nexter) sleep(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(nx.poll):
		return nil
	}
}
