package main

import (
	"errors"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/stage/seed"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

const (
	flagScheme       = "scheme"
	flagRankPriority = "rank-priority"
)

func hostsCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "hosts",
		Usage:     "the topic's host library (address library) as url records, priority by authority rank",
		ArgsUsage: " ",
		Description: "Writes the root URL of every host of the profile's hosts: list, with a priority\n" +
			"from its rank (national 1.0 > province 0.8 > city 0.6 > county 0.4 > other 0.2;\n" +
			"change it with --rank-priority national=1,city=0.7), meta.rank and meta.name.",
		Flags: append([]ucli.Flag{
			cli.TopicFlag(true),
			&ucli.StringFlag{Name: flagScheme, Value: "http", Usage: "`SCHEME` of the root URLs (http or https; sites that moved to https redirect)"},
			&ucli.StringFlag{Name: flagRankPriority, Usage: "priorities by rank: `RANK=P,…` (ranks: " + strings.Join(topic.Ranks, ", ") + ")"},
		}, cli.StreamFlags()...),
		Action: runHosts,
	}
}

func runHosts(c *ucli.Context) error {
	if c.Args().Present() {
		return cli.Usagef("seed hosts reads no input: unexpected argument %q", c.Args().First())
	}
	scheme := c.String(flagScheme)
	if scheme != "http" && scheme != "https" {
		return cli.Usagef("--%s %q: http or https", flagScheme, scheme)
	}
	prios, err := seed.RankPriorities(c.String(flagRankPriority))
	if err != nil {
		return cli.Usagef("--%s: %v", flagRankPriority, err)
	}
	p, err := topic.Load(c.String(cli.FlagTopic))
	if err != nil {
		return cli.Usagef("--%s: %w", cli.FlagTopic, err)
	}
	if len(p.Hosts) == 0 {
		return cli.Usagef("--%s %s: the profile has no hosts: (its address library is empty)", cli.FlagTopic, c.String(cli.FlagTopic))
	}
	st, err := cli.OpenStreamWith(c, nil, nil, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return err
	}
	n, err := seed.Hosts(st.Out, st.Log, p.Hosts, scheme, prios)
	if err != nil {
		return errors.Join(err, st.Close())
	}
	st.Log.Infof("%d hosts", n)
	return st.Close()
}
