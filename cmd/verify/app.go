package main

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/fetcher/fetchflags"
	"github.com/focuscrawl/focuscrawl/internal/render/renderflags"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
	"github.com/focuscrawl/focuscrawl/internal/siteverify"
	"github.com/focuscrawl/focuscrawl/internal/stage/verify"
	"github.com/focuscrawl/focuscrawl/internal/topic"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

const description = `Reads url records or plain URL lines (seed search output), groups them by site
(registrable domain, or exact host with --scope host) and writes one verdict per site,
in completion order: relevant, good pages, pages fetched, best score, the good pages as
evidence, the URL classes with their mean score, and the reason.

Each site is checked once. Its best-ranked URL (highest priority, then lowest meta.rank,
then input order) is the start page p0; the others are queued too. The heuristic picks,
page after page, the URL class (AbstractURL) with the best mean score so far and stops
as relevant after --num-rel-pages pages scoring >= --page-threshold, or as not relevant
after --num-exp-pages pages, --patience pages in a row without a good one, or when
nothing is left. A site whose start page cannot be fetched is not relevant, with the
error. Fetching is polite (robots.txt, per-host delay) as in fetch.`

func newApp() *ucli.App {
	app := cli.New(cli.App{
		Name:    "verify",
		Usage:   "decide which websites belong to a topic, fetching few pages per site",
		Args:    "[FILE...]",
		Example: `seed search --query 网上书店 --query "作者 定价 购物车 书" | verify --topic examples/topics/bookstores.yaml > verdicts.jsonl`,
		Flags:   append(append(append(cli.StreamFlags(), verifyFlags()...), fetchflags.Flags(fetcherFlags)...), renderflags.Flags()...),
		Action:  run,
	})
	app.Description = description
	return app
}

func run(c *ucli.Context) error {
	if c.String(cli.FlagTopic) == "" {
		return cli.Usagef("--topic FILE is required: the profile whose rules (or text) pages are scored against")
	}
	prof, err := topic.Load(c.String(cli.FlagTopic))
	if err != nil {
		return &cli.UsageError{Err: err}
	}
	o := verify.Options{Sites: c.Int(flagConcurrency), Lookahead: c.Int(flagLookahead), GroupIdle: c.Duration(flagGroupIdle), Pages: c.String(flagPages)}
	if o.Verify, err = optionsFromFlags(c, prof.Thresholds.Page); err != nil {
		return err
	}
	if o.Judge, err = newJudge(c, prof); err != nil {
		return err
	}
	if o.Judged, err = verify.ReadJudged(c.StringSlice(flagSkipJudged)); err != nil {
		return cli.Usagef("--%s: %v", flagSkipJudged, err)
	}
	if o.Render, err = renderflags.Read(c); err != nil {
		return err
	}
	if o.Fetcher, err = fetchflags.Config(c, fetcherFlags); err != nil {
		return err
	}
	s, err := cli.OpenStreamWith(c, c.Args().Slice(), c.App.Reader, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return err
	}
	return verify.RunStream(c.Context, s, o)
}

// newJudge builds the page judge of --page, --combo, --rules-on and --idf.
func newJudge(c *ucli.Context, prof *topic.Profile) (*siteverify.DocJudge, error) {
	po := scoring.DefaultPageOptions()
	po.Method = c.String(flagPage)
	combo, err := scoring.ParseCombo(c.String(flagCombo))
	if err != nil {
		return nil, cli.Usagef("--%s: %v", flagCombo, err)
	}
	po.Combo = combo
	jo := siteverify.JudgeOptions{Profile: prof, Page: po, RulesOn: c.String(flagRulesOn)}
	if name := c.String(flagIDF); name != "" {
		if jo.IDF, err = vsm.Load(name); err != nil {
			return nil, cli.Usagef("--%s: %v", flagIDF, err)
		}
	}
	j, err := siteverify.NewJudge(jo)
	if err != nil {
		return nil, cli.Usagef("%v", err)
	}
	return j, nil
}
