package main

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
	"github.com/focuscrawl/focuscrawl/internal/stage/score"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

// description is score's help text; the strategies of each kind come
// from the registry.
func description() string {
	return `Reads doc records (segment output) and writes scored docs: score, relevant
(score >= thresholds.page), scores per page method, and links with a priority in [0,1];
links under thresholds.link are marked "pruned" (left out with --drop-pruned).

` + perDocStrategies() + ` score each doc as it arrives.
` + graphStrategies() + ` need the link graph: give --batch (read all input,
then score it as one batch) or --db FILE (the frontier store's graph, scored in windows
of --window docs, the graph kept between windows); without either they refuse to run. block-shark takes sibling scores
and n'/n from --db when given, else from the docs seen so far. A strategy's parameter
(--delta, --theta, ...) given with a strategy that does not use it is a usage error.`
}

func newApp() *ucli.App {
	app := cli.New(cli.App{
		Name:    "score",
		Usage:   "page relevance and link priorities against a topic",
		Args:    "[FILE...]",
		Example: "segment --topic t.yaml pages.jsonl | score --topic t.yaml --links block-shark",
		Flags:   scoreFlags(),
		Action:  runScore,
		Commands: []*ucli.Command{{
			Name:        "idf",
			Usage:       "build and trim IDF tables",
			Subcommands: []*ucli.Command{idfBuildCommand(), idfTrimCommand()},
		}, trainCommand()},
	})
	app.Description = description()
	return app
}

func runScore(c *ucli.Context) error {
	cfg, err := config(c)
	if err != nil {
		return err
	}
	prof, err := loadTopic(c)
	if err != nil {
		return err
	}
	if err := checkRules(c, prof, &cfg); err != nil {
		return err
	}
	class, err := classLearning(c)
	if err != nil {
		return err
	}
	st, err := score.New(c.Context, score.Options{Profile: prof, Config: cfg, IDF: c.String(flagIDF), DB: c.String(flagDB),
		Model: c.String(flagModel), Class: class, Batch: c.Bool(flagBatch), Window: c.Int(flagWindow), WindowWait: c.Duration(flagWindowWait),
		Workers: c.Int(flagWorkers)})
	if err != nil {
		return err
	}
	defer st.Close()
	s, err := cli.OpenStream(c)
	if err != nil {
		return err
	}
	return st.RunStream(c.Context, s)
}

// loadTopic loads the required --topic profile; its errors are usage
// errors.
func loadTopic(c *ucli.Context) (*topic.Profile, error) {
	path := c.String(cli.FlagTopic)
	if path == "" {
		return nil, cli.Usagef("--topic FILE is required")
	}
	prof, err := topic.Load(path)
	if err != nil {
		return nil, &cli.UsageError{Err: err}
	}
	return prof, nil
}

// checkRules refuses rules-based page methods for a profile without rules;
// the default combo then falls back to vsm alone.
func checkRules(c *ucli.Context, p *topic.Profile, cfg *scoring.Config) error {
	if len(p.Rules) > 0 {
		return nil
	}
	switch {
	case cfg.Page.Method == scoring.PageRules:
		return cli.Usagef("--page rules: the profile %s has no rules (add `rules:`)", p.Path)
	case cfg.Page.Method == scoring.PageCombo && cfg.Page.Combo[scoring.PageRules] > 0:
		if c.IsSet(flagCombo) {
			return cli.Usagef("--combo weighs rules, but the profile %s has no rules", p.Path)
		}
		delete(cfg.Page.Combo, scoring.PageRules)
		if len(cfg.Page.Combo) == 0 || cfg.Page.Combo[scoring.PageVSM]+cfg.Page.Combo[scoring.PagePearson] == 0 {
			cfg.Page.Combo = map[string]float64{scoring.PageVSM: 1}
		}
	}
	return nil
}
