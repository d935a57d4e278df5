package main

import (
	"fmt"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/fetcher/fetchflags"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
	"github.com/focuscrawl/focuscrawl/internal/siteverify"
)

// Flag names of verify's own settings. Their environment variables are
// verify's own (FOCUSCRAWL_VERIFY_STRATEGY, cli.FlagEnv), so that they never
// pick up a variable meant for another stage's flag of the same name.
const (
	flagConcurrency   = "concurrency"
	flagStrategy      = "strategy"
	flagScope         = "scope"
	flagPageThreshold = "page-threshold"
	flagNumRelPages   = "num-rel-pages"
	flagNumExpPages   = "num-exp-pages"
	flagPatience      = "patience"
	flagPrior         = "prior"
	flagClasses       = "classes"
	flagPage          = "page"
	flagCombo         = "combo"
	flagRulesOn       = "rules-on"
	flagIDF           = "idf"
	flagPages         = "pages"
	flagLookahead     = "lookahead"
	flagGroupIdle     = "group-idle"
	flagSkipJudged    = "skip-judged"
)

// fetcherFlags are the fetcher's flags verify offers, with fetch's names,
// defaults and environment variables. --concurrency is verify's own (sites
// verified at once, each with one request in flight); the settings left
// out keep the fetcher's defaults.
var fetcherFlags = fetchflags.Options{Omit: []string{
	fetchflags.Concurrency, fetchflags.TLSTimeout, fetchflags.Accept, fetchflags.Header,
	fetchflags.RobotsErrorTTL, fetchflags.Cookies, fetchflags.Queue,
}}

func verifyFlags() []ucli.Flag {
	d := siteverify.DefaultOptions()
	return []ucli.Flag{
		cli.TopicFlag(false),
		&ucli.IntFlag{Name: flagConcurrency, Aliases: []string{"c"}, Value: 16, Usage: "requests in flight over all hosts, as in fetch; verify keeps one per site, so it is also the number of sites verified at once"},
		&ucli.StringFlag{Name: flagStrategy, Value: d.Strategy, Usage: "heuristic (best-first over URL classes, docs/algorithms.md §1) or bfs (the baseline)"},
		&ucli.StringFlag{Name: flagScope, Value: d.Scope, Usage: "what one site is: site (registrable domain) or host (exact host)"},
		&ucli.Float64Flag{Name: flagPageThreshold, Value: d.PageThreshold, Usage: "score from which a page is good (when not given: the profile's thresholds.page)"},
		&ucli.IntFlag{Name: flagNumRelPages, Value: d.NumRelPages, Usage: "good pages that make a site relevant"},
		&ucli.IntFlag{Name: flagNumExpPages, Value: d.NumExpPages, Usage: "most pages fetched per site"},
		&ucli.IntFlag{Name: flagPatience, Value: d.Patience, Usage: "give up a site after this many pages in a row without a good one (0: never, the paper's algorithm)"},
		&ucli.StringFlag{Name: flagPrior, Value: d.Prior.String(), Usage: "H of a class with no page fetched yet: parent (score of the page its first link was on), best-parent, mean-parent, or a number in [0,1]"},
		&ucli.StringFlag{Name: flagClasses, Value: d.Classes, Usage: "URL classes: template (AbstractURL with digit runs in the path as {n}) or abstract (the paper's AbstractURL)"},
		&ucli.StringFlag{Name: flagPage, Value: scoring.PageRules, Usage: "page score: rules (F(P,R)), " + strings.Join([]string{scoring.PageVSM, scoring.PagePearson, scoring.PageCombo}, ", ")},
		&ucli.StringFlag{Name: flagCombo, Value: "vsm=0.5,rules=0.5", Usage: "weights of --page combo (vsm, pearson, rules)"},
		&ucli.StringFlag{Name: flagRulesOn, Value: siteverify.RulesOnPage, Usage: "text the rules see: page (all visible text but ads), content (title and main text, as score), html (also the raw HTML)"},
		&ucli.StringFlag{Name: flagIDF, Usage: "IDF table `FILE` for vsm and pearson (score idf build); default: the built-in one"},
		&ucli.StringFlag{Name: flagPages, Usage: "also write every page fetched to `FILE` (page records; .gz/.zst compress)"},
		&ucli.IntFlag{Name: flagLookahead, Value: 10000, Usage: "start a site once this many more input URLs were read after its first (or at the end of the input)"},
		&ucli.StringSliceFlag{Name: flagSkipJudged, Usage: "verdicts `FILE` of an earlier run (repeatable): its sites with a verdict are not verified again (canceled and failed ones are)"},
		&ucli.DurationFlag{Name: flagGroupIdle, Value: time.Second, Usage: "start the sites read so far when the input has been idle this long"},
	}
}

// optionsFromFlags builds the verifier's options, naming the flag at
// fault. threshold is the profile's thresholds.page.
func optionsFromFlags(c *ucli.Context, threshold float64) (siteverify.Options, error) {
	o := siteverify.DefaultOptions()
	o.Strategy = c.String(flagStrategy)
	o.Scope = c.String(flagScope)
	o.PageThreshold = threshold
	if c.IsSet(flagPageThreshold) {
		o.PageThreshold = c.Float64(flagPageThreshold)
	}
	o.NumRelPages = c.Int(flagNumRelPages)
	o.NumExpPages = c.Int(flagNumExpPages)
	o.Patience = c.Int(flagPatience)
	o.Classes = c.String(flagClasses)
	p, err := siteverify.ParsePrior(c.String(flagPrior))
	if err != nil {
		return o, cli.Usagef("--%s: %v", flagPrior, err)
	}
	o.Prior = p
	checks := []struct {
		flag string
		bad  bool
		want string
	}{
		{flagStrategy, o.Strategy != siteverify.StrategyHeuristic && o.Strategy != siteverify.StrategyBFS, strings.Join(siteverify.Strategies, " or ")},
		{flagScope, o.Scope != siteverify.ScopeSite && o.Scope != siteverify.ScopeHost, "site or host"},
		{flagClasses, o.Classes != siteverify.ClassesTemplate && o.Classes != siteverify.ClassesAbstract, strings.Join(siteverify.ClassChoices, " or ")},
		{flagPageThreshold, !(o.PageThreshold >= 0 && o.PageThreshold <= 1), "a number in [0,1]"},
		{flagNumRelPages, o.NumRelPages < 1, "at least 1"},
		{flagNumExpPages, o.NumExpPages < 1, "at least 1"},
		{flagPatience, o.Patience < 0, "0 or more"},
		{flagConcurrency, c.Int(flagConcurrency) < 1, "at least 1"},
		{flagLookahead, c.Int(flagLookahead) < 0, "0 or more"},
		{flagGroupIdle, c.Duration(flagGroupIdle) < 0, "0 or more"},
	}
	for _, ch := range checks {
		if ch.bad {
			return o, cli.Usagef("--%s %s: want %s", ch.flag, valueOf(c, ch.flag), ch.want)
		}
	}
	return o, nil
}

func valueOf(c *ucli.Context, flag string) string {
	if v := c.Value(flag); v != nil {
		return fmt.Sprint(v)
	}
	return ""
}
