package main

import (
	"strconv"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
)

// linksUsage is --links' help, from the registry of strategies.
func linksUsage() string {
	return "link strategy: " + strings.Join(scoring.StrategyNames(), ", ") +
		", or a per-doc one + learned (shark+learned); " + graphStrategies() + " need --batch or --db"
}

// perDocStrategies and graphStrategies list the strategies of each kind.
func perDocStrategies() string { return strategiesOfKind(false) }
func graphStrategies() string  { return strategiesOfKind(true) }

func strategiesOfKind(graph bool) string {
	var names []string
	for _, s := range scoring.Strategies() {
		if s.Graph == graph {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, ", ")
}

// strategyFlags are the parameters of the link strategies, each once,
// its help naming the strategies that use it ("+learned": the learned
// model after a per-doc strategy) and its default the options'.
func strategyFlags() []ucli.Flag {
	var flags []ucli.Flag
	for _, p := range scoring.AllParams() {
		usage := strings.Join(p.Strategies, ", ") + ": " + p.Usage
		if p.IsBool() {
			flags = append(flags, &ucli.BoolFlag{Name: p.Name, Usage: usage})
			continue
		}
		def := p.DefaultText
		if def == "" {
			def = p.Value.String()
		}
		flags = append(flags, &ucli.StringFlag{Name: p.Name, Value: p.Value.String(), DefaultText: def, Usage: usage})
	}
	return flags
}

// strategyConfig sets the parameters of l's strategy from the flags given.
// A parameter flag given for a strategy that does not use it is a usage
// error that names both: a measurement would otherwise carry a setting
// that never applied (docs/score.md, "Parameters").
func strategyConfig(c *ucli.Context, l *scoring.LinkOptions) error {
	if _, _, err := scoring.ParseStrategy(l.Strategy); err != nil {
		return cli.Usagef("--%s %v", flagLinks, err) // "" too: the default is the flag's
	}
	params, err := l.Params()
	if err != nil {
		return cli.Usagef("--%s %v", flagLinks, err)
	}
	uses := map[string]bool{}
	for _, p := range params {
		uses[p.Name] = true
		if !c.IsSet(p.Name) {
			continue
		}
		v := c.String(p.Name)
		if p.IsBool() {
			v = strconv.FormatBool(c.Bool(p.Name))
		}
		if err := p.Value.Set(v); err != nil {
			return cli.Usagef("--%s %s: %v", p.Name, v, err)
		}
	}
	for _, p := range scoring.AllParams() {
		if c.IsSet(p.Name) && !uses[p.Name] {
			return cli.Usagef("--%s is a parameter of %s; --%s %s does not use it", p.Name, strings.Join(p.Strategies, ", "), flagLinks, l.Strategy)
		}
	}
	return nil
}
