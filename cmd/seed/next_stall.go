package main

import (
	"fmt"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

const flagStallTimeout = "stall-timeout"

// stallFlag bounds how long a follower holds URLs that never come back.
// A stage of the loop that dies after seed next's own reader (score, seed
// add) closes no pipe that seed next can see: the window stays full,
// nothing is written, and without a bound the follower would wait for its
// leases for --renew-for.
func stallFlag() ucli.Flag {
	return &ucli.DurationFlag{Name: flagStallTimeout, Value: 10 * time.Minute,
		Usage:   "with --follow: end with an error when URLs are in flight and none came back (seed add) for `DURATION` (0: wait forever)",
		EnvVars: cli.Env("next-stall-timeout")}
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
		return fmt.Errorf("%d URLs in flight and none came back for %v: a later stage of the loop is stuck or gone (--%s)",
			holding, s.bound, flagStallTimeout)
	}
	return nil
}
