package main

import (
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
)

// Flag names.
const (
	flagPage         = "page"
	flagCombo        = "combo"
	flagKeywordShare = "keyword-share"
	flagKeywordCover = "keyword-cover"
	flagRulesOn      = "rules-on"
	flagSimScale     = "sim-scale"
	flagLinks        = "links"
	flagIDF          = "idf"
	flagBatch        = "batch"
	flagDB           = "db"
	flagWindow       = "window"
	flagWindowWait   = "window-wait"
	flagDropPruned   = "drop-pruned"
	flagRemember     = "remember"
	flagWorkers      = "workers"
)

func scoreFlags() []ucli.Flag {
	p := scoring.DefaultPageOptions()
	f := func(name string, v float64, usage string) ucli.Flag {
		return &ucli.Float64Flag{Name: name, Value: v, Usage: usage}
	}
	flags := append(cli.StreamFlags(), cli.TopicFlag(false),
		&ucli.StringFlag{Name: flagPage, Value: p.Method, Usage: "page method: " + strings.Join(scoring.PageMethods, ", ")},
		&ucli.StringFlag{Name: flagCombo, Value: "vsm=0.5,rules=0.5", Usage: "weights of --page combo (vsm, pearson, rules)"},
		f(flagKeywordShare, p.KeywordShare, "κ: share of vsm and pearson given to the weighted keyword cover"),
		f(flagKeywordCover, p.KeywordCover, "share of the keyword weight a page must hold for full cover"),
		&ucli.Float64Flag{Name: flagSimScale, Value: p.SimScale, Usage: "τ: vsm and pearson report 1 − e^(−sim/τ) of the raw similarity (0: raw)"},
		&ucli.StringFlag{Name: flagRulesOn, Value: cli.RulesOnContent, Usage: "apply the rules to: content (title and main text), html (also the raw HTML of segment --keep-html); verify also has page"},
		&ucli.StringFlag{Name: flagLinks, Value: scoring.DefaultStrategy, Usage: linksUsage()},
	)
	flags = append(flags, strategyFlags()...)
	flags = append(flags,
		&ucli.StringFlag{Name: flagIDF, Usage: "IDF table `FILE` (score idf build); default: the built-in Chinese and English table"},
		&ucli.StringFlag{Name: flagModel, Usage: "page model `FILE` (score train): a page's score is its probability, relevant at the model's threshold"},
		&ucli.BoolFlag{Name: flagBatch, Usage: "read all input, then score it as one batch (needed by " + graphStrategies() + " without --db)"},
		&ucli.StringFlag{Name: flagDB, Usage: "frontier store `FILE` (seed add --db): sibling scores, n′/n and the crawled link graph"},
		&ucli.IntFlag{Name: flagWindow, Value: 500, Usage: graphStrategies() + " with --db and without --batch: docs scored together"},
		&ucli.DurationFlag{Name: flagWindowWait, Value: 200 * time.Millisecond, Usage: "with --window: score a partial window when no doc came for this long (a crawl loop waits for it)"},
		&ucli.BoolFlag{Name: flagDropPruned, Usage: "leave out links under thresholds.link instead of marking them pruned"},
		&ucli.IntFlag{Name: flagRemember, Value: 1_000_000, Usage: "page scores kept in memory for sibling scores when there is no --db"},
		&ucli.IntFlag{Name: flagWorkers, Value: 0, Usage: "docs scored in parallel (0: one per core)"},
	)
	return append(flags, learnFlags()...)
}

// config reads the scoring flags.
func config(c *ucli.Context) (scoring.Config, error) {
	cfg := scoring.Config{Page: scoring.DefaultPageOptions(), Links: scoring.DefaultLinkOptions(),
		DropPruned: c.Bool(flagDropPruned), Remember: c.Int(flagRemember)}
	p, l := &cfg.Page, &cfg.Links
	p.Method = c.String(flagPage)
	if !contains(scoring.PageMethods, p.Method) {
		return cfg, cli.Usagef("--page %q: want one of %s", p.Method, strings.Join(scoring.PageMethods, ", "))
	}
	combo, err := scoring.ParseCombo(c.String(flagCombo))
	if err != nil {
		return cfg, cli.Usagef("--combo %v", err)
	}
	p.Combo = combo
	rulesOn, err := rulesOnChoice.Value(c)
	if err != nil {
		return cfg, err
	}
	p.RulesOnHTML = rulesOn == cli.RulesOnHTML
	l.Strategy = c.String(flagLinks)
	if err := strategyConfig(c, l); err != nil {
		return cfg, err
	}
	if err := learnConfig(c, &cfg); err != nil {
		return cfg, err
	}
	unit := []struct {
		name string
		dst  *float64
	}{
		{flagKeywordShare, &p.KeywordShare}, {flagKeywordCover, &p.KeywordCover}, {flagSimScale, &p.SimScale},
	}
	for _, u := range unit {
		v := c.Float64(u.name)
		if v < 0 || v > 1 || v != v {
			return cfg, cli.Usagef("--%s %v: want a number in [0,1]", u.name, v)
		}
		*u.dst = v
	}
	if p.KeywordCover == 0 {
		return cfg, cli.Usagef("--%s must be above 0", flagKeywordCover)
	}
	if cfg.Remember < 0 {
		return cfg, cli.Usagef("--%s must be ≥ 0", flagRemember)
	}
	return cfg, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// rulesOnChoice is --rules-on in the words of verify (docs/cli.md): score
// sees only a doc's title and content, so it has content and html, not
// page; "text" was score's old word for content.
var rulesOnChoice = cli.Choice{Flag: flagRulesOn, Values: []string{cli.RulesOnContent, cli.RulesOnHTML},
	Deprecated: map[string]string{"text": cli.RulesOnContent}}
