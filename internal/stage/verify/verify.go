// Package verify is the verify stage callable from Go: url records (or
// plain URL lines) in, one verdict per site out, in completion order.
// cmd/verify parses its flags into Options and calls RunStream.
//
// The stage's pool verifies sites, not lines: the input is grouped by
// site (siteverify.Grouper) and a site's verdict comes when its pages are
// judged, so cli.Ordered's ordered line pool does not fit it.
package verify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/fetcher"
	"github.com/focuscrawl/focuscrawl/internal/fetcher/fetchflags"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/render"
	"github.com/focuscrawl/focuscrawl/internal/render/renderflags"
	"github.com/focuscrawl/focuscrawl/internal/siteverify"
)

// MaxLine is the longest input line accepted: url records are small.
const MaxLine = 1 << 20

// Options of a run.
type Options struct {
	// Verify are the verifier's options (siteverify.DefaultOptions());
	// OnPage is set by the run.
	Verify siteverify.Options
	// Judge scores the pages (siteverify.NewJudge). Required.
	Judge siteverify.Judge
	// Render says which pages are rendered in headless Chromium before
	// they are judged (docs/fetch.md, "Rendering").
	Render renderflags.Options
	// Fetcher configures the fetcher; its Concurrency is set to Sites.
	Fetcher fetcher.Config
	// Sites is how many sites are verified at once, each with one
	// request in flight (at least 1).
	Sites int
	// Lookahead and GroupIdle say when a site starts: once Lookahead more
	// URLs were read after its first, or the input was idle GroupIdle
	// (siteverify.NewGrouper).
	Lookahead int
	GroupIdle time.Duration
	// Judged are sites not verified again (ReadJudged), keyed at
	// Verify.Scope.
	Judged map[string]bool
	// Pages, when set, is the file every page fetched is also written to.
	Pages string
	// Log is where Run reports rejected lines and the summary (nil:
	// nowhere). RunStream uses the stream's.
	Log *cli.Logger
}

// Run verifies the sites of the URLs of in and writes a verdict per site
// to out. Lines that are not URLs are rejected: the error then wraps
// cli.ErrRejected. A configuration the fetcher refuses is a usage error
// naming verify's flag.
func Run(ctx context.Context, in io.Reader, out io.Writer, o Options) error {
	return RunStream(ctx, cli.NewStream(in, out, o.Log), o)
}

// RunStream verifies the sites of the URLs of s, writes the verdicts as
// they come, logs the summary and closes s.
func RunStream(ctx context.Context, s *cli.Stream, o Options) error {
	if o.Judge == nil || o.Sites < 1 {
		s.Close()
		return errors.New("verify: a Judge and at least 1 site at once are required")
	}
	s.In.MaxLine = MaxLine
	cfg := o.Fetcher
	cfg.Concurrency = o.Sites
	cfg.Warnf = s.Log.Infof
	r := &runner{s: s, sites: o.Sites, start: time.Now(), scope: o.Verify.Scope, judged: o.Judged,
		g: siteverify.NewGrouper(o.Verify.Scope, o.Lookahead, o.GroupIdle)}
	var pages *jsonl.Writer
	if o.Pages != "" {
		var err error
		if pages, err = jsonl.Create(o.Pages, nil); err != nil {
			s.Close()
			return fmt.Errorf("--pages: %w", err)
		}
	}
	vo := o.Verify
	vo.OnPage = func(_ string, p siteverify.PageResult) {
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
	var pf siteverify.Fetcher = f
	var rd *render.Renderer
	if o.Render.Mode != render.Never {
		rcfg := o.Render.Config
		rcfg.UserAgent = f.Config().UserAgent
		if rd, err = render.New(rcfg, f); err != nil {
			f.Close()
			closePages()
			s.Close()
			return fmt.Errorf("--render %s: %w", o.Render.Mode, err)
		}
		defer rd.Close()
		pf = render.PageFetcher{Fetcher: f, Renderer: rd, Mode: o.Render.Mode}
	}
	if r.v, err = siteverify.New(pf, o.Judge, vo); err != nil {
		f.Close()
		closePages()
		s.Close()
		return cli.Usagef("%v", err)
	}
	err = errors.Join(r.pump(ctx), f.Close(), closePages())
	r.summarize()
	return errors.Join(err, s.Finish())
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
		msg += fmt.Sprintf(" (%d more skipped: judged in --skip-judged)", n)
	}
	msg += fmt.Sprintf(" in %s: %d relevant, %d failed; %d pages fetched (%.1f per site)",
		time.Since(r.start).Round(time.Millisecond), r.relevant.Load(), r.failed.Load(), pages, avg)
	if late+ignored > 0 {
		msg += fmt.Sprintf("; %d URLs joined a site in progress, %d came after their site's verdict", late, ignored)
	}
	r.s.Log.Infof("%s", msg)
}
