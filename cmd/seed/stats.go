package main

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/stage/seed"
)

const (
	flagJSON = "json"
	flagTop  = "top"
)

func statsCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "stats",
		Usage:     "summarise the frontier: states, harvest rate, depths, top hosts, refusals",
		ArgsUsage: " ",
		Flags: []ucli.Flag{
			existingDBFlag(),
			&ucli.BoolFlag{Name: flagJSON, Usage: "one JSON object instead of a table", EnvVars: cli.Env("stats-json")},
			&ucli.IntFlag{Name: flagTop, Value: 10, Usage: "show the `N` hosts with the most URLs", EnvVars: cli.Env("stats-top")},
		},
		Action: func(c *ucli.Context) error {
			store, err := readOnly(c, "stats", nil)
			if err != nil {
				return err
			}
			defer store.Close()
			return seed.Stats(c.Context, store, c.App.Writer, c.Int(flagTop), c.Bool(flagJSON))
		},
	}
}

// readOnly opens the frontier of seed stats, peek or requeue, which read
// no input, unless the arguments are wrong: bad, when set, says how.
// stats and peek only read it, and open it read-only; requeue writes.
func readOnly(c *ucli.Context, name string, bad error) (frontier.Store, error) {
	if c.Args().Present() {
		return nil, cli.Usagef("seed %s reads no input: unexpected argument %q", name, c.Args().First())
	}
	if bad != nil {
		return nil, bad
	}
	if name == "requeue" {
		return seed.OpenExisting(c.Context, c.String(flagDB))
	}
	return seed.OpenReading(c.Context, c.String(flagDB))
}
