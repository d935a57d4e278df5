package render

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/focuscrawl/focuscrawl/internal/fetcher"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// ResourceFetcher answers the browser's requests; *fetcher.Fetcher is one.
type ResourceFetcher interface {
	FetchResource(ctx context.Context, url string, header http.Header) (*fetcher.Resource, error)
}

var _ ResourceFetcher = (*fetcher.Fetcher)(nil)

// Config of a Renderer. Zero fields take their defaults.
type Config struct {
	// Chromium is the browser to run ("": chromium on PATH).
	Chromium string
	// Tabs is the most pages rendered at once (default 2).
	Tabs int
	// Timeout is the hard cap on one page: loading, settling and taking
	// its DOM (default 20s). A page that has not settled by then is taken
	// as it stands and marked RenderCut.
	Timeout time.Duration
	// Quiet is how long the page must make no request, have no short
	// timer pending and leave its DOM unchanged to count as settled
	// (default 300ms).
	Quiet time.Duration
	// Scrolls is how many times a settled page is scrolled to its end to
	// let endless lists load more (default 3; -1 for none).
	Scrolls int
	// ThirdParty lets the page's requests reach other hosts than its own.
	ThirdParty bool
	// UserAgent is what the page's scripts see in navigator.userAgent.
	UserAgent string
}

func (c Config) withDefaults() Config {
	if c.Tabs <= 0 {
		c.Tabs = 2
	}
	if c.Timeout <= 0 {
		c.Timeout = 20 * time.Second
	}
	if c.Quiet <= 0 {
		c.Quiet = 300 * time.Millisecond
	}
	switch {
	case c.Scrolls == 0:
		c.Scrolls = 3
	case c.Scrolls < 0:
		c.Scrolls = 0
	}
	return c
}

// Kind is the kind of the errors rendering records in Page.Error:
// "render: browser crashed twice", "render: start …".
const Kind = "render"

// Renderer renders pages in a headless Chromium. It is safe for
// concurrent use: at most Config.Tabs pages render at once, the others
// wait. The browser starts with the first page and is started again when
// it dies.
type Renderer struct {
	cfg   Config
	res   ResourceFetcher
	slot  *browserSlot
	tabs  chan struct{}
	stats Stats
}

// Stats counts what a Renderer did.
type Stats struct {
	Rendered, Cut, Failed, Retried, Requests, Blocked atomic.Int64
	// InFlight counts the pages in tabs now.
	InFlight atomic.Int64
}

// New checks that Chromium can be found and returns a Renderer whose
// pages' requests res answers. The browser itself starts with the first
// page.
func New(cfg Config, res ResourceFetcher) (*Renderer, error) {
	cfg = cfg.withDefaults()
	bin, err := FindChromium(cfg.Chromium)
	if err != nil {
		return nil, err
	}
	return &Renderer{cfg: cfg, res: res, slot: &browserSlot{bin: bin, userAgent: cfg.UserAgent, tabs: cfg.Tabs},
		tabs: make(chan struct{}, cfg.Tabs)}, nil
}

// Stats gives the live counters.
func (r *Renderer) Stats() *Stats { return &r.stats }

// Restarts is how many times the browser was started again after dying.
func (r *Renderer) Restarts() int {
	r.slot.mu.Lock()
	defer r.slot.mu.Unlock()
	return r.slot.restarts
}

// Close stops the browser. Render calls must have returned.
func (r *Renderer) Close() { r.slot.close() }

// browserPID is the running browser's process id, 0 when none runs.
func (r *Renderer) browserPID() int {
	r.slot.mu.Lock()
	defer r.slot.mu.Unlock()
	if r.slot.b == nil || !r.slot.b.alive() {
		return 0
	}
	return r.slot.b.pid()
}

// errCrashed is the error of a page whose browser died under it twice.
var errCrashed = errors.New(Kind + ": browser crashed twice while rendering")

// Render replaces p's HTML with its DOM after its scripts ran, and sets
// Rendered, RenderMS, RenderCut and RenderRequests. Its status, headers,
// charset, redirects and timings stay those of the fetch. A page whose
// browser dies is tried once more in a new browser; when that fails too,
// or ctx ends first ("canceled"), p becomes an error record (no HTML)
// whose Error names the cause.
func (r *Renderer) Render(ctx context.Context, p *record.Page) {
	if ctx.Err() != nil {
		r.fail(p, errors.New(fetcher.KindCanceled))
		return
	}
	select {
	case r.tabs <- struct{}{}:
	case <-ctx.Done():
		r.fail(p, errors.New(fetcher.KindCanceled))
		return
	}
	r.stats.InFlight.Add(1)
	defer func() { r.stats.InFlight.Add(-1); <-r.tabs }()
	for try := 0; ; try++ {
		b, err := r.slot.get()
		if err != nil {
			r.fail(p, fmt.Errorf("%s: %w", Kind, err))
			return
		}
		if ctx.Err() != nil { // interrupted while the browser started
			r.fail(p, errors.New(fetcher.KindCanceled))
			return
		}
		out, err := r.renderOn(ctx, b, p)
		switch {
		case err == nil:
			p.HTML, p.Rendered, p.RenderMS, p.RenderCut, p.RenderRequests = out.html, true, out.ms, out.cut, out.requests
			r.stats.Rendered.Add(1)
			if out.cut {
				r.stats.Cut.Add(1)
			}
			return
		case ctx.Err() != nil:
			r.fail(p, errors.New(fetcher.KindCanceled))
			return
		case !b.alive() && try == 0:
			r.stats.Retried.Add(1)
			continue
		case !b.alive():
			r.fail(p, errCrashed)
			return
		default:
			r.fail(p, fmt.Errorf("%s: %w", Kind, err))
			return
		}
	}
}

func (r *Renderer) fail(p *record.Page, err error) {
	r.stats.Failed.Add(1)
	p.HTML, p.Rendered, p.Error = "", false, err.Error()
}

// rendered is the outcome of one render.
type rendered struct {
	html     string
	ms       int64
	cut      bool
	requests int
}

// snapshotJS serialises the document as it stands.
const snapshotJS = `(document.doctype ? new XMLSerializer().serializeToString(document.doctype) + "\n" : "") + document.documentElement.outerHTML`

// renderOn renders p in a new tab of b.
func (r *Renderer) renderOn(ctx context.Context, b *browser, p *record.Page) (rendered, error) {
	start := time.Now()
	end := start.Add(r.cfg.Timeout)
	// The DOM is taken within the cap: settling stops a little before.
	reserve := min(2*time.Second, r.cfg.Timeout/4)
	tab, closeTab := chromedp.NewContext(b.ctx)
	defer closeTab()
	settleCtx, cancelSettle := context.WithDeadline(tab, end.Add(-reserve))
	defer cancelSettle()
	snapCtx, cancelSnap := context.WithDeadline(tab, end)
	defer cancelSnap()
	// The run's cancellation ends both at once.
	stop := context.AfterFunc(ctx, func() { cancelSettle(); cancelSnap() })
	defer stop()

	ic := newInterceptor(r, p, settleCtx, tab)
	if err := ic.start(); err != nil {
		return rendered{}, fmt.Errorf("open tab: %w", err)
	}
	if _, err := chromedp.Call(settleCtx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: settleJS}); err != nil {
		return rendered{}, fmt.Errorf("prepare tab: %w", err)
	}
	nav, err := chromedp.Call(settleCtx, page.Navigate, page.NavigateParams{URL: ic.docURL})
	if err == nil && nav.ErrorText != "" {
		err = errors.New(nav.ErrorText)
	}
	if err != nil && settleCtx.Err() == nil {
		return rendered{}, fmt.Errorf("navigate: %w", err)
	}
	cut := r.settle(settleCtx, ic)
	if ctx.Err() != nil || !b.alive() {
		return rendered{}, context.Canceled
	}
	html, err := chromedp.Run(snapCtx, chromedp.Evaluate[string](snapshotJS))
	if err != nil {
		return rendered{}, fmt.Errorf("serialise DOM: %w", err)
	}
	return rendered{html: html, ms: time.Since(start).Milliseconds(), cut: cut, requests: int(ic.requests.Load())}, nil
}
