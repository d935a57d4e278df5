package main

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
)

// The flags of the learned strategies (docs/score.md, "learned").
const (
	flagLearnWeight   = "learn-weight"
	flagLearnWarmup   = "learn-warmup"
	flagLearnRate     = "learn-rate"
	flagLearnRemember = "learn-remember"
	flagClassWeight   = "class-weight"
	flagClassPseudo   = "class-pseudo"
	flagClassEpsilon  = "class-epsilon"
)

func learnFlags() []ucli.Flag {
	l, fl := scoring.DefaultLearnOptions(), frontier.DefaultLearning()
	f := func(name string, v float64, usage string) ucli.Flag {
		return &ucli.Float64Flag{Name: name, Value: v, Usage: usage, EnvVars: cli.Env(name)}
	}
	return []ucli.Flag{
		f(flagLearnWeight, l.Weight, "+learned: α, the link model's share of a priority once trained"),
		f(flagLearnWarmup, l.Warmup, "learned: pages after which the model has half its share"),
		f(flagLearnRate, l.Rate, "learned: AdaGrad learning rate"),
		&ucli.IntFlag{Name: flagLearnRemember, Value: l.Remember, Usage: "learned: links whose features are kept until their page comes back", EnvVars: cli.Env(flagLearnRemember)},
		f(flagClassWeight, fl.Weight, "learned with --db: exponent of a URL class's ratio (label/priority, against its host's) in the frontier's order (0: no re-ranking)"),
		f(flagClassPseudo, fl.Pseudo, "learned with --db: weight of a class's parent estimate, in pages"),
		f(flagClassEpsilon, fl.Epsilon, "learned with --db: re-rank a class's queued URLs when its ratio moves by more than this share"),
	}
}

// learnConfig reads the learned model's flags into cfg.
func learnConfig(c *ucli.Context, cfg *scoring.Config) error {
	o := &cfg.Links.Learn
	o.Weight, o.Warmup, o.Rate, o.Remember = c.Float64(flagLearnWeight), c.Float64(flagLearnWarmup), c.Float64(flagLearnRate), c.Int(flagLearnRemember)
	switch {
	case !(o.Weight >= 0 && o.Weight <= 1):
		return cli.Usagef("--%s %v: want a number in [0,1]", flagLearnWeight, o.Weight)
	case !(o.Warmup >= 0):
		return cli.Usagef("--%s %v: want a number ≥ 0", flagLearnWarmup, o.Warmup)
	case !(o.Rate > 0):
		return cli.Usagef("--%s %v: want a number above 0", flagLearnRate, o.Rate)
	case o.Remember < 0:
		return cli.Usagef("--%s must be ≥ 0", flagLearnRemember)
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
