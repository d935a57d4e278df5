package main

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/stage/seed"
)

func peekCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "peek",
		Usage:     "show the next queued URLs in lease order, without leasing them",
		ArgsUsage: " ",
		Description: "Lists the -n URLs seed next would lease next (priority, then depth, then age; the\n" +
			"per-host bound left aside) with their priority, depth, host, transient failures so far,\n" +
			"and whether their host is parked (the URL is then the probe of the host). Nothing is\n" +
			"leased or changed.",
		Flags: []ucli.Flag{
			existingDBFlag(),
			&ucli.IntFlag{Name: flagN, Value: 20, Usage: "show `N` URLs", EnvVars: cli.Env("peek-n")},
			&ucli.BoolFlag{Name: flagJSON, Usage: "one JSON object per URL instead of a table", EnvVars: cli.Env("peek-json")},
		},
		Action: func(c *ucli.Context) error {
			var bad error
			if n := c.Int(flagN); n <= 0 {
				bad = cli.Usagef("-%s %d: show at least one URL", flagN, n)
			}
			store, err := readOnly(c, "peek", bad)
			if err != nil {
				return err
			}
			defer store.Close()
			return seed.Peek(c.Context, store, c.App.Writer, c.Int(flagN), c.Bool(flagJSON))
		},
	}
}
