package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync/atomic"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
	"github.com/focuscrawl/focuscrawl/internal/text"
	"github.com/focuscrawl/focuscrawl/internal/topic"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

const description = `Reads doc records (segment output) and writes scored docs: score, relevant
(score >= thresholds.page), scores per page method, and links with a priority in [0,1];
links under thresholds.link are marked "pruned" (left out with --drop-pruned).

bfs, best-first, shark, block-shark and heuristic score each doc as it arrives.
ipagerank, skyreach and linkmodel need the link graph: give --batch (read all input,
then score it as one batch) or --db FILE (the frontier store's graph, scored in windows
of --window docs, the graph kept between windows); without either they refuse to run. block-shark takes sibling scores
and n'/n from --db when given, else from the docs seen so far.`

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
		}},
	})
	app.Description = description
	return app
}

func runScore(c *ucli.Context) error {
	cfg, err := config(c)
	if err != nil {
		return err
	}
	path := c.String(cli.FlagTopic)
	if path == "" {
		return cli.Usagef("--topic FILE is required")
	}
	prof, err := topic.Load(path)
	if err != nil {
		return &cli.UsageError{Err: err}
	}
	if err := checkRules(c, prof, &cfg); err != nil {
		return err
	}
	graph := scoring.NeedsGraph(cfg.Links.Strategy)
	if graph && !c.Bool(flagBatch) && c.String(flagDB) == "" {
		return cli.Usagef("--links %s needs the whole link graph: give --batch (score all input as one batch) or --db FILE (the frontier store)", cfg.Links.Strategy)
	}
	idf := vsm.Builtin()
	if name := c.String(flagIDF); name != "" {
		if idf, err = vsm.Load(name); err != nil {
			return &cli.UsageError{Err: fmt.Errorf("--idf: %w", err)}
		}
	}
	tok := text.NewTokenizer(text.Options{Dictionary: prof.Dictionary, Stopwords: prof.Stopwords})
	model, err := scoring.NewModel(prof, tok, idf)
	if err != nil {
		return &cli.UsageError{Err: fmt.Errorf("%s: %w", path, err)}
	}
	var store scoring.Store
	if db := c.String(flagDB); db != "" {
		st, closeStore, err := openStore(db)
		if err != nil {
			return err
		}
		defer closeStore()
		store = st
		if err := recordCrawl(c.Context, st, prof, cfg); err != nil {
			return err
		}
	}
	s, err := cli.OpenStream(c)
	if err != nil {
		return err
	}
	sc := scoring.NewScorer(model, cfg, store)
	if err := startLearning(c, sc, cfg.Links.Learn.On, store, s); err != nil {
		return err
	}
	r := &runner{ctx: c.Context, s: s, sc: sc, workers: c.Int(flagWorkers), start: time.Now(), wait: c.Duration(flagWindowWait),
		withHTML: cfg.Page.RulesOnHTML && (cfg.Page.Method == scoring.PageRules || (cfg.Page.Method == scoring.PageCombo && cfg.Page.Combo[scoring.PageRules] > 0))}
	if r.workers <= 0 {
		r.workers = runtime.GOMAXPROCS(0)
	}
	if cfg.Links.Learn.On {
		r.workers = 1 // the model learns in input order: deterministic
	}
	stopProgress := s.ShowProgress(time.Second, r.progress)
	switch {
	case graph && c.Bool(flagBatch):
		err = r.groups(0)
	case graph:
		err = r.groups(max(1, c.Int(flagWindow)))
	case c.Bool(flagBatch):
		err = r.groups(0)
	default:
		err = r.stream()
	}
	stopProgress()
	s.Log.Infof("%d docs scored (%d relevant, %d with errors) in %.1fs", r.docs, r.relevant, r.failed, time.Since(r.start).Seconds())
	return errors.Join(err, s.Close())
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

// The frontier stores are what score --db reads; frontier does not import
// scoring, so the checks live here.
var (
	_ scoring.Store    = (*frontier.SQLiteStore)(nil)
	_ scoring.Replayer = (*frontier.SQLiteStore)(nil)
	_ scoring.Store    = (*frontier.RedisStore)(nil)
)

// openStore opens the frontier store as the scoring.Store it must offer.
func openStore(path string) (scoring.Store, func(), error) {
	fs, err := frontier.Open(context.Background(), path)
	if err != nil {
		return nil, nil, fmt.Errorf("--db: %w", err)
	}
	st, ok := any(fs).(scoring.Store)
	if !ok {
		fs.Close()
		return nil, nil, fmt.Errorf("--db %s: this build's frontier store does not offer page scores and link edges (scoring.Store)", path)
	}
	return st, func() { fs.Close() }, nil
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
	// withHTML decodes the docs' html (--rules-on html).
	withHTML bool

	docs, relevant, failed int
	scored                 atomic.Int64 // docs, for the progress line
}

// nextLine reads the next input line (a copy); ok is false at the end of
// the input. Lines too long are rejected here.
func (r *runner) nextLine() (l jsonl.Line, ok bool, err error) {
	for {
		if err := r.ctx.Err(); err != nil {
			return l, false, err
		}
		line, err := r.s.In.Next()
		if err == io.EOF {
			return l, false, nil
		}
		if errors.Is(err, jsonl.ErrLineTooLong) {
			r.s.Rejects.Reject(line, err)
			closing, ok := jsonl.ClosingRecord(line.Bytes, err)
			if !ok {
				continue
			}
			line.Bytes, err = closing, nil // an error record for the URL, so the frontier closes it
		}
		if err != nil {
			return l, false, err
		}
		line.Bytes = append(getBuf(), line.Bytes...)
		return line, true, nil
	}
}

// decodeDoc decodes a doc line, rejecting it when it is not one. ms are
// the line's top-level members when the fast decoder found them.
func (r *runner) decodeDoc(line jsonl.Line) (d record.Doc, ms []member, ok bool) {
	var ld leanDoc
	if !decodeLean(line.Bytes, &ld, r.withHTML) {
		// Invalid, or unusual: encoding/json decodes it or says what is wrong.
		ld = leanDoc{}
		if err := jsonl.Decode(line.Bytes, &ld); err != nil {
			r.s.Rejects.Reject(line, err)
			return d, nil, false
		}
	}
	if ld.URL == "" && ld.Error == "" {
		r.s.Rejects.Reject(line, errors.New(`doc without "url"`))
		return d, nil, false
	}
	d, err := ld.doc(r.withHTML)
	if err != nil {
		r.s.Rejects.Reject(line, err)
		return d, nil, false
	}
	return d, ld.members, true
}

func (r *runner) count(sd *record.ScoredDoc) {
	r.docs++
	r.scored.Add(1)
	if sd.Relevant {
		r.relevant++
	}
	if sd.Error != "" {
		r.failed++
	}
}

// groups scores the input in groups of size docs (0: all of it).
func (r *runner) groups(size int) error {
	var lines [][]byte
	var spans [][]member
	var group []record.Doc
	enc := newScoredEncoder()
	flush := func() error {
		if len(group) == 0 {
			return nil
		}
		out, err := r.sc.ScoreBatch(r.ctx, group)
		if err != nil {
			return err
		}
		for i := range out {
			b, err := enc.encode(getBuf(), lines[i], spans[i], &out[i])
			if err != nil {
				return fmt.Errorf("encode %s: %w", out[i].URL, err)
			}
			r.count(&out[i])
			err = r.s.Out.WriteLine(b)
			putBuf(b)
			putBuf(lines[i])
			if err != nil {
				return err
			}
		}
		group, lines, spans = group[:0], lines[:0], spans[:0]
		return nil
	}
	// A reader goroutine, so that a window is scored when the input
	// pauses: in a crawl loop the next docs come only after these are
	// scored and their links queued.
	type read struct {
		line jsonl.Line
		ok   bool
		err  error
	}
	lineCh := make(chan read)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			line, ok, err := r.nextLine()
			select {
			case lineCh <- read{line, ok, err}:
			case <-stop:
				return
			}
			if err != nil || !ok {
				return
			}
		}
	}()
	var idle <-chan time.Time
	for {
		var in read
		select {
		case in = <-lineCh:
		case <-idle:
			idle = nil
			if err := flush(); err != nil {
				return err
			}
			continue
		}
		if in.err != nil {
			return in.err
		}
		if !in.ok {
			return flush()
		}
		d, ms, ok := r.decodeDoc(in.line)
		if !ok {
			putBuf(in.line.Bytes)
			continue
		}
		group = append(group, d)
		lines = append(lines, in.line.Bytes)
		spans = append(spans, ms)
		if size > 0 && len(group) >= size {
			if err := flush(); err != nil {
				return err
			}
			idle = nil
		} else if size > 0 && r.wait > 0 && idle == nil {
			idle = time.After(r.wait)
		}
	}
}
