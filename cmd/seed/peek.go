package main

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/stage/seed"
)

// peekFormat is the --format of seed peek.
var peekFormat = cli.Format{Values: []string{cli.FormatText, cli.FormatJSONL}, Default: cli.FormatText,
	Usage: "text is a table, jsonl one object per URL"}

func peekCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "peek",
		Usage:     "show the next queued URLs in lease order, without leasing them",
		ArgsUsage: " ",
		Description: "Lists the --limit (-n) URLs seed next would lease next (priority, then depth, then age; the\n" +
			"per-host bound left aside) with their priority, depth, host, transient failures so far,\n" +
			"and whether their host is parked (the URL is then the probe of the host). Nothing is\n" +
			"leased or changed.",
		Flags: append([]ucli.Flag{
			existingDBFlag(),
			&ucli.IntFlag{Name: cli.FlagLimit, Aliases: []string{"n"}, Value: 20, Usage: "show `N` URLs"},
		}, peekFormat.Flags()...),
		Action: func(c *ucli.Context) error {
			format, bad := peekFormat.Value(c)
			if n := c.Int(cli.FlagLimit); n <= 0 && bad == nil {
				bad = cli.Usagef("--%s %d: show at least one URL", cli.FlagLimit, n)
			}
			store, err := readOnly(c, "peek", bad)
			if err != nil {
				return err
			}
			defer store.Close()
			return seed.Peek(c.Context, store, c.App.Writer, c.Int(cli.FlagLimit), format == cli.FormatJSONL)
		},
	}
}
