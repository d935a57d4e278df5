package main

import (
	"fmt"
	"io"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/pagemodel"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
	"github.com/focuscrawl/focuscrawl/internal/stage/score"
)

// Flag names of score train.
const (
	flagModel        = "model"
	flagPositive     = "positive"
	flagNegative     = "negative"
	flagLabels       = "labels"
	flagDocs         = "docs"
	flagExplain      = "explain"
	flagExampleURLs  = "example-urls"
	flagNoExamples   = "no-profile-examples"
	flagLambda       = "lambda"
	flagPriorWeight  = "prior-weight"
	flagPriorSigma   = "prior-sigma"
	flagThreshold    = "threshold"
	flagRounds       = "self-train-rounds"
	flagPseudoWeight = "pseudo-weight"
	flagMaxPool      = "max-pool"
	flagTop          = "top"
)

const trainDescription = `Learns a page model from labelled pages and writes it to -o MODEL; score --model MODEL
then judges pages by it (docs/score.md, "Page models"). The examples:

  --positive FILE, --negative FILE   docs (segment or score output) that are all relevant, or not
  --labels FILE --docs FILE...       {"url": ..., "relevant": true|false} lines (seed report's
                                     export), their docs taken from the doc files (a crawl's archive)
  the profile's examples:            URLs (their docs from --docs) and texts; --no-profile-examples
                                     leaves them out

The model is a logistic regression over the words of the page's body, title, URL, navigation
and of the anchor that led to it, with the profile's own score as a prior feature, so that five
good and five bad pages are enough; the unlabelled docs of --docs (a sample of --max-pool) teach
it further by self-training. Training prints the cross-validated AUC and the heaviest features;
--explain MODEL prints them again. A label whose URL is in no --docs file is reported and the
exit status is 3.`

func trainCommand() *ucli.Command {
	d := pagemodel.DefaultOptions()
	p := scoring.DefaultPageOptions()
	f := func(name string, v float64, usage string) ucli.Flag {
		return &ucli.Float64Flag{Name: name, Value: v, Usage: usage}
	}
	return &ucli.Command{
		Name:        "train",
		Usage:       "learn a page model from labelled pages (score --model uses it)",
		ArgsUsage:   " ",
		Description: trainDescription + "\n\nEXAMPLES:\n   score train --topic t.yaml --example-urls | seed urls | fetch | segment --topic t.yaml > examples.jsonl\n   score train --topic t.yaml --docs examples.jsonl -o t.model.json\n   score train --topic t.yaml --labels labels.jsonl --docs crawl.jsonl.zst -o t.model.json\n   score train --explain t.model.json",
		Flags: []ucli.Flag{
			cli.TopicFlag(false),
			&ucli.StringFlag{Name: cli.FlagOutput, Aliases: []string{"o"}, Usage: "write the model to `FILE` (score --model FILE reads it)"},
			&ucli.StringSliceFlag{Name: flagPositive, Usage: "`FILE` of relevant docs (repeatable; .zst/.gz read)"},
			&ucli.StringSliceFlag{Name: flagNegative, Usage: "`FILE` of irrelevant docs (repeatable)"},
			&ucli.StringSliceFlag{Name: flagLabels, Usage: "`FILE` of {\"url\",\"relevant\"} lines (repeatable; needs --docs)"},
			&ucli.StringSliceFlag{Name: flagDocs, Usage: "`FILE` of docs: the labelled URLs' docs and the unlabelled pool (repeatable)"},
			&ucli.BoolFlag{Name: flagNoExamples, Usage: "leave the profile's examples out"},
			&ucli.StringFlag{Name: flagExplain, Usage: "print what the model `MODEL` learned and how it was trained, and exit"},
			&ucli.BoolFlag{Name: flagExampleURLs, Usage: "print the profile's example URLs, one per line, and exit (to fetch them)"},
			&ucli.StringFlag{Name: flagIDF, Usage: "IDF table `FILE` (the same as score's)"},
			&ucli.StringFlag{Name: flagPage, Value: p.Method, Usage: "the profile's page method, the model's prior: vsm, pearson, rules, combo"},
			f(flagKeywordShare, p.KeywordShare, "the prior's κ, as score's"),
			f(flagKeywordCover, p.KeywordCover, "the prior's keyword cover, as score's"),
			f(flagSimScale, p.SimScale, "the prior's τ, as score's"),
			f(flagLambda, d.Lambda, "λ: L2 penalty of the word weights"),
			f(flagPriorWeight, d.PriorMean, "a₀: the prior's expected weight of the profile's score"),
			f(flagPriorSigma, d.PriorSigma, "how far the labels may move that weight (its standard deviation)"),
			f(flagThreshold, d.Threshold, "probability at or above which a page is relevant"),
			&ucli.IntFlag{Name: flagRounds, Value: d.Rounds, Usage: "self-training rounds on the unlabelled docs (0: none)"},
			f(flagPseudoWeight, d.PseudoWeight, "weight of a pseudo-label against a label"),
			&ucli.IntFlag{Name: flagMaxPool, Value: 5000, Usage: "unlabelled docs read for self-training, at most (a fixed sample)"},
			&ucli.IntFlag{Name: flagTop, Value: 15, Usage: "features shown on each side"},
			&ucli.BoolFlag{Name: cli.FlagQuiet, Aliases: []string{"q"}, Usage: "no report on stderr"},
		},
		Action: runTrain,
	}
}

func runTrain(c *ucli.Context) error {
	if path := c.String(flagExplain); path != "" {
		m, err := pagemodel.Load(path)
		if err != nil {
			return &cli.UsageError{Err: err}
		}
		explain(c.App.Writer, m, c.Int(flagTop))
		return nil
	}
	prof, err := loadTopic(c)
	if err != nil {
		return err
	}
	if c.Bool(flagExampleURLs) {
		for _, e := range prof.Examples.Items {
			if e.URL != "" {
				fmt.Fprintln(c.App.Writer, cli.Printable(e.URL))
			}
		}
		return nil
	}
	out := c.String(cli.FlagOutput)
	if out == "" {
		return cli.Usagef("-o MODEL is required: where to write the model")
	}
	if len(c.StringSlice(flagLabels)) > 0 && len(c.StringSlice(flagDocs)) == 0 {
		return cli.Usagef("--labels needs --docs FILE: the docs of the labelled URLs (a crawl's archive)")
	}
	o := pagemodel.DefaultOptions()
	o.Lambda, o.PriorMean, o.PriorSigma = c.Float64(flagLambda), c.Float64(flagPriorWeight), c.Float64(flagPriorSigma)
	o.Threshold, o.Rounds, o.PseudoWeight = c.Float64(flagThreshold), c.Int(flagRounds), c.Float64(flagPseudoWeight)
	switch {
	case o.Lambda <= 0:
		return cli.Usagef("--%s must be above 0", flagLambda)
	case o.PriorSigma <= 0:
		return cli.Usagef("--%s must be above 0", flagPriorSigma)
	case o.Threshold <= 0 || o.Threshold >= 1:
		return cli.Usagef("--%s must be in (0,1)", flagThreshold)
	case o.Rounds < 0 || c.Int(flagMaxPool) < 0:
		return cli.Usagef("--%s and --%s must be ≥ 0", flagRounds, flagMaxPool)
	case o.PseudoWeight < 0 || o.PseudoWeight > 1:
		return cli.Usagef("--%s must be in [0,1]", flagPseudoWeight)
	}
	page := scoring.DefaultPageOptions()
	page.Method = c.String(flagPage)
	page.KeywordShare, page.KeywordCover, page.SimScale = c.Float64(flagKeywordShare), c.Float64(flagKeywordCover), c.Float64(flagSimScale)
	if !contains([]string{"vsm", "pearson", "rules", "combo"}, page.Method) {
		return cli.Usagef("--%s %q: want vsm, pearson, rules or combo", flagPage, page.Method)
	}
	log := cli.NewLogger("score train", c.App.ErrWriter, c.Bool(cli.FlagQuiet))
	res, err := score.Train(c.Context, score.TrainOptions{Profile: prof, IDF: c.String(flagIDF), Page: page,
		Positive: c.StringSlice(flagPositive), Negative: c.StringSlice(flagNegative),
		Labels: c.StringSlice(flagLabels), Docs: c.StringSlice(flagDocs),
		NoProfileExamples: c.Bool(flagNoExamples), MaxPool: c.Int(flagMaxPool), Model: o,
		Log: cli.NewLogger("score train", c.App.ErrWriter, false)})
	if err != nil {
		return err
	}
	if err := res.Model.Save(out); err != nil {
		return fmt.Errorf("write the model: %w", err)
	}
	if !c.Bool(cli.FlagQuiet) {
		explain(c.App.ErrWriter, res.Model, c.Int(flagTop))
		log.Infof("model written to %s", out)
	}
	if res.Missing > 0 {
		return fmt.Errorf("%w: %d %v", cli.ErrRejected, res.Missing, score.ErrMissingLabels)
	}
	return nil
}

// explain prints what a model learned and how it was trained.
func explain(w io.Writer, m *pagemodel.Model, top int) {
	tr := m.Training
	fmt.Fprintf(w, "page model for topic %q (format %s/%d)\n", m.Topic, m.Format, m.Version)
	fmt.Fprintf(w, "  trained on %d relevant and %d irrelevant pages", tr.Positive, tr.Negative)
	if len(tr.Sources) > 0 {
		fmt.Fprintf(w, " from %s", cli.Printable(strings.Join(tr.Sources, ", ")))
	}
	fmt.Fprintln(w)
	if tr.Unlabelled > 0 {
		fmt.Fprintf(w, "  self-training: %d unlabelled pages, %d rounds (%s); last round's pseudo-labels %d relevant, %d irrelevant, each weighing %g\n",
			tr.Unlabelled, tr.Rounds, tr.Stop, tr.Pseudo[0], tr.Pseudo[1], tr.PseudoWeight)
	}
	cv := tr.CV
	fmt.Fprintf(w, "  %s cross-validation of the %d labelled pages: AUC %.3f (the profile's score alone %.3f), accuracy %.3f, precision %.3f, recall %.3f at %g\n",
		cv.Method, tr.Positive+tr.Negative, cv.AUC, cv.PriorAUC, cv.Accuracy, cv.Precision, cv.Recall, m.Threshold)
	fmt.Fprintf(w, "  relevant at probability ≥ %g; bias %.3f; the profile's %s score weighs %.3f (prior %g ± %g) around %g; λ %g; %d word features\n",
		m.Threshold, m.Bias, m.Prior.Method, m.Prior.Weight, m.Prior.Mean, m.Prior.Sigma, m.Prior.Center, tr.Lambda, tr.Features)
	pos, neg := m.Top(top)
	fmt.Fprintln(w, "  most relevant features:")
	for _, f := range pos {
		fmt.Fprintf(w, "    %+8.3f  %-6s %s\n", f.Weight, f.Group, cli.Printable(f.Term))
	}
	fmt.Fprintln(w, "  most irrelevant features:")
	for _, f := range neg {
		fmt.Fprintf(w, "    %+8.3f  %-6s %s\n", f.Weight, f.Group, cli.Printable(f.Term))
	}
}
