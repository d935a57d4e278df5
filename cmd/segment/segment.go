package main

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/segmenter"
	"github.com/focuscrawl/focuscrawl/internal/stage/segment"
	"github.com/focuscrawl/focuscrawl/internal/text"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

// Flags of segment.
const (
	flagWorkers    = "workers"
	flagKeepHTML   = "keep-html"
	flagLinkTokens = "link-tokens"
	flagTokens     = "tokens"
	flagEmit       = "emit"
	flagHubRatio   = "hub-ratio"
	flagTZ         = "tz"
	flagMaxBytes   = "max-bytes"
)

func newApp() *ucli.App {
	return cli.New(cli.App{
		Name:    "segment",
		Usage:   "HTML pages -> docs: title, metadata, page type, blocks, main content, links, tokens",
		Args:    "[FILE...]",
		Example: "fetch urls.txt | segment --topic forestry.yaml | score --topic forestry.yaml",
		Flags: append(append(cli.StreamFlags(), linkFlags()...),
			cli.TopicFlag(false),
			&ucli.IntFlag{Name: flagWorkers, Value: runtime.GOMAXPROCS(0), DefaultText: "number of CPUs", Usage: "pages segmented in parallel (output keeps input order)"},
			&ucli.BoolFlag{Name: flagTokens, Value: true, Usage: "tokenize title and content (gse for Chinese, loaded on the first CJK text)"},
			&ucli.BoolFlag{Name: flagLinkTokens, Usage: "tokenize every link's anchor text into the link's tokens"},
			&ucli.BoolFlag{Name: flagKeepHTML, Usage: "keep the page's HTML in the doc"},
			&ucli.StringFlag{Name: flagEmit, Value: "docs", Usage: "docs: one doc per page; blocks: one block record per block"},
			&ucli.Float64Flag{Name: flagHubRatio, Value: segmenter.DefaultHubRatio, Usage: "μ: a page whose anchor text over other text exceeds it is a hub"},
			&ucli.StringFlag{Name: flagTZ, Value: "auto", Usage: "time zone of dates without one: auto (+08:00 for Chinese pages, UTC otherwise), an offset like +08:00, or a name like Asia/Shanghai"},
			&ucli.StringFlag{Name: flagMaxBytes, Value: "16MiB", Usage: "HTML segmented per page; longer pages are cut"},
		),
		Action:   runSegment,
		Commands: []*ucli.Command{evalCommand()},
	})
}

// parseTZ reads --tz: auto, an offset (+08:00, -0500, Z) or an IANA name.
func parseTZ(s string) (*time.Location, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "", "auto":
		return nil, nil
	case "utc", "z", "gmt":
		return time.UTC, nil
	}
	if s[0] == '+' || s[0] == '-' {
		t, err := time.Parse("-07:00", s)
		if err != nil {
			t, err = time.Parse("-0700", s)
		}
		if err != nil {
			return nil, fmt.Errorf("%q is not an offset like +08:00", s)
		}
		_, off := t.Zone()
		return time.FixedZone(s, off), nil
	}
	return time.LoadLocation(s)
}

// options builds the segmenter options from the flags and the profile.
func options(c *ucli.Context) (segmenter.Options, error) {
	o := segmenter.Options{
		KeepHTML:   c.Bool(flagKeepHTML),
		LinkTokens: c.Bool(flagLinkTokens),
		HubRatio:   c.Float64(flagHubRatio),
	}
	if o.HubRatio <= 0 {
		return o, cli.Usagef("--%s: must be above 0", flagHubRatio)
	}
	loc, err := parseTZ(c.String(flagTZ))
	if err != nil {
		return o, cli.Usagef("--%s: %v", flagTZ, err)
	}
	o.Location = loc
	mb, err := cli.ParseSize(c.String(flagMaxBytes))
	if err != nil || mb <= 0 {
		return o, cli.Usagef("--%s: %q is not a size like 16MiB", flagMaxBytes, c.String(flagMaxBytes))
	}
	o.MaxBytes = int(mb)
	if err := linkBounds(c, &o); err != nil {
		return o, err
	}
	var to text.Options
	if path := c.String(cli.FlagTopic); path != "" {
		p, err := topic.Load(path)
		if err != nil {
			return o, cli.Usagef("--%s: %w", cli.FlagTopic, err)
		}
		o.LinkStopwords, o.AdHosts, o.Rules = p.LinkStopwords, p.AdHosts, p.Extract
		to = text.Options{Dictionary: p.Dictionary, Stopwords: p.Stopwords}
	}
	o.NoTokens = !c.Bool(flagTokens)
	if !o.NoTokens || o.LinkTokens {
		o.Tokenizer = text.NewTokenizer(to)
	}
	return o, nil
}

func runSegment(c *ucli.Context) error {
	emit := c.String(flagEmit)
	if emit != "docs" && emit != "blocks" {
		return cli.Usagef("--%s: %q is not docs or blocks", flagEmit, emit)
	}
	if c.Int(flagWorkers) < 1 {
		return cli.Usagef("--%s: must be at least 1", flagWorkers)
	}
	o, err := options(c)
	if err != nil {
		return err
	}
	sg, err := segmenter.New(o)
	if err != nil {
		return cli.Usagef("--%s: %w", cli.FlagTopic, err)
	}
	s, err := cli.OpenStream(c)
	if err != nil {
		return err
	}
	return segment.RunStream(c.Context, s, segment.Options{Segmenter: sg, Blocks: emit == "blocks", Workers: c.Int(flagWorkers)})
}
