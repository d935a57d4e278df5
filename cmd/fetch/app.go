package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/fetcher"
	"github.com/focuscrawl/focuscrawl/internal/fetcher/fetchflags"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/warc"
)

// maxLine is the longest input line accepted: a url record is small, and
// a runaway line (a 50 MB blob) is rejected with its number instead of
// becoming a 50 MB error record.
const maxLine = 1 << 20

func newApp() *ucli.App {
	app := cli.New(cli.App{
		Name:    "fetch",
		Usage:   "fetch URLs politely into page records (UTF-8 HTML)",
		Args:    "[FILE...]",
		Example: "seed urls seeds.txt | fetch --per-host 2 --warc crawl.warc.gz > pages.jsonl",
		Flags:   fetchFlags(),
		Action:  run,
	})
	// Header values hold commas ("zh-CN,zh;q=0.9"); --accept splits its
	// own.
	app.DisableSliceFlagSeparator = true
	return app
}

func run(c *ucli.Context) error {
	cfg, err := fetchflags.Config(c, fetcherFlags)
	if err != nil {
		return err
	}
	s, err := cli.OpenStreamWith(c, c.Args().Slice(), c.App.Reader, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return err
	}
	s.In.MaxLine = maxLine
	cfg.Warnf = s.Log.Infof
	var w *warc.Writer
	if path := c.String(flagWARC); path != "" {
		if w, err = warc.Create(path, "focuscrawl fetch "+cli.Version); err != nil {
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
	inputDone, runErr := pump(c.Context, f, s)
	err = errors.Join(runErr, f.Close())
	if w != nil {
		err = errors.Join(err, w.Close())
	}
	summarize(s.Log, f.Stats().Snapshot())
	return errors.Join(err, closeStream(s, inputDone))
}

// pump reads input lines, runs the fetcher, and writes pages from one
// goroutine as they complete. inputDone says whether the input reader
// ended (it may still be blocked reading stdin after an interrupt).
func pump(ctx context.Context, f *fetcher.Fetcher, s *cli.Stream) (inputDone bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	in := make(chan record.URL, 64)
	out := make(chan record.Page, 4) // pages may be 10 MiB each
	var readErr error
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		defer close(in)
		readErr = readInput(ctx, s, in)
	}()
	go f.Run(ctx, in, out)
	if s.Progress {
		stop := cli.Ticker(time.Second, func() { progress(s.Log, f.Stats().Snapshot()) })
		defer func() {
			stop()
			progress(s.Log, f.Stats().Snapshot()) // the final state, even for short runs
			s.Log.EndProgress()
		}()
	}
	var writeErr error
	var buf []byte
	for p := range out {
		if writeErr != nil {
			continue // draining after a write error (closed pipe)
		}
		buf = fetcher.AppendPage(buf[:0], &p)
		if writeErr = s.Out.WriteLine(buf); writeErr != nil {
			cancel()
		}
	}
	select {
	case <-readDone:
		return true, errors.Join(readErr, writeErr)
	case <-time.After(100 * time.Millisecond):
		// Still blocked reading stdin after an interrupt: leave it.
		return false, writeErr
	}
}

// readInput sends every usable input line to in; others are rejected with
// their line number.
func readInput(ctx context.Context, s *cli.Stream, in chan<- record.URL) error {
	for ctx.Err() == nil {
		l, err := s.In.Next()
		if err == io.EOF {
			return nil
		}
		if errors.Is(err, jsonl.ErrLineTooLong) {
			s.Rejects.Reject(l, err)
			continue
		}
		if err != nil {
			return err
		}
		u, err := jsonl.DecodeURL(l.Bytes)
		if errors.Is(err, jsonl.ErrComment) {
			continue
		}
		if err != nil {
			s.Rejects.Reject(l, err)
			continue
		}
		u.Meta = append(record.Meta(nil), u.Meta...) // l.Bytes is reused
		in <- u
	}
	return nil
}

// closeStream closes the output and rejects, and the input unless its
// reader is still blocked in it.
func closeStream(s *cli.Stream, inputDone bool) error {
	if inputDone {
		return s.Close()
	}
	err := errors.Join(s.Out.Close(), s.Rejects.Close())
	if err == nil && s.Rejects.Count() > 0 {
		return fmt.Errorf("%w: %d", cli.ErrRejected, s.Rejects.Count())
	}
	return err
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
	log.Infof("%d pages in %s (%.0f pages/s, %s received), %d errors %s%d retries, %d robots.txt fetched",
		n.Pages, n.Elapsed.Round(time.Millisecond), float64(n.Pages)/secs, humanBytes(float64(n.Bytes)),
		n.ErrorCount(), paren(n.ErrorSummary()), n.Retries, n.RobotsFetched)
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
