// Package segment is the segment stage callable from Go: page records in,
// doc records (or block records) out, in input order. cmd/segment parses
// its flags into Options and calls RunStream.
package segment

import (
	"context"
	"errors"
	"io"
	"runtime"
	"sync/atomic"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/segmenter"
)

// Options of a run.
type Options struct {
	// Segmenter segments the pages (nil: segmenter.New with the default
	// options).
	Segmenter *segmenter.Segmenter
	// Blocks writes one block record per block instead of one doc per
	// page (--emit blocks).
	Blocks bool
	// Workers is how many pages are segmented at once (0: GOMAXPROCS).
	Workers int
	// Log is where Run reports rejected lines and the summary (nil:
	// nowhere). RunStream uses the stream's.
	Log *cli.Logger
}

// Run segments the page records of in and writes the docs to out. Lines
// that are not page records are rejected: the error then wraps
// cli.ErrRejected.
func Run(ctx context.Context, in io.Reader, out io.Writer, o Options) error {
	return RunStream(ctx, cli.NewStream(in, out, o.Log), o)
}

// result is what one page became: a doc, or its block records.
type result struct {
	doc    record.Doc
	blocks []record.BlockRecord
}

// RunStream segments the pages of s, writes the results in input order,
// closes s and logs the summary.
func RunStream(ctx context.Context, s *cli.Stream, o Options) error {
	sg := o.Segmenter
	if sg == nil {
		var err error
		if sg, err = segmenter.New(segmenter.Options{}); err != nil {
			s.Close()
			return err
		}
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var pages, failed atomic.Int64
	// Pages are large (up to 16 MiB of HTML each): a few per worker are
	// read ahead, as many as the pool held before cli.Ordered.
	run := cli.Ordered[result]{
		Workers: workers, Window: 8 * workers, BatchLines: 4,
		Want: []record.Kind{record.KindPage},
		Work: func(_ context.Context, l jsonl.Line) (result, error) {
			var p record.Page
			if err := jsonl.Decode(l.Bytes, &p); err != nil {
				return result{}, cli.Reject(err)
			}
			if p.URL == "" {
				return result{}, cli.Reject(errors.New(`missing "url" field`))
			}
			if o.Blocks {
				return result{blocks: sg.SegmentBlocks(p)}, nil
			}
			return result{doc: sg.Segment(p)}, nil
		},
		Emit: func(_ jsonl.Line, r result) error {
			pages.Add(1)
			if !o.Blocks {
				if r.doc.Error != "" {
					failed.Add(1)
				}
				return s.Out.Write(r.doc)
			}
			if len(r.blocks) == 1 && r.blocks[0].Error != "" {
				failed.Add(1)
			}
			for i := range r.blocks {
				if err := s.Out.Write(r.blocks[i]); err != nil {
					return err
				}
			}
			return nil
		},
		Progress: func(n int64, perSecond float64) {
			s.Log.Progressf("%d pages, %.0f pages/s, %d errors", n, perSecond, failed.Load())
		},
	}
	err := run.Run(ctx, s)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err == nil || errors.Is(err, cli.ErrRejected) {
		s.Log.Infof("%d pages, %d errors, %d rejected lines", pages.Load(), failed.Load(), s.Rejects.Count())
	}
	return err
}
