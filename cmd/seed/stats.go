package main

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/stage/seed"
)

const (
	flagTop   = "top"
	flagBrief = "brief"
)

// statsFormat is the --format of seed stats.
var statsFormat = cli.Format{Values: []string{cli.FormatText, cli.FormatJSON}, Default: cli.FormatText,
	Usage: "text is a table, json one object"}

func statsCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "stats",
		Usage:     "summarise the frontier: states, harvest rate, depths, top hosts, refusals",
		ArgsUsage: " ",
		Flags: append([]ucli.Flag{
			existingDBFlag(),
			&ucli.IntFlag{Name: flagTop, Value: 10, Usage: "show the `N` hosts with the most URLs"},
			&ucli.BoolFlag{Name: flagBrief, Usage: "the counts only, without the top hosts and the error kinds, " +
				"which read every host or failed URL: for a script that polls a big frontier"},
		}, statsFormat.Flags()...),
		Action: func(c *ucli.Context) error {
			format, err := statsFormat.Value(c)
			if err != nil {
				return err
			}
			q := frontier.StatsQuery{TopHosts: c.Int(flagTop), ErrorKinds: true}
			if c.Bool(flagBrief) {
				if c.IsSet(flagTop) {
					return cli.Usagef("--%s lists no hosts: leave out --%s", flagBrief, flagTop)
				}
				q = frontier.StatsQuery{}
			}
			store, err := readOnly(c, "stats", nil)
			if err != nil {
				return err
			}
			defer store.Close()
			return seed.Stats(c.Context, store, c.App.Writer, q, format == cli.FormatJSON)
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
