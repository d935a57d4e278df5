package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
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
			if c.Args().Present() {
				return cli.Usagef("seed peek reads no input: unexpected argument %q", c.Args().First())
			}
			n := c.Int(flagN)
			if n <= 0 {
				return cli.Usagef("-%s %d: show at least one URL", flagN, n)
			}
			store, err := openExisting(c.Context, c.String(flagDB))
			if err != nil {
				return err
			}
			defer store.Close()
			admin, err := frontier.AsHostAdmin(store)
			if err != nil {
				return fmt.Errorf("seed peek --db %s: %w", c.String(flagDB), err)
			}
			qs, err := admin.Peek(c.Context, n)
			if err != nil {
				return err
			}
			if c.Bool(flagJSON) {
				enc := json.NewEncoder(c.App.Writer)
				for _, q := range qs {
					if err := enc.Encode(q); err != nil {
						return err
					}
				}
				return nil
			}
			tw := tabwriter.NewWriter(c.App.Writer, 0, 4, 2, ' ', 0)
			fmt.Fprintf(tw, "priority\tdepth\thost\ttries\tparked\turl\t\n")
			for _, q := range qs {
				parked := ""
				if q.Parked {
					parked = "parked"
				}
				fmt.Fprintf(tw, "%.4f\t%d\t%s\t%d\t%s\t%s\t\n", q.Priority, q.Depth, q.Host, q.Tries, parked, q.URL)
			}
			return tw.Flush()
		},
	}
}
