package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/topic"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
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
			&ucli.StringFlag{Name: flagScheme, Value: "http", Usage: "`SCHEME` of the root URLs (http or https; sites that moved to https redirect)", EnvVars: cli.Env(flagScheme)},
			&ucli.StringFlag{Name: flagRankPriority, Usage: "priorities by rank: `RANK=P,…` (ranks: " + strings.Join(topic.Ranks, ", ") + ")", EnvVars: cli.Env(flagRankPriority)},
		}, cli.StreamFlags()...),
		Action: runHosts,
	}
}

// hostMeta is the meta object of a url record from seed hosts.
type hostMeta struct {
	Rank string `json:"rank"`
	Name string `json:"name,omitempty"`
}

// rankPriorities reads --rank-priority over the default mapping.
func rankPriorities(spec string) (map[string]float64, error) {
	m := map[string]float64{}
	for _, r := range topic.Ranks {
		m[r] = topic.RankWeight(r)
	}
	if strings.TrimSpace(spec) == "" {
		return m, nil
	}
	for _, part := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return nil, fmt.Errorf("%q is not RANK=PRIORITY", part)
		}
		k = strings.TrimSpace(k)
		if _, known := m[k]; !known {
			return nil, fmt.Errorf("unknown rank %q (ranks: %s)", k, strings.Join(topic.Ranks, ", "))
		}
		p, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || p < 0 || p > 1 {
			return nil, fmt.Errorf("%s=%s: a priority is a number in [0,1]", k, v)
		}
		m[k] = p
	}
	return m, nil
}

func runHosts(c *ucli.Context) error {
	if c.Args().Present() {
		return cli.Usagef("seed hosts reads no input: unexpected argument %q", c.Args().First())
	}
	scheme := c.String(flagScheme)
	if scheme != "http" && scheme != "https" {
		return cli.Usagef("--%s %q: http or https", flagScheme, scheme)
	}
	prios, err := rankPriorities(c.String(flagRankPriority))
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
	n := 0
	for _, h := range p.Hosts {
		host := strings.TrimPrefix(h.Host, "*.")
		u, err := urlx.Normalize(scheme + "://" + host + "/")
		if err != nil {
			st.Log.Errorf("host %q: %v", h.Host, err)
			continue
		}
		meta, err := json.Marshal(hostMeta{Rank: h.Rank, Name: h.Name})
		if err != nil {
			return errors.Join(err, st.Close())
		}
		rank := h.Rank
		if _, ok := prios[rank]; !ok {
			rank = topic.RankOther
		}
		r := record.URL{URL: u, Meta: meta}
		r.Priority, r.Site = prios[rank], urlx.SiteKey(u)
		if err := st.Out.Write(r); err != nil {
			return errors.Join(err, st.Close())
		}
		n++
	}
	st.Log.Infof("%d hosts", n)
	return st.Close()
}
