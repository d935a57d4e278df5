package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/fetcher"
	"github.com/focuscrawl/focuscrawl/internal/fetcher/fetchflags"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
	"github.com/focuscrawl/focuscrawl/internal/siteverify"
	"github.com/focuscrawl/focuscrawl/internal/topic"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// maxLine is the longest input line accepted: url records are small.
const maxLine = 1 << 20

const description = `Reads url records or plain URL lines (seed search output), groups them by site
(registrable domain, or exact host with --scope host) and writes one verdict per site,
in completion order: relevant, good pages, pages fetched, best score, the good pages as
evidence, the URL classes with their mean score, and the reason.

Each site is checked once. Its best-ranked URL (highest priority, then lowest meta.rank,
then input order) is the start page p0; the others are queued too. The heuristic picks,
page after page, the URL class (AbstractURL) with the best mean score so far and stops
as relevant after --num-rel-pages pages scoring >= --page-threshold, or as not relevant
after --num-exp-pages pages, --patience pages in a row without a good one, or when
nothing is left. A site whose start page cannot be fetched is not relevant, with the
error. Fetching is polite (robots.txt, per-host delay) as in fetch.`

func newApp() *ucli.App {
	app := cli.New(cli.App{
		Name:    "verify",
		Usage:   "decide which websites belong to a topic, fetching few pages per site",
		Args:    "[FILE...]",
		Example: `seed search --query 网上书店 --query "作者 定价 购物车 书" | verify --topic examples/topics/bookstores.yaml > verdicts.jsonl`,
		Flags:   append(append(cli.StreamFlags(), verifyFlags()...), fetchflags.Flags(fetcherFlags)...),
		Action:  run,
	})
	app.Description = description
	return app
}

func run(c *ucli.Context) error {
	if c.String(cli.FlagTopic) == "" {
		return cli.Usagef("--topic FILE is required: the profile whose rules (or text) pages are scored against")
	}
	prof, err := topic.Load(c.String(cli.FlagTopic))
	if err != nil {
		return &cli.UsageError{Err: err}
	}
	o, err := optionsFromFlags(c, prof.Thresholds.Page)
	if err != nil {
		return err
	}
	judge, err := newJudge(c, prof)
	if err != nil {
		return err
	}
	judged, err := readJudged(c.StringSlice(flagSkipJudged))
	if err != nil {
		return cli.Usagef("%v", err)
	}
	sites := c.Int(flagConcurrency)
	cfg, err := fetchConfig(c, sites)
	if err != nil {
		return err
	}
	s, err := cli.OpenStreamWith(c, c.Args().Slice(), c.App.Reader, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return err
	}
	s.In.MaxLine = maxLine
	cfg.Warnf = s.Log.Infof
	r := &runner{s: s, sites: sites, start: time.Now(), scope: o.Scope, judged: judged,
		g: siteverify.NewGrouper(o.Scope, c.Int(flagLookahead), c.Duration(flagGroupIdle))}
	var pages *jsonl.Writer
	if path := c.String(flagPages); path != "" {
		if pages, err = jsonl.Create(path, nil); err != nil {
			s.Close()
			return fmt.Errorf("--%s: %w", flagPages, err)
		}
	}
	o.OnPage = func(_ string, p siteverify.PageResult) {
		if !fetcher.IsRobots(p.Page.Error) {
			r.pages.Add(1)
		}
		if pages != nil {
			pages.WriteLine(fetcher.AppendPage(nil, &p.Page))
		}
	}
	closePages := func() error {
		if pages == nil {
			return nil
		}
		return pages.Close()
	}
	f, err := fetcher.New(cfg)
	if err != nil {
		closePages()
		s.Close()
		return fetchflags.ConfigError(err)
	}
	if r.v, err = siteverify.New(f, judge, o); err != nil {
		f.Close()
		closePages()
		s.Close()
		return cli.Usagef("%v", err)
	}
	err = errors.Join(r.pump(c.Context), f.Close(), closePages())
	r.summarize()
	return errors.Join(err, s.Finish())
}

// newJudge builds the page judge of --page, --combo, --rules-on and --idf.
func newJudge(c *ucli.Context, prof *topic.Profile) (*siteverify.DocJudge, error) {
	po := scoring.DefaultPageOptions()
	po.Method = c.String(flagPage)
	combo, err := scoring.ParseCombo(c.String(flagCombo))
	if err != nil {
		return nil, cli.Usagef("--%s: %v", flagCombo, err)
	}
	po.Combo = combo
	jo := siteverify.JudgeOptions{Profile: prof, Page: po, RulesOn: c.String(flagRulesOn)}
	if name := c.String(flagIDF); name != "" {
		if jo.IDF, err = vsm.Load(name); err != nil {
			return nil, cli.Usagef("--%s: %v", flagIDF, err)
		}
	}
	j, err := siteverify.NewJudge(jo)
	if err != nil {
		return nil, cli.Usagef("%v", err)
	}
	return j, nil
}

// runner reads the input into the grouper, verifies sites with a pool of
// workers, and writes verdicts from one goroutine.
type runner struct {
	s     *cli.Stream
	v     *siteverify.Verifier
	g     *siteverify.Grouper
	sites int
	start time.Time
	// scope and judged: the sites of --skip-judged, keyed as the grouper
	// keys them.
	scope  string
	judged map[string]bool

	// pages counts pages fetched as they come (robots-blocked ones not).
	done, relevant, failed, pages, inFlight atomic.Int64
	// canceled counts verdicts of sites cut short or never started by an
	// interrupt; skipped the sites of --skip-judged.
	canceled, skipped atomic.Int64
}

func (r *runner) pump(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.s.ReadInput(func() error {
		defer r.g.End()
		// Each usable line is filed under its site; the others are
		// rejected with their line number.
		return jsonl.ReadURLs(ctx, r.s.In, r.s.Rejects, r.skipJudged(r.scope, r.judged, r.g.Add))
	})
	out := make(chan record.Verdict, r.sites)
	var wg sync.WaitGroup
	for range r.sites {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				site, ok := r.g.Next(ctx)
				if !ok {
					return
				}
				r.inFlight.Add(1)
				vd := r.v.Verify(ctx, site)
				r.inFlight.Add(-1)
				out <- vd
			}
		}()
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	stopProgress := r.s.ShowProgress(time.Second, r.progress)
	defer stopProgress()
	var writeErr error
	for vd := range out {
		r.count(vd)
		if writeErr != nil {
			continue // draining after a write error (closed pipe)
		}
		if writeErr = r.s.Out.Write(vd); writeErr != nil {
			cancel()
		}
	}
	return writeErr
}

func (r *runner) count(vd record.Verdict) {
	if isCanceled(vd) {
		r.canceled.Add(1)
		return
	}
	r.done.Add(1)
	if vd.Relevant {
		r.relevant.Add(1)
	}
	if vd.Error != "" {
		r.failed.Add(1)
	}
}

func (r *runner) progress() {
	r.s.Log.Progressf("%d sites verified (%d relevant, %d failed), %d in progress, %d pages fetched",
		r.done.Load(), r.relevant.Load(), r.failed.Load(), r.inFlight.Load(), r.pages.Load())
}

func (r *runner) summarize() {
	done, pages := r.done.Load(), r.pages.Load()
	avg := 0.0
	if done > 0 {
		avg = float64(pages) / float64(done)
	}
	sites, late, ignored := r.g.Counts()
	msg := fmt.Sprintf("%d of %d sites verified", done, sites)
	if n := r.canceled.Load(); n > 0 {
		msg += fmt.Sprintf(", %d canceled", n)
	}
	if n := int64(sites) - done - r.canceled.Load(); n > 0 {
		msg += fmt.Sprintf(", %d not started", n)
	}
	if n := r.skipped.Load(); n > 0 {
		msg += fmt.Sprintf(" (%d more skipped: judged in --%s)", n, flagSkipJudged)
	}
	msg += fmt.Sprintf(" in %s: %d relevant, %d failed; %d pages fetched (%.1f per site)",
		time.Since(r.start).Round(time.Millisecond), r.relevant.Load(), r.failed.Load(), pages, avg)
	if late+ignored > 0 {
		msg += fmt.Sprintf("; %d URLs joined a site in progress, %d came after their site's verdict", late, ignored)
	}
	r.s.Log.Infof("%s", msg)
}
