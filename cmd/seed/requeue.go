package main

import (
	"github.com/focuscrawl/focuscrawl/internal/cli"
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/stage/seed"
)

const (
	flagErrorKind = "error"
	flagHost      = "host"
)

// requeueFormat is the --format of seed requeue.
var requeueFormat = cli.Format{Values: []string{cli.FormatText, cli.FormatJSON}, Default: cli.FormatText,
	Usage: "text is a line of counts, json one object"}

func requeueCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "requeue",
		Usage:     "put failed URLs back in the queue, and release parked hosts",
		ArgsUsage: " ",
		Description: "Queues again the failed URLs of the frontier — those whose error is of kind --error\n" +
			"(dns, connect, timeout, robots-unreachable, http 405, http, 4xx, 5xx, …) and of host\n" +
			"--host, or all — as if never fetched, and releases the parked or given-up hosts that\n" +
			"match (their reason's kind, their name): their URLs are queued again at once.\n" +
			"Prints how many on stdout.",
		Flags: append([]ucli.Flag{
			existingDBFlag(),
			&ucli.StringFlag{Name: flagErrorKind, Usage: "only URLs and hosts whose error is of `KIND`"},
			&ucli.StringFlag{Name: flagHost, Usage: "only URLs of `HOST` (as seed stats lists it)"},
		}, requeueFormat.Flags()...),
		Action: func(c *ucli.Context) error {
			format, err := requeueFormat.Value(c)
			if err != nil {
				return err
			}
			store, err := readOnly(c, "requeue", nil)
			if err != nil {
				return err
			}
			defer store.Close()
			f := frontier.RequeueFilter{Kind: c.String(flagErrorKind), Host: c.String(flagHost)}
			return seed.Requeue(c.Context, store, c.App.Writer, f, format == cli.FormatJSON)
		},
	}
}
