// Package seedurls is the URL-list side of seed, callable from Go without
// its command line: Run (seed urls) turns URL lists into url records,
// Search (seed search) asks search engines, Sitemap (seed sitemap) reads
// sitemaps. The seed command parses its flags into their Options.
package seedurls

import (
	"context"
	"io"
	"sync/atomic"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/seenset"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// Options are the settings of one run of seed urls.
type Options struct {
	Normalize     urlx.Options
	HostScope     bool   // site is the host name, not the registrable domain
	DefaultScheme string // "", "http" or "https": the scheme of lines without one
	Seen          seenset.Options
	Workers       int // goroutines normalising URLs (default 1)
}

// Stats count what a run did.
type Stats struct {
	Lines, URLs, Duplicates, Rejected int64
	Seen                              seenset.Stats
}

// Run is seed urls from Go: it reads URL lines and url records from in and
// writes the url records to out. Rejected lines are counted, not logged;
// when there were any, the error is cli.ErrRejected.
func Run(ctx context.Context, in io.Reader, out io.Writer, o Options) error {
	s := cli.NewStream(in, out, nil)
	_, err := RunStream(ctx, s, o)
	if err != nil {
		return firstErr(err, s.CloseOutput())
	}
	return s.Close()
}

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// RunStream is the whole of seed urls over an open stream: lines are read
// in batches by one goroutine, normalised and encoded by o.Workers, and
// de-duplicated and written in input order by the calling goroutine
// (cli.Ordered). Unless it fails, it flushes the output and logs the
// summary. It does not close s; when it returns an error, the reading
// goroutine may still be blocked on s.In, so close with s.CloseOutput.
func RunStream(ctx context.Context, s *cli.Stream, o Options) (st Stats, err error) {
	seen := seenset.New(o.Seen)
	defer func() {
		st.Seen = seen.Stats()
		seen.Close()
	}()
	var lines int64       // emitted: lines neither rejected nor too long
	var urls atomic.Int64 // for the progress line
	ord := cli.Ordered[converted]{
		// URL lines are short and quick: batches of 256 cost less CPU to
		// hand over than the default 64 (the window is 256 lines a worker).
		Workers: max(o.Workers, 1), BatchLines: 256,
		Work: func(_ context.Context, l jsonl.Line) (converted, error) {
			return convert(l, o)
		},
		Emit: func(_ jsonl.Line, c converted) error {
			if c.closing {
				return nil
			}
			lines++
			if c.out == nil { // a comment
				return nil
			}
			switch added, err := seen.AddString(c.key); {
			case err != nil:
				return err
			case !added:
				st.Duplicates++
				return nil
			}
			urls.Add(1)
			return s.Out.WriteLine(c.out)
		},
	}
	if s.Progress {
		ord.Progress = func(done int64, perSecond float64) {
			s.Log.Progressf("%d lines, %d urls, %.0f lines/s", done+int64(s.Rejects.Count()), urls.Load(), perSecond)
		}
	}
	err = ord.Run(ctx, s)
	st.Rejected = int64(s.Rejects.Count())
	st.Lines, st.URLs = lines+st.Rejected, urls.Load()
	if err == nil {
		err = s.Out.Flush()
	}
	if err != nil {
		return st, err
	}
	s.Log.Infof("urls: %d lines, %d urls, %d duplicates, %d rejected", st.Lines, st.URLs, st.Duplicates, st.Rejected)
	if sp := seen.Stats(); sp.Spills > 0 {
		s.Log.Infof("urls: the seen set spilled %d times (%d merges, %d MiB on disk at the end)",
			sp.Spills, sp.Merges, sp.SpilledBytes>>20)
	}
	return st, nil
}
