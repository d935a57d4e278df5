package main

import (
	"errors"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/stage/seed"
)

const (
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
	flagStall     = "stall-timeout"
	flagReserve   = "reserve"
)

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
			"only a crashed loop's leases run out. The reserve (links score pruned, which seed add\n" +
			"keeps under every other URL) is leased when nothing else is queued or out: by default\n" +
			"with --follow and a page budget (--max-pages, --budget), so a budgeted crawl does not\n" +
			"end while links remain.",
		Flags: append([]ucli.Flag{
			existingDBFlag(),
			&ucli.IntFlag{Name: cli.FlagLimit, Aliases: []string{"n"}, Value: 100, Usage: "lease `N` URLs (with --follow: at most N per lease)"},
			&ucli.IntFlag{Name: flagPerHost, Value: 10, Usage: "at most `N` URLs per host per lease (without --follow: over the whole run) (0: no limit)"},
			&ucli.IntFlag{Name: flagHostLimit, Usage: "at most `N` workers hold leases of one host at once (a worker holding a host may take more of its URLs): set it on a frontier shared by several machines (0: no limit)"},
			&ucli.Int64Flag{Name: flagBudget, Usage: "with --follow: stop once the crawl as a whole, every worker of the frontier counted, has fetched `N` pages (leases running count as spent until they come back; 0: no limit)"},
			&ucli.DurationFlag{Name: flagHostGap, Usage: "a host passes from one worker to another only `DURATION` after its last lease (a shared frontier's politeness across machines; 0: off)"},
			&ucli.DurationFlag{Name: flagLease, Value: 10 * time.Minute, Usage: "a leased URL is queued again after `DURATION` unless its page came back"},
			&ucli.BoolFlag{Name: flagFollow, Aliases: []string{"f"}, Usage: "keep emitting as URLs are queued, until nothing is queued or leased"},
			&ucli.IntFlag{Name: flagMaxPages, Usage: "with --follow: stop after `N` URLs, not counting those that come back unfetched and are put back (parked host, retry) (0: no limit)"},
			&ucli.IntFlag{Name: flagInFlight, Value: 256, Usage: "with --follow: at most `N` URLs leased by this run and not yet back"},
			&ucli.DurationFlag{Name: flagPoll, Value: 50 * time.Millisecond, Usage: "with --follow: look for new URLs every `DURATION`"},
			&ucli.DurationFlag{Name: flagRenewFor, Value: time.Hour, Usage: "with --follow: keep this run's leases alive for up to `DURATION` while their pages travel down the pipe (0: never renew)"},
			&ucli.BoolFlag{Name: flagProbe, Value: true, Usage: "with --follow: a host none of whose pages came back yet gets one URL out at a time, so a host that is down costs one lease (--probe-new-hosts=false: no such bound)"},
			&ucli.BoolFlag{Name: flagRelease, Usage: "first queue again every leased URL (when no other crawl uses the database)"},
			&ucli.BoolFlag{Name: flagReserve, Usage: "lease the reserve (links score pruned) when no other URL is queued and none is out (--reserve=false: never)",
				DefaultText: "on with --follow and --max-pages or --budget, else off"},
			// A stage of the loop that dies after seed next's own reader
			// closes no pipe seed next can see: without a bound the
			// follower would wait for its leases for --renew-for.
			&ucli.DurationFlag{Name: flagStall, Value: 10 * time.Minute,
				Usage: "with --follow: end with an error when URLs are in flight and none came back (seed add) for `DURATION` (0: wait forever)"},
		}, cli.StreamFlags()...),
		Action: runNext,
	}
}

func runNext(c *ucli.Context) error {
	o := seed.NextOptions{
		N: c.Int(cli.FlagLimit), PerHost: c.Int(flagPerHost), MaxPages: c.Int(flagMaxPages), InFlight: c.Int(flagInFlight),
		Lease: c.Duration(flagLease), Poll: c.Duration(flagPoll), Follow: c.Bool(flagFollow), RenewFor: c.Duration(flagRenewFor),
		HostGap: c.Duration(flagHostGap), HostLimit: c.Int(flagHostLimit), Budget: c.Int64(flagBudget), Probe: c.Bool(flagProbe),
		StallTimeout: c.Duration(flagStall), Release: c.Bool(flagRelease), DB: c.String(flagDB), Reserve: c.Bool(flagReserve),
		Gone: func() bool { return seed.OutputGone(c.App.Writer) },
	}
	if !c.IsSet(flagReserve) {
		// A crawl with a page budget goes on to its budget while links
		// remain; one without ends where its focus does.
		o.Reserve = o.Follow && (o.MaxPages > 0 || o.Budget > 0)
	}
	switch {
	case o.N <= 0:
		return cli.Usagef("--%s %d: lease at least one URL", cli.FlagLimit, o.N)
	case o.Lease <= 0:
		return cli.Usagef("--%s %v: must be positive", flagLease, o.Lease)
	case o.Follow && o.InFlight <= 0:
		return cli.Usagef("--%s %d: must be positive", flagInFlight, o.InFlight)
	case o.Poll <= 0:
		return cli.Usagef("--%s %v: must be positive", flagPoll, o.Poll)
	}
	if c.Args().Present() {
		return cli.Usagef("seed next reads no input: unexpected argument %q", c.Args().First())
	}
	store, err := seed.OpenExisting(c.Context, c.String(flagDB))
	if err != nil {
		return err
	}
	defer store.Close()
	seed.WarnVolatile(c.Context, store, c.App.ErrWriter, "seed next")
	st, err := cli.OpenStreamWith(c, nil, nil, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return err
	}
	return errors.Join(seed.NextStream(c.Context, store, st, o), st.Close())
}
