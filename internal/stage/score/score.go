// Package score is the score stage: it reads doc records (segment's
// output), judges each page against a topic profile and ranks its links,
// and writes scored docs. It is callable from Go (Run, RunStream) as well
// as from cmd/score, which only turns its flags into Options.
package score

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/pagemodel"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
	"github.com/focuscrawl/focuscrawl/internal/text"
	"github.com/focuscrawl/focuscrawl/internal/topic"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// Options are the settings of a run (docs/score.md; cmd/score's flags).
type Options struct {
	// Profile is the topic profile (required).
	Profile *topic.Profile
	// Config holds the page method, the link strategy and their
	// parameters.
	Config scoring.Config
	// IDF is the IDF table file (score idf build); "" is the built-in
	// Chinese and English table.
	IDF string
	// Model is a page model file (score train): it judges the pages in
	// place of the profile's score. "" for none.
	Model string
	// DB is the frontier store (seed add --db) that gives sibling scores,
	// n′/n and the crawled link graph; "" for none.
	DB string
	// Class is how the frontier ranks URL classes with a learned strategy
	// and DB (Weight 0: no re-ranking).
	Class frontier.Learning
	// Batch reads all input, then scores it as one batch.
	Batch bool
	// Window is how many docs the graph strategies score together with
	// DB and without Batch (at least 1), and WindowWait how long a
	// partial window waits for more docs (0: forever).
	Window     int
	WindowWait time.Duration
	// Workers is how many docs are scored in parallel (0: one per core;
	// a learned strategy scores in input order, on one).
	Workers int
	// Log, for Run, gets the rejected lines and the summary (nil: none).
	Log *cli.Logger
}

// Stage is a run made ready: the model built, the frontier store opened
// and the run recorded in it.
type Stage struct {
	o     Options
	sc    *scoring.Scorer
	store scoring.Store
	close func()
}

// New checks o, builds the model and opens the frontier store. Errors in
// o are *cli.UsageError.
func New(ctx context.Context, o Options) (*Stage, error) {
	cfg := o.Config
	if o.Profile == nil {
		return nil, cli.Usagef("--topic FILE is required")
	}
	if scoring.NeedsGraph(cfg.Links.Strategy) && !o.Batch && o.DB == "" {
		return nil, cli.Usagef("--links %s needs the whole link graph: give --batch (score all input as one batch) or --db FILE (the frontier store)", cfg.Links.Strategy)
	}
	model, err := NewModel(o.Profile, o.IDF)
	if err != nil {
		return nil, err
	}
	if o.Model != "" {
		pm, err := pagemodel.Load(o.Model)
		if err != nil {
			return nil, &cli.UsageError{Err: fmt.Errorf("--model: %w", err)}
		}
		if err := model.UsePageModel(pm, IDFName(o.IDF)); err != nil {
			return nil, &cli.UsageError{Err: fmt.Errorf("--model %s: %w", o.Model, err)}
		}
		cfg.Page.Method = scoring.PageMethodModel
	}
	if err := cfg.Links.Check(model); err != nil {
		return nil, &cli.UsageError{Err: fmt.Errorf("--links %s: %s: %w", cfg.Links.Strategy, o.Profile.Path, err)}
	}
	st := &Stage{o: o, close: func() {}}
	if o.DB != "" {
		store, closeStore, err := openStore(o.DB)
		if err != nil {
			return nil, err
		}
		st.store, st.close = store, closeStore
		if err := recordCrawl(ctx, store, o.Profile, cfg, model.PageThreshold(), time.Now()); err != nil {
			closeStore()
			return nil, err
		}
	}
	if st.sc, err = scoring.NewScorer(model, cfg, st.store); err != nil {
		st.close()
		return nil, &cli.UsageError{Err: err}
	}
	return st, nil
}

// NewModel prepares the profile for scoring with the IDF table file idf
// ("" for the built-in one). Errors are *cli.UsageError.
func NewModel(p *topic.Profile, idf string) (*scoring.Model, error) {
	tab := vsm.Builtin()
	if idf != "" {
		var err error
		if tab, err = vsm.Load(idf); err != nil {
			return nil, &cli.UsageError{Err: fmt.Errorf("--idf: %w", err)}
		}
	}
	tok := text.NewTokenizer(text.Options{Dictionary: p.Dictionary, Stopwords: p.Stopwords})
	model, err := scoring.NewModel(p, tok, tab)
	if err != nil {
		return nil, &cli.UsageError{Err: fmt.Errorf("%s: %w", p.Path, err)}
	}
	return model, nil
}

// IDFName names an IDF table file for a page model: "builtin", or the
// file's base name (a model trained with one table and applied with
// another would weigh the words otherwise).
func IDFName(idf string) string {
	if idf == "" {
		return "builtin"
	}
	return filepath.Base(idf)
}

// Close closes the frontier store.
func (st *Stage) Close() { st.close() }

// Run scores the doc lines of in and writes the scored docs to out.
// Rejected lines are counted and logged on o.Log; with some, Run returns
// an error wrapping cli.ErrRejected.
func Run(ctx context.Context, in io.Reader, out io.Writer, o Options) error {
	return RunStream(ctx, cli.NewStream(in, out, o.Log), o)
}

// RunStream is Run on a stream the caller opened; it closes s.
func RunStream(ctx context.Context, s *cli.Stream, o Options) error {
	st, err := New(ctx, o)
	if err != nil {
		return errors.Join(err, s.Close())
	}
	defer st.Close()
	return st.RunStream(ctx, s)
}

// RunStream scores the docs of s and closes it.
func (st *Stage) RunStream(ctx context.Context, s *cli.Stream) error {
	cfg := st.o.Config
	if err := startLearning(ctx, st.sc, cfg.Links.Learns(), st.store, st.o.Class, s); err != nil {
		return errors.Join(err, s.Close())
	}
	r := &runner{ctx: ctx, s: s, sc: st.sc, workers: st.o.Workers, start: time.Now(), wait: st.o.WindowWait,
		withText: st.sc.Model().PageModel() != nil,
		withHTML: cfg.Page.RulesOnHTML && (cfg.Page.Method == scoring.PageRules || (cfg.Page.Method == scoring.PageCombo && cfg.Page.Combo[scoring.PageRules] > 0))}
	if r.workers <= 0 {
		r.workers = runtime.GOMAXPROCS(0)
	}
	if cfg.Links.Learns() {
		r.workers = 1 // the model learns in input order: deterministic
	}
	stopProgress := s.ShowProgress(time.Second, r.progress)
	var err error
	switch {
	case st.o.Batch:
		err = r.groups(0)
	case scoring.NeedsGraph(cfg.Links.Strategy):
		err = r.groups(max(1, st.o.Window))
	default:
		err = r.stream()
	}
	stopProgress()
	s.Log.Infof("%d docs scored (%d relevant, %d with errors) in %.1fs", r.docs, r.relevant, r.failed, time.Since(r.start).Seconds())
	return errors.Join(err, s.Close())
}

// runner reads docs and writes scored docs.
type runner struct {
	ctx     context.Context
	s       *cli.Stream
	sc      *scoring.Scorer
	workers int
	start   time.Time
	// wait is how long a partial window waits for more docs (0: forever).
	wait time.Duration
	// withHTML decodes the docs' html (--rules-on html), withText the
	// text of their navigation blocks (a page model).
	withHTML, withText bool

	docs, relevant, failed int
	scored                 atomic.Int64 // docs, for the progress line
}

// count counts a scored doc written.
func (r *runner) count(relevant, failed bool) {
	r.docs++
	r.scored.Add(1)
	if relevant {
		r.relevant++
	}
	if failed {
		r.failed++
	}
}

// progress draws the progress line (--progress).
func (r *runner) progress() {
	n := r.scored.Load()
	r.s.Log.Progressf("%d docs scored, %.0f docs/s", n, float64(n)/max(time.Since(r.start).Seconds(), 1e-3))
}
