package fetch

import (
	"context"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/fetcher"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/render"
)

// pumpRendered is pump with rendering: pages the mode wants go to the
// renderer, the others are written as soon as that is decided. The renderer's requests go
// through the same fetcher, so the fetcher's workers must never wait on
// the renderer: the number of pages between input and output is capped
// (slots), and a page waiting for a tab waits in its own goroutine.
func pumpRendered(ctx context.Context, f *fetcher.Fetcher, r *render.Renderer, mode render.Mode, tabs int, s *cli.Stream) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Room for four pages a worker: fewer starved the workers on a web of
	// static pages (auto ran at 0.6× the speed of never with -c + 4 × tabs).
	slots := make(chan struct{}, 4*f.Config().Concurrency+4*tabs)
	in := make(chan record.URL, 64)
	out := make(chan record.Page, 4)
	s.ReadInput(func() error {
		defer close(in)
		return jsonl.ReadURLs(ctx, s.In, s.Rejects, func(u record.URL) error {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done(): // the fetcher answers it "canceled"
			}
			in <- u
			return nil
		})
	})
	go f.Run(ctx, in, out)
	stats := r.Stats()
	stopProgress := s.ShowProgress(time.Second, func() {
		progress(s.Log, f.Stats().Snapshot())
		s.Log.Progressf("rendered %d (cut %d, failed %d) | script requests %d | in tabs %d", stats.Rendered.Load(), stats.Cut.Load(), stats.Failed.Load(), stats.Requests.Load(), stats.InFlight.Load())
	})
	defer stopProgress()
	done := make(chan record.Page, cap(slots))
	pending := 0
	var writeErr error
	var buf []byte
	write := func(p *record.Page) {
		select {
		case <-slots:
		default:
		}
		if writeErr != nil {
			return // draining after a write error (closed pipe)
		}
		buf = fetcher.AppendPage(buf[:0], p)
		if writeErr = s.Out.WriteLine(buf); writeErr != nil {
			cancel()
		}
	}
	pages := out
	for pages != nil || pending > 0 {
		select {
		case p, ok := <-pages:
			if !ok {
				pages = nil
				continue
			}
			// The decision runs beside the writer, on every core.
			pending++
			go func() {
				if mode.Wants(&p) {
					r.Render(ctx, &p)
				}
				done <- p
			}()
		case p := <-done:
			pending--
			write(&p)
		}
	}
	return writeErr
}
