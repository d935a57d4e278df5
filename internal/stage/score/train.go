package score

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/pagemodel"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
	"github.com/focuscrawl/focuscrawl/internal/topic"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// TrainOptions are the settings of score train (docs/score.md, "Page
// models").
type TrainOptions struct {
	// Profile is the topic profile (required); IDF the IDF table file
	// ("" for the built-in one); Page how the profile scores a page, the
	// model's prior.
	Profile *topic.Profile
	IDF     string
	Page    scoring.PageOptions
	// Positive and Negative are files of docs that are all relevant, or
	// all irrelevant.
	Positive, Negative []string
	// Labels are files of {"url": …, "relevant": true|false} lines whose
	// docs are taken from Docs.
	Labels []string
	// Docs are files of docs (segment or score output, a crawl's
	// archive): the labelled URLs' docs, and the unlabelled pool.
	Docs []string
	// NoProfileExamples leaves the profile's examples out.
	NoProfileExamples bool
	// MaxPool bounds the unlabelled pages self-training reads (a sample
	// of the docs, the same on every run); 0 turns self-training off.
	MaxPool int
	// Model holds the learning parameters (Topic, Tokenization, Prior
	// and Sources are set here).
	Model pagemodel.Options
	// Log gets the warnings (labels whose URL is in no doc file, …).
	Log *cli.Logger
}

// TrainResult is a model with what went into it.
type TrainResult struct {
	Model *pagemodel.Model
	// Missing counts the labels whose URL was in no doc file; each was
	// reported on Log.
	Missing int
}

// ErrMissingLabels says some labels of --labels files had no doc (each
// was reported); the profile's own examples missing are only reported.
var ErrMissingLabels = errors.New("labels whose URL is in no --docs file")

// label is a URL's label and where it was given.
type label struct {
	relevant bool
	where    string
	found    bool
	// failed is the error of the URL's doc when its fetch failed.
	failed string
	// profile marks the profile's own examples: one missing from --docs
	// is a warning, not a rejected line.
	profile bool
}

// Train reads the examples and trains a page model. Bad input (a line
// that is not a doc or a label, a doc without words, one kind of example
// only) is an error naming the file and line.
func Train(ctx context.Context, o TrainOptions) (*TrainResult, error) {
	if o.Profile == nil {
		return nil, cli.Usagef("--topic FILE is required")
	}
	m, err := NewModel(o.Profile, o.IDF)
	if err != nil {
		return nil, err
	}
	t := &trainer{o: o, m: m, labels: map[string]*label{}}
	for _, f := range o.Labels {
		if err := t.readLabels(f); err != nil {
			return nil, err
		}
	}
	if !o.NoProfileExamples {
		t.profileExamples()
	}
	for _, f := range o.Positive {
		if err := t.readExamples(ctx, f, true); err != nil {
			return nil, err
		}
	}
	for _, f := range o.Negative {
		if err := t.readExamples(ctx, f, false); err != nil {
			return nil, err
		}
	}
	if len(o.Docs) > 0 {
		if err := t.readDocs(ctx, o.Docs); err != nil {
			return nil, err
		}
	}
	res := &TrainResult{}
	for _, u := range t.labelOrder {
		l := t.labels[u]
		if l.found {
			continue
		}
		if !l.profile {
			res.Missing++
		}
		if o.Log == nil {
			continue
		}
		if l.failed != "" {
			o.Log.Errorf("%s: %s failed in --docs (%s): label left out", l.where, u, l.failed)
		} else {
			o.Log.Errorf("%s: %s is in no --docs file: label left out", l.where, u)
		}
	}
	mo := o.Model
	mo.Topic = o.Profile.Name
	mo.Tokenization = m.Tokenization(IDFName(o.IDF))
	mo.Prior = pagemodel.Prior{Method: o.Page.Method, KeywordShare: o.Page.KeywordShare,
		KeywordCover: o.Page.KeywordCover, SimScale: o.Page.SimScale, Center: o.Profile.Thresholds.Page}
	mo.Sources = t.sources()
	tr, err := pagemodel.NewTrainer(t.examples, t.pool, mo)
	if err != nil {
		return nil, cli.Usagef("%v (%s): give --positive and --negative files, or --labels with --docs, or examples in the profile", err, t.describe())
	}
	if res.Model, err = tr.Train(); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return res, nil
}

// trainer gathers the examples and the pool.
type trainer struct {
	o          TrainOptions
	m          *scoring.Model
	labels     map[string]*label
	labelOrder []string
	examples   []pagemodel.Example
	from       map[string]int // examples per source
	pool       []pagemodel.Page
	seen       int // pool candidates seen (reservoir sampling)
	rng        *rand.Rand
}

// key normalises a URL for matching labels with docs.
func key(u string) string {
	if n, err := urlx.Normalize(u); err == nil {
		return n
	}
	return u
}

// readLabels reads a labels file (jsonl.ReadLabels: a line that is not a
// label is an error naming it; a URL labelled twice keeps its last label).
func (t *trainer) readLabels(name string) error {
	labels, err := jsonl.ReadLabels(name)
	if err != nil {
		return &cli.UsageError{Err: fmt.Errorf("--labels: %w", err)}
	}
	for _, l := range labels {
		k := key(l.URL)
		if old, ok := t.labels[k]; ok {
			old.relevant, old.where = l.Relevant, l.Pos
			continue
		}
		t.labels[k] = &label{relevant: l.Relevant, where: l.Pos}
		t.labelOrder = append(t.labelOrder, k)
	}
	return nil
}

// profileExamples takes the profile's examples: URLs as labels (their
// docs come from --docs), texts as pages.
func (t *trainer) profileExamples() {
	for _, e := range t.o.Profile.Examples.Items {
		where := t.o.Profile.Path + ": examples"
		if e.File != "" {
			where += " (" + e.File + ")"
		}
		if e.URL != "" {
			k := key(e.URL)
			if _, ok := t.labels[k]; !ok {
				t.labels[k] = &label{relevant: e.Positive, where: where, profile: true}
				t.labelOrder = append(t.labelOrder, k)
			}
			continue
		}
		d := record.Doc{Content: e.Text}
		t.add(&d, e.Positive, "profile examples")
	}
}

// readExamples reads a file of docs that are all positive or negative.
func (t *trainer) readExamples(ctx context.Context, name string, positive bool) error {
	return eachLine(ctx, name, func(l jsonl.Line) error {
		d, err := decodeExample(l)
		if err != nil {
			return err
		}
		t.add(&d, positive, name)
		return nil
	})
}

// decodeExample decodes a doc that is to be an example.
func decodeExample(l jsonl.Line) (record.Doc, error) {
	var d record.Doc
	if err := jsonl.Decode(l.Bytes, &d); err != nil {
		return d, fmt.Errorf("%s: not a doc record: %v", l, err)
	}
	switch {
	case d.URL == "":
		return d, fmt.Errorf(`%s: not a doc record: no "url"`, l)
	case d.Error != "":
		return d, fmt.Errorf("%s: %s failed (%s): a failed page cannot be an example", l, d.URL, d.Error)
	case blank(&d):
		return d, fmt.Errorf("%s: %s has no tokens, title or content to learn from (segment output is needed)", l, d.URL)
	}
	return d, nil
}

// blank reports whether a doc has no words.
func blank(d *record.Doc) bool {
	return len(d.Tokens) == 0 && strings.TrimSpace(d.Title+d.Description+d.Content) == ""
}

// readDocs reads the doc files: labelled URLs become examples, the rest
// the unlabelled pool (a sample of at most MaxPool).
func (t *trainer) readDocs(ctx context.Context, names []string) error {
	t.rng = rand.New(rand.NewPCG(1, 2))
	for _, name := range names {
		err := eachLine(ctx, name, func(l jsonl.Line) error {
			var d record.Doc
			if err := jsonl.Decode(l.Bytes, &d); err != nil {
				if t.o.Log != nil {
					t.o.Log.Errorf("%s: not a doc record, skipped: %v", l, err)
				}
				return nil
			}
			if d.URL == "" {
				return nil
			}
			lab := t.labels[key(d.URL)]
			if lab == nil && d.FinalURL != "" {
				lab = t.labels[key(d.FinalURL)]
			}
			switch {
			case d.Error != "":
				if lab != nil && !lab.found {
					lab.failed = d.Error
				}
			case lab != nil && lab.found:
				// A second doc of a labelled URL: the first counts.
			case lab != nil && blank(&d):
				return fmt.Errorf("%s: %s (labelled at %s) has no tokens, title or content to learn from", l, d.URL, lab.where)
			case lab != nil:
				lab.found = true
				t.add(&d, lab.relevant, name)
			case !blank(&d):
				t.offerPool(&d)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// offerPool adds d to the pool by reservoir sampling.
func (t *trainer) offerPool(d *record.Doc) {
	if t.o.MaxPool <= 0 {
		return
	}
	t.seen++
	if len(t.pool) < t.o.MaxPool {
		t.pool = append(t.pool, t.page(d))
		return
	}
	if j := t.rng.IntN(t.seen); j < t.o.MaxPool {
		t.pool[j] = t.page(d)
	}
}

// page is what the model sees of d.
func (t *trainer) page(d *record.Doc) pagemodel.Page {
	vec := t.m.DocVector(d)
	prior, _ := t.m.ProfileScore(d, vec, t.o.Page)
	return t.m.ModelPage(d, vec, prior)
}

// add adds d as an example.
func (t *trainer) add(d *record.Doc, positive bool, source string) {
	t.examples = append(t.examples, pagemodel.Example{Page: t.page(d), Relevant: positive})
	if t.from == nil {
		t.from = map[string]int{}
	}
	t.from[source]++
}

// sources lists where the examples came from.
func (t *trainer) sources() []string {
	var out []string
	for s, n := range t.from {
		out = append(out, fmt.Sprintf("%s (%d)", s, n))
	}
	slices.Sort(out)
	return out
}

// describe says what examples were found, for an error.
func (t *trainer) describe() string {
	pos := 0
	for _, e := range t.examples {
		if e.Relevant {
			pos++
		}
	}
	s := fmt.Sprintf("%d relevant and %d irrelevant examples", pos, len(t.examples)-pos)
	if n := len(t.labelOrder); n > 0 {
		found := 0
		for _, k := range t.labelOrder {
			if t.labels[k].found {
				found++
			}
		}
		s += fmt.Sprintf("; %d of %d labelled URLs found in --docs", found, n)
	}
	return s
}

// eachLine calls f on each line of a file; f's error stops it.
func eachLine(ctx context.Context, name string, f func(jsonl.Line) error) error {
	in := jsonl.NewReader([]string{name}, nil)
	defer in.Close()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		l, err := in.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if errors.Is(err, jsonl.ErrLineTooLong) {
				return fmt.Errorf("%s: %w", l, err)
			}
			return err
		}
		if err := f(l); err != nil {
			return err
		}
	}
}
