package main

import (
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/simweb"
)

// Flag names shared by the subcommands.
const (
	flagSeed     = "seed"
	flagSites    = "sites"
	flagSlow     = "slow-latency"
	flagRate     = "rate-limit"
	flagNoFaults = "no-faults"
)

// webFlags choose the web; every subcommand takes them, so truth and
// serve agree when given the same values.
func webFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.Int64Flag{Name: flagSeed, Value: 1, Usage: "the web's `SEED`: the same seed gives the same pages and truth", EnvVars: cli.Env("simweb-" + flagSeed)},
		&ucli.IntFlag{Name: flagSites, Value: simweb.DefaultSites, Usage: "number of `N` sites (at least 12)", EnvVars: cli.Env("simweb-" + flagSites)},
	}
}

// newWeb builds the web the flags describe. Only serve has the fault flags;
// the other commands see the web without timing faults (truth does not
// depend on them).
func newWeb(c *ucli.Context) (*simweb.Web, error) {
	n := c.Int(flagSites)
	if n < simweb.MinSites {
		return nil, cli.Usagef("--%s: %d is under the minimum of %d sites", flagSites, n, simweb.MinSites)
	}
	cfg := simweb.Config{Seed: c.Int64(flagSeed), Sites: n}
	cfg.NoFaults = true
	if c.Command.Name == "serve" {
		d := c.Duration(flagSlow)
		if d < 0 {
			return nil, cli.Usagef("--%s: %s is negative", flagSlow, d)
		}
		cfg.SlowLatency = d
		if d == 0 {
			cfg.SlowLatency = time.Nanosecond
		}
		cfg.RateLimit = c.Float64(flagRate)
		if cfg.RateLimit <= 0 {
			return nil, cli.Usagef("--%s: %v is not a positive number of requests per second", flagRate, cfg.RateLimit)
		}
		cfg.NoFaults = c.Bool(flagNoFaults)
	}
	return simweb.New(cfg), nil
}
