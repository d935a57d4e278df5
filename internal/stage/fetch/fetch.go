// Package fetch is the fetch stage callable from Go: url records (or plain
// URL lines) in, page records out, fetched politely and concurrently.
// cmd/fetch parses its flags into Options and calls RunStream.
//
// The stage's pool is the fetcher's own (per-host politeness, retries,
// robots.txt), not cli.Ordered: pages come out as they complete, not in
// input order.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/fetcher"
	"github.com/focuscrawl/focuscrawl/internal/fetcher/fetchflags"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/render"
	"github.com/focuscrawl/focuscrawl/internal/render/renderflags"
	"github.com/focuscrawl/focuscrawl/internal/version"
	"github.com/focuscrawl/focuscrawl/internal/warc"
)

// MaxLine is the longest input line accepted: a url record is small, and
// a runaway line (a 50 MB blob) is rejected with its number instead of
// becoming a 50 MB error record.
const MaxLine = 1 << 20

// Options of a run.
type Options struct {
	// Fetcher configures the fetcher (fetcher.Defaults() for the
	// defaults); its Warnf and WARC are set by the run.
	Fetcher fetcher.Config
	// WARC, when set, is the file every HTTP exchange is also written to.
	WARC string
	// Render says which pages are rendered in headless Chromium, and how
	// (docs/fetch.md, "Rendering").
	Render renderflags.Options
	// Log is where Run reports rejected lines and the summary (nil:
	// nowhere). RunStream uses the stream's.
	Log *cli.Logger
}

// Run fetches the URLs of in and writes the pages to out. Lines that are
// not URLs are rejected: the error then wraps cli.ErrRejected. A
// configuration the fetcher refuses is a usage error naming fetch's flag.
func Run(ctx context.Context, in io.Reader, out io.Writer, o Options) error {
	return RunStream(ctx, cli.NewStream(in, out, o.Log), o)
}

// RunStream fetches the URLs of s, writes the pages as they complete,
// logs the summary and closes s.
func RunStream(ctx context.Context, s *cli.Stream, o Options) error {
	s.In.MaxLine = MaxLine
	cfg := o.Fetcher
	cfg.Warnf = s.Log.Infof
	var w *warc.Writer
	if o.WARC != "" {
		var err error
		if w, err = warc.Create(o.WARC, "focuscrawl fetch "+version.Version); err != nil {
			s.Close()
			return err
		}
		cfg.WARC = w
	}
	f, err := fetcher.New(cfg)
	if err != nil {
		s.Close()
		if w != nil {
			w.Close()
		}
		return fetchflags.ConfigError(err)
	}
	if o.Render.Mode == render.Never {
		err = errors.Join(pump(ctx, f, s), f.Close())
	} else {
		rcfg := o.Render.Config
		rcfg.UserAgent = f.Config().UserAgent
		r, rerr := render.New(rcfg, f)
		if rerr != nil {
			f.Close()
			s.Close()
			if w != nil {
				w.Close()
			}
			return fmt.Errorf("--render %s: %w", o.Render.Mode, rerr)
		}
		err = pumpRendered(ctx, f, r, o.Render.Mode, rcfg.Tabs, s)
		r.Close()
		err = errors.Join(err, f.Close())
		summarizeRender(s.Log, r)
	}
	if w != nil {
		err = errors.Join(err, w.Close())
	}
	summarize(s.Log, f.Stats().Snapshot())
	return errors.Join(err, s.Finish())
}

// ErrProxy is the error of a run stopped because its proxy could not be
// reached: a mistyped --proxy or one that is down is the user's to mend,
// and every page fetched through it would fail as if its host were down.
var ErrProxy = errors.New("the proxy cannot be reached")

// pump reads input lines, runs the fetcher, and writes pages from one
// goroutine as they complete. A page that failed at the proxy stops the
// run: it and the pages still in flight go out as cancelled (the frontier
// queues their URLs again, untried, and parks no host), and the error
// wraps ErrProxy.
func pump(ctx context.Context, f *fetcher.Fetcher, s *cli.Stream) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	in := make(chan record.URL, 64)
	out := make(chan record.Page, 4) // pages may be 10 MiB each
	s.ReadInput(func() error {
		defer close(in)
		return jsonl.ReadURLs(ctx, s.In, s.Rejects, func(u record.URL) error {
			in <- u
			return nil
		})
	})
	go f.Run(ctx, in, out)
	stopProgress := s.ShowProgress(time.Second, func() { progress(s.Log, f.Stats().Snapshot()) })
	defer stopProgress()
	var writeErr, proxyErr error
	var buf []byte
	for p := range out {
		if writeErr != nil {
			continue // draining after a write error (closed pipe)
		}
		if fetcher.ErrorKind(p.Error) == fetcher.KindProxy {
			if proxyErr == nil {
				proxyErr = fmt.Errorf("%w (%s): check --proxy (or HTTP_PROXY); the URLs in flight go back to the frontier untried",
					ErrProxy, strings.TrimPrefix(p.Error, fetcher.KindProxy+": "))
				cancel()
			}
			p.Error = fetcher.KindCanceled + ": " + p.Error
		}
		buf = fetcher.AppendPage(buf[:0], &p)
		if writeErr = s.Out.WriteLine(buf); writeErr != nil {
			cancel()
		}
	}
	return errors.Join(proxyErr, writeErr)
}

var progressMu sync.Mutex

func progress(log *cli.Logger, n fetcher.Snapshot) {
	progressMu.Lock()
	defer progressMu.Unlock()
	secs := max(n.Elapsed.Seconds(), 0.001)
	log.Progressf("%d pages %.0f/s %s/s | errors %d %s| in flight %d | queued %d | hosts waiting %d",
		n.Pages, float64(n.Pages)/secs, humanBytes(float64(n.Bytes)/secs), n.ErrorCount(),
		paren(n.ErrorSummary()), n.InFlight, n.Queued, n.HostsWaiting)
}

func summarize(log *cli.Logger, n fetcher.Snapshot) {
	secs := max(n.Elapsed.Seconds(), 0.001)
	cut := ""
	if n.RobotsCut > 0 {
		cut = fmt.Sprintf(" (%d cut at 512 KiB)", n.RobotsCut)
	}
	log.Infof("%d pages in %s (%.0f pages/s, %s received), %d errors %s%d retries, %d robots.txt fetched%s",
		n.Pages, n.Elapsed.Round(time.Millisecond), float64(n.Pages)/secs, humanBytes(float64(n.Bytes)),
		n.ErrorCount(), paren(n.ErrorSummary()), n.Retries, n.RobotsFetched, cut)
}

func summarizeRender(log *cli.Logger, r *render.Renderer) {
	st := r.Stats()
	log.Infof("rendered %d pages (%d cut at --render-timeout, %d failed, %d retried after a browser crash, %d browser restarts), %d requests from their scripts, %d refused",
		st.Rendered.Load(), st.Cut.Load(), st.Failed.Load(), st.Retried.Load(), r.Restarts(), st.Requests.Load(), st.Blocked.Load())
}

func paren(s string) string {
	if s == "" {
		return ""
	}
	return "(" + s + ") "
}

func humanBytes(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", b/(1<<10))
	}
	return fmt.Sprintf("%.0f B", b)
}
