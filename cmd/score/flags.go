package main

import (
	"fmt"
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
	flagDelta        = "delta"
	flagBeta         = "beta"
	flagGamma        = "gamma"
	flagBlockGamma   = "block-gamma"
	flagTheta        = "theta"
	flagNoiseWeight  = "noise-weight"
	flagBlockNorm    = "block-norm"
	flagSharePrior   = "share-prior"
	flagSharePseudo  = "share-pseudo"
	flagBlockForm    = "block-shark-form"
	flagHeuristic    = "heuristic"
	flagSkyReach     = "skyreach"
	flagRWMin        = "rw-min"
	flagDamping      = "damping"
	flagTolerance    = "tolerance"
	flagMaxIter      = "max-iter"
	flagRWFloor      = "rw-floor"
	flagLMGamma      = "lm-gamma"
	flagTopK         = "top-k"
	flagMaxPosting   = "max-posting"
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
	p, l := scoring.DefaultPageOptions(), scoring.DefaultLinkOptions()
	f := func(name string, v float64, usage string) ucli.Flag {
		return &ucli.Float64Flag{Name: name, Value: v, Usage: usage, EnvVars: cli.Env(name)}
	}
	flags := append(cli.StreamFlags(), cli.TopicFlag(false),
		&ucli.StringFlag{Name: flagPage, Value: p.Method, Usage: "page method: " + strings.Join(scoring.PageMethods, ", "), EnvVars: cli.Env(flagPage)},
		&ucli.StringFlag{Name: flagCombo, Value: "vsm=0.5,rules=0.5", Usage: "weights of --page combo (vsm, pearson, rules)", EnvVars: cli.Env(flagCombo)},
		f(flagKeywordShare, p.KeywordShare, "κ: share of vsm and pearson given to the weighted keyword cover"),
		f(flagKeywordCover, p.KeywordCover, "share of the keyword weight a page must hold for full cover"),
		&ucli.Float64Flag{Name: flagSimScale, Value: p.SimScale, Usage: "τ: vsm and pearson report 1 − e^(−sim/τ) of the raw similarity (0: raw)", EnvVars: cli.Env(flagSimScale)},
		&ucli.StringFlag{Name: flagRulesOn, Value: cli.RulesOnContent, Usage: "apply the rules to: content (title and main text), html (also the raw HTML of segment --keep-html); verify also has page", EnvVars: cli.Env(flagRulesOn)},
		&ucli.StringFlag{Name: flagLinks, Value: defaultLinks, Usage: "link strategy: " + strings.Join(scoring.LinkStrategies, ", ") + ", or a per-doc one + learned (shark+learned); ipagerank, linkmodel and skyreach need --batch or --db", EnvVars: cli.Env(flagLinks)},
		f(flagDelta, l.Delta, "shark: δ, decay of the inherited score"),
		f(flagBeta, l.Beta, "shark: β, anchor vs context in the neighbourhood score"),
		f(flagGamma, l.Gamma, "shark: γ, inherited vs neighbourhood score"),
		f(flagBlockGamma, l.BlockGamma, "block-shark: γ_b, block relevance vs sibling scores"),
		f(flagTheta, l.Theta, "block-shark: θ, λ·potential vs the relevant share n′/n"),
		f(flagNoiseWeight, l.NoiseWeight, "block-shark: factor of λ for nav/ad/footer blocks, link stop words, ad hosts"),
		&ucli.BoolFlag{Name: flagBlockNorm, Usage: "block-shark: λ relative to the page's best block (an addition to the reconstruction)", EnvVars: cli.Env(flagBlockNorm)},
		&ucli.StringFlag{Name: flagSharePrior, Value: "0.5", Usage: "block-shark: n′/n while no child is crawled: a number, or \"page\" for the page's own score", EnvVars: cli.Env(flagSharePrior)},
		&ucli.Float64Flag{Name: flagSharePseudo, Value: 0, DefaultText: "4 modulated, 0 additive", Usage: "block-shark: weight of the prior in n′/n, in pseudo-children, once children are crawled", EnvVars: cli.Env(flagSharePseudo)},
		&ucli.StringFlag{Name: flagBlockForm, Value: l.BlockSharkForm, Usage: "block-shark: how its terms combine: " + strings.Join(scoring.BlockSharkForms, ", ") + "; additive is the earlier reconstruction θ·λ·potential + (1−θ)·n′/n", EnvVars: cli.Env(flagBlockForm)},
		&ucli.StringFlag{Name: flagHeuristic, Value: "uh=0.2,teh=0.3,tih=0.1,rw=0.4", Usage: "heuristic: weights of UH, TeH, TiH and RW", EnvVars: cli.Env(flagHeuristic)},
		&ucli.StringFlag{Name: flagSkyReach, Value: "h=0.7,ipr=0.3", Usage: "skyreach: weights of the URL heuristics (as --heuristic weighs them) and of the target's IPageRank", EnvVars: cli.Env(flagSkyReach)},
		f(flagRWMin, l.RWMin, "heuristic, ipagerank: c, the least Θ that RW counts"),
		f(flagDamping, l.Damping, "ipagerank: d"),
		f(flagTolerance, l.Tolerance, "ipagerank, linkmodel: convergence tolerance"),
		&ucli.IntFlag{Name: flagMaxIter, Value: l.MaxIter, Usage: "ipagerank, linkmodel: most iterations", EnvVars: cli.Env(flagMaxIter)},
		f(flagRWFloor, l.RWFloor, "ipagerank: least weight of a link in the surfer's choice"),
		f(flagLMGamma, l.LinkGamma, "linkmodel: γ"),
		&ucli.IntFlag{Name: flagTopK, Value: l.TopK, Usage: "linkmodel: k, entries kept per row of V", EnvVars: cli.Env(flagTopK)},
		&ucli.IntFlag{Name: flagMaxPosting, Value: l.MaxPosting, Usage: "linkmodel: skip terms found in more candidates than this", EnvVars: cli.Env(flagMaxPosting)},
		&ucli.StringFlag{Name: flagIDF, Usage: "IDF table `FILE` (score idf build); default: the built-in Chinese and English table", EnvVars: cli.Env(flagIDF)},
		&ucli.StringFlag{Name: flagModel, Usage: "page model `FILE` (score train): a page's score is its probability, relevant at the model's threshold", EnvVars: cli.Env(flagModel)},
		&ucli.BoolFlag{Name: flagBatch, Usage: "read all input, then score it as one batch (needed by ipagerank and linkmodel without --db)", EnvVars: cli.Env(flagBatch)},
		&ucli.StringFlag{Name: flagDB, Usage: "frontier store `FILE` (seed add --db): sibling scores, n′/n and the crawled link graph", EnvVars: cli.Env(flagDB)},
		&ucli.IntFlag{Name: flagWindow, Value: 500, Usage: "ipagerank, linkmodel with --db and without --batch: docs scored together", EnvVars: cli.Env("score-" + flagWindow)},
		&ucli.DurationFlag{Name: flagWindowWait, Value: 200 * time.Millisecond, Usage: "with --window: score a partial window when no doc came for this long (a crawl loop waits for it)", EnvVars: cli.Env(flagWindowWait)},
		&ucli.BoolFlag{Name: flagDropPruned, Usage: "leave out links under thresholds.link instead of marking them pruned", EnvVars: cli.Env(flagDropPruned)},
		&ucli.IntFlag{Name: flagRemember, Value: 1_000_000, Usage: "page scores kept in memory for sibling scores when there is no --db", EnvVars: cli.Env(flagRemember)},
		&ucli.IntFlag{Name: flagWorkers, Value: 0, Usage: "docs scored in parallel (0: one per core)", EnvVars: cli.Env(flagWorkers)},
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
	if l.Strategy, l.Learn.On, err = scoring.ParseStrategy(c.String(flagLinks)); err != nil {
		return cfg, cli.Usagef("--links %v", err)
	}
	if err := learnConfig(c, &cfg); err != nil {
		return cfg, err
	}
	l.BlockNorm = c.Bool(flagBlockNorm)
	if sp := c.String(flagSharePrior); sp == "page" {
		l.SharePrior = -1
	} else if _, err := fmt.Sscan(sp, &l.SharePrior); err != nil || l.SharePrior < 0 || l.SharePrior > 1 {
		return cfg, cli.Usagef("--%s %q: want a number in [0,1] or \"page\"", flagSharePrior, sp)
	}
	if l.BlockSharkForm = c.String(flagBlockForm); !contains(scoring.BlockSharkForms, l.BlockSharkForm) {
		return cfg, cli.Usagef("--%s %q: want one of %s", flagBlockForm, l.BlockSharkForm, strings.Join(scoring.BlockSharkForms, ", "))
	}
	l.SharePseudo = scoring.DefaultSharePseudo(l.BlockSharkForm)
	if c.IsSet(flagSharePseudo) {
		l.SharePseudo = c.Float64(flagSharePseudo)
	}
	if l.SharePseudo < 0 {
		return cfg, cli.Usagef("--%s must be ≥ 0", flagSharePseudo)
	}
	if l.Heuristic, err = scoring.ParseHeuristic(c.String(flagHeuristic)); err != nil {
		return cfg, cli.Usagef("--heuristic %v", err)
	}
	if l.SkyReach, err = scoring.ParseSkyReach(c.String(flagSkyReach)); err != nil {
		return cfg, cli.Usagef("--%s %v", flagSkyReach, err)
	}
	unit := []struct {
		name string
		dst  *float64
	}{
		{flagKeywordShare, &p.KeywordShare}, {flagKeywordCover, &p.KeywordCover}, {flagSimScale, &p.SimScale},
		{flagDelta, &l.Delta}, {flagBeta, &l.Beta}, {flagGamma, &l.Gamma},
		{flagBlockGamma, &l.BlockGamma}, {flagTheta, &l.Theta}, {flagNoiseWeight, &l.NoiseWeight},
		{flagRWMin, &l.RWMin}, {flagDamping, &l.Damping}, {flagRWFloor, &l.RWFloor}, {flagLMGamma, &l.LinkGamma},
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
	if l.Damping >= 1 || l.LinkGamma >= 1 {
		return cfg, cli.Usagef("--%s and --%s must be below 1 to converge", flagDamping, flagLMGamma)
	}
	if l.Tolerance = c.Float64(flagTolerance); l.Tolerance <= 0 {
		return cfg, cli.Usagef("--%s must be above 0", flagTolerance)
	}
	for name, dst := range map[string]*int{flagMaxIter: &l.MaxIter, flagTopK: &l.TopK, flagMaxPosting: &l.MaxPosting} {
		if *dst = c.Int(name); *dst < 1 {
			return cfg, cli.Usagef("--%s must be at least 1", name)
		}
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

// defaultLinks is score's link strategy when --links is not given: shark,
// the best strategy of docs/benchmarks.md on simweb (harvest rate 0.91 at
// 2,000 pages against block-shark's 0.63). crawl.sh runs shark+learned,
// which learns from the frontier it gives score (--db) and measured best on
// the dev web (docs/realweb.md); score alone, on a stream of docs, has no
// crawl to learn from.
const defaultLinks = scoring.LinksShark
