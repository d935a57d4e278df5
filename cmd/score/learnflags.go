package main

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
)

// The flags of the frontier's side of the learned strategies (docs/score.md,
// "learned"); the learned model's own parameters are the strategy's
// (scoring.LearnOptions).
const (
	flagClassWeight  = "class-weight"
	flagClassPseudo  = "class-pseudo"
	flagClassEpsilon = "class-epsilon"
)

func learnFlags() []ucli.Flag {
	fl := frontier.DefaultLearning()
	f := func(name string, v float64, usage string) ucli.Flag {
		return &ucli.Float64Flag{Name: name, Value: v, Usage: usage}
	}
	return []ucli.Flag{
		f(flagClassWeight, fl.Weight, "learned, +learned, with --db: exponent of a URL class's ratio (label/priority, against its host's) in the frontier's order (0: no re-ranking)"),
		f(flagClassPseudo, fl.Pseudo, "learned, +learned, with --db: weight of a class's parent estimate, in pages"),
		f(flagClassEpsilon, fl.Epsilon, "learned, +learned, with --db: re-rank a class's queued URLs when its ratio moves by more than this share"),
	}
}

// learnConfig checks the --class-* flags, which only a learning strategy
// uses.
func learnConfig(c *ucli.Context, cfg *scoring.Config) error {
	if !cfg.Links.Learns() {
		for _, name := range []string{flagClassWeight, flagClassPseudo, flagClassEpsilon} {
			if c.IsSet(name) {
				return cli.Usagef("--%s is a parameter of learned, +learned; --%s %s does not use it", name, flagLinks, cfg.Links.Strategy)
			}
		}
	}
	if _, err := classLearning(c); err != nil {
		return err
	}
	return nil
}

func classLearning(c *ucli.Context) (frontier.Learning, error) {
	l := frontier.Learning{Weight: c.Float64(flagClassWeight), Pseudo: c.Float64(flagClassPseudo), Epsilon: c.Float64(flagClassEpsilon)}
	if err := l.Validate(); err != nil {
		// Name the flag: each one alone on the defaults tells which.
		for _, f := range []struct {
			name string
			set  func(*frontier.Learning)
		}{
			{flagClassWeight, func(d *frontier.Learning) { d.Weight = l.Weight }},
			{flagClassPseudo, func(d *frontier.Learning) { d.Pseudo = l.Pseudo }},
			{flagClassEpsilon, func(d *frontier.Learning) { d.Epsilon = l.Epsilon }},
		} {
			d := frontier.DefaultLearning()
			f.set(&d)
			if e := d.Validate(); e != nil {
				return l, cli.Usagef("--%s: %v", f.name, e)
			}
		}
		return l, cli.Usagef("--class-*: %v", err)
	}
	return l, nil
}
