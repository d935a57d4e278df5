package main

import (
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// Flags of seed add that say how failed pages are retried and hosts that
// are down parked (docs/frontier.md, "Failures, retries and parked hosts").
const (
	flagRetries           = "retries"
	flagRetryBackoff      = "retry-backoff"
	flagRetryBackoffMax   = "retry-backoff-max"
	flagHostBackoff       = "host-backoff"
	flagHostBackoffMax    = "host-backoff-max"
	flagHostTries         = "host-tries"
	flagParkAfterTimeouts = "park-after-timeouts"
)

func retryFlags() []ucli.Flag {
	d := frontier.DefaultRetryPolicy()
	return []ucli.Flag{
		&ucli.IntFlag{Name: flagRetries, Value: d.Retries, Usage: "try a URL again up to `N` times after a transient failure (timeout, network, http 429/5xx) before it fails for good"},
		&ucli.DurationFlag{Name: flagRetryBackoff, Value: d.Backoff, Usage: "wait `DURATION` before the first retry of a URL, doubled for each next one"},
		&ucli.DurationFlag{Name: flagRetryBackoffMax, Value: d.MaxBackoff, Usage: "the longest wait between retries of a URL"},
		&ucli.DurationFlag{Name: flagHostBackoff, Value: d.HostBackoff, Usage: "a host found down (dns, connect, robots-unreachable) is parked and probed again after `DURATION`, doubled after each failed probe"},
		&ucli.DurationFlag{Name: flagHostBackoffMax, Value: d.HostMaxBackoff, Usage: "the longest wait between probes of a parked host"},
		&ucli.IntFlag{Name: flagHostTries, Value: d.HostTries, Usage: "give a parked host up after `N` failed probes: its URLs fail with the reason (0: never)"},
		&ucli.IntFlag{Name: flagParkAfterTimeouts, Value: d.ParkAfterTimeouts, Usage: "park a host after `N` timeouts in a row (0: never)"},
	}
}

// retryPolicy reads the retry flags.
func retryPolicy(c *ucli.Context) (*frontier.RetryPolicy, error) {
	p := &frontier.RetryPolicy{
		Retries: c.Int(flagRetries), Backoff: c.Duration(flagRetryBackoff), MaxBackoff: c.Duration(flagRetryBackoffMax),
		HostBackoff: c.Duration(flagHostBackoff), HostMaxBackoff: c.Duration(flagHostBackoffMax),
		HostTries: c.Int(flagHostTries), ParkAfterTimeouts: c.Int(flagParkAfterTimeouts),
	}
	for _, f := range []struct {
		name string
		n    int
	}{{flagRetries, p.Retries}, {flagHostTries, p.HostTries}, {flagParkAfterTimeouts, p.ParkAfterTimeouts}} {
		if f.n < 0 {
			return nil, cli.Usagef("--%s %d: must be 0 or more", f.name, f.n)
		}
	}
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{flagRetryBackoff, p.Backoff}, {flagRetryBackoffMax, p.MaxBackoff}, {flagHostBackoff, p.HostBackoff}, {flagHostBackoffMax, p.HostMaxBackoff}} {
		if f.d <= 0 {
			return nil, cli.Usagef("--%s %v: must be positive", f.name, f.d)
		}
	}
	if p.MaxBackoff < p.Backoff {
		return nil, cli.Usagef("--%s %v is shorter than --%s %v", flagRetryBackoffMax, p.MaxBackoff, flagRetryBackoff, p.Backoff)
	}
	if p.HostMaxBackoff < p.HostBackoff {
		return nil, cli.Usagef("--%s %v is shorter than --%s %v", flagHostBackoffMax, p.HostMaxBackoff, flagHostBackoff, p.HostBackoff)
	}
	return p, nil
}
