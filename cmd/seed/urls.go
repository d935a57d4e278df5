package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/seenset"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// Flags of seed urls.
const (
	urlsFlagSortQuery     = "sort-query"
	urlsFlagMemory        = "memory"
	urlsFlagTempDir       = "temp-dir"
	urlsFlagScope         = "scope"
	urlsFlagDefaultScheme = "default-scheme"
	urlsFlagWorkers       = "workers"
)

func urlsCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "urls",
		Usage:     "normalise and de-duplicate URL lists into url records (depth 0)",
		ArgsUsage: "[FILE...]",
		Description: `Reads plain lines holding one URL, or url records (any JSON object with a
"url" field), from the FILEs in order or from stdin; "#" lines are comments.
Each URL is normalised (see docs/seed-urls.md), exact duplicates after
normalisation are dropped (the first one wins) and the rest come out as url
records with depth 0 and their site key. The other fields of input records,
meta included, are kept. Lines that are not http(s) URLs are reported as
NAME:LINE: reason and the exit status is 3.

De-duplication is exact and bounded in memory: beyond --memory the set of
seen URLs spills to sorted files in --temp-dir.

EXAMPLE:
   seed urls seeds.txt more-seeds.jsonl.gz | seed add --db crawl.db`,
		Flags: append(cli.StreamFlags(),
			&ucli.BoolFlag{Name: urlsFlagSortQuery, Usage: "sort query parameters by name before comparing (some servers care about the order)", EnvVars: cli.Env(urlsFlagSortQuery)},
			&ucli.StringFlag{Name: urlsFlagScope, Value: cli.ScopeSite, Usage: "site key: site (registrable domain) or host", EnvVars: cli.Env(urlsFlagScope)},
			&ucli.StringFlag{Name: urlsFlagDefaultScheme, Usage: "scheme (http or https) for lines without one, such as www.example.com; by default they are rejected", EnvVars: cli.Env(urlsFlagDefaultScheme)},
			&ucli.StringFlag{Name: urlsFlagMemory, Value: "256MiB", Usage: "memory budget of the seen-URL set before it spills to disk", EnvVars: cli.Env(urlsFlagMemory)},
			&ucli.StringFlag{Name: urlsFlagTempDir, Usage: "`DIR` for spill files (default: $TMPDIR)", EnvVars: cli.Env(urlsFlagTempDir)},
			&ucli.IntFlag{Name: urlsFlagWorkers, Value: runtime.GOMAXPROCS(0), DefaultText: "number of CPUs", Usage: "goroutines normalising URLs", EnvVars: cli.Env(urlsFlagWorkers)},
		),
		Action: runURLs,
	}
}

// urlsOptions are the settings of one run of seed urls.
type urlsOptions struct {
	Normalize     urlx.Options
	HostScope     bool
	DefaultScheme string
	Seen          seenset.Options
	Workers       int
}

func parseURLsOptions(c *ucli.Context) (urlsOptions, error) {
	o := urlsOptions{Normalize: urlx.Options{SortQuery: c.Bool(urlsFlagSortQuery)}, Workers: c.Int(urlsFlagWorkers)}
	scope, err := urlsScope.Value(c)
	if err != nil {
		return o, err
	}
	o.HostScope = scope == cli.ScopeHost
	switch s := c.String(urlsFlagDefaultScheme); s {
	case "", "http", "https":
		o.DefaultScheme = s
	default:
		return o, cli.Usagef("--%s: %q is not http or https", urlsFlagDefaultScheme, s)
	}
	mem, err := cli.ParseSize(c.String(urlsFlagMemory))
	if err != nil {
		return o, cli.Usagef("--%s: %v", urlsFlagMemory, err)
	}
	o.Seen = seenset.Options{Memory: mem, TempDir: c.String(urlsFlagTempDir)}
	if o.Workers < 1 {
		return o, cli.Usagef("--%s: must be at least 1", urlsFlagWorkers)
	}
	return o, nil
}

func runURLs(c *ucli.Context) error {
	o, err := parseURLsOptions(c)
	if err != nil {
		return err
	}
	for _, name := range c.Args().Slice() {
		if name == "-" {
			continue
		}
		if _, err := os.Stat(name); err != nil {
			return fmt.Errorf("input: %w", err)
		}
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// The seen set's arena is live to the end, so by default the heap
		// would grow to twice the budget before a collection: a soft limit
		// keeps the process near the budget instead.
		debug.SetMemoryLimit(o.Seen.Memory + o.Seen.Memory/4 + 64<<20)
	}
	s, err := cli.OpenStream(c)
	if err != nil {
		return err
	}
	st, err := seedURLs(c.Context, s, o)
	closeStream := s.Close
	if err != nil {
		// The reader goroutine may still be blocked on stdin.
		closeStream = s.CloseOutput
	}
	if cerr := closeStream(); err == nil {
		err = cerr
	}
	if err == nil || errors.Is(err, cli.ErrRejected) {
		s.Log.Infof("urls: %d lines, %d urls, %d duplicates, %d rejected", st.Lines, st.URLs, st.Duplicates, s.Rejects.Count())
		if st.Seen.Spills > 0 {
			s.Log.Infof("urls: the seen set spilled %d times (%d merges, %d MiB on disk at the end)",
				st.Seen.Spills, st.Seen.Merges, st.Seen.SpilledBytes>>20)
		}
	}
	return err
}

// urlsStats count what a run did.
type urlsStats struct {
	Lines, URLs, Duplicates int64
	Seen                    seenset.Stats
}

// seedURLs is the whole of seed urls over an open stream: lines are read in
// batches by one goroutine, normalised and encoded by o.Workers, and
// de-duplicated and written in input order by the calling goroutine. When
// it returns an error, the reading goroutine may still be running: the
// caller must not close s.In.
func seedURLs(ctx context.Context, s *cli.Stream, o urlsOptions) (st urlsStats, err error) {
	seen := seenset.New(o.Seen)
	defer func() {
		st.Seen = seen.Stats()
		seen.Close()
	}()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan *urlBatch, o.Workers)
	ordered := make(chan *urlBatch, 2*o.Workers+2)
	readErr := make(chan error, 1)
	go func() {
		defer close(ordered)
		defer close(jobs)
		readErr <- readBatches(ctx, s.In, jobs, ordered)
	}()
	for range o.Workers {
		go func() {
			for b := range jobs {
				b.process(o)
			}
		}()
	}

	var lines, urls atomic.Int64
	if s.Progress {
		start := time.Now()
		stop := cli.Ticker(500*time.Millisecond, func() {
			n := lines.Load()
			s.Log.Progressf("%d lines, %d urls, %.0f lines/s", n, urls.Load(), float64(n)/time.Since(start).Seconds())
		})
		defer func() { stop(); s.Log.EndProgress() }()
	}

	for {
		var b *urlBatch
		select {
		case b = <-ordered:
		case <-ctx.Done(): // the reader may be blocked on stdin
			return st, ctx.Err()
		}
		if b == nil {
			break
		}
		select {
		case <-b.done:
		case <-ctx.Done():
			return st, ctx.Err()
		}
		for i := range b.items {
			it := &b.items[i]
			st.Lines++
			switch {
			case it.err != nil:
				s.Rejects.Reject(jsonl.Line{Name: b.name, Num: it.num, Bytes: it.raw}, it.err)
				continue
			case it.out == nil: // comment
				continue
			}
			added, err := seen.AddString(it.key)
			if err != nil {
				return st, err
			}
			if !added {
				st.Duplicates++
				continue
			}
			if err := s.Out.WriteLine(it.out); err != nil {
				return st, err
			}
			st.URLs++
		}
		if err := s.Out.Err(); err != nil {
			return st, err
		}
		lines.Store(st.Lines)
		urls.Store(st.URLs)
	}
	if err := <-readErr; err != nil {
		return st, err
	}
	return st, ctx.Err()
}

// batchSize and batchBytes bound a batch: the lines in flight stay a few
// MiB even when the lines are whole page records. Batches are also cut
// short when the input has nothing more buffered, so a line never waits
// for more.
const (
	batchSize  = 512
	batchBytes = 1 << 20
)

// urlBatch is a run of consecutive lines of one input.
type urlBatch struct {
	name  string
	items []urlItem
	done  chan struct{}
}

// urlItem is one line and what became of it.
type urlItem struct {
	num int
	raw []byte // the line as read
	key string // normalised URL, the de-duplication key
	out []byte // the url record to write; nil for a comment
	err error  // why the line was rejected
}

// readBatches reads s into batches, sent to the workers and, in input
// order, to the writer.
func readBatches(ctx context.Context, in *jsonl.Reader, jobs, ordered chan<- *urlBatch) error {
	var b *urlBatch
	size := 0 // bytes of the lines in b
	send := func() bool {
		if b == nil {
			return true
		}
		select {
		case ordered <- b:
		case <-ctx.Done():
			return false
		}
		select {
		case jobs <- b:
		case <-ctx.Done():
			return false
		}
		b, size = nil, 0
		return true
	}
	for {
		l, err := in.Next()
		if err == io.EOF {
			send()
			return nil
		}
		if err != nil && !errors.Is(err, jsonl.ErrLineTooLong) {
			send()
			return err
		}
		if b != nil && b.name != l.Name {
			if !send() {
				return nil
			}
		}
		if b == nil {
			b = &urlBatch{name: l.Name, items: make([]urlItem, 0, batchSize), done: make(chan struct{})}
		}
		it := urlItem{num: l.Num, raw: append([]byte(nil), l.Bytes...), err: err}
		b.items = append(b.items, it)
		size += len(it.raw)
		if len(b.items) == batchSize || size >= batchBytes || !in.Buffered() {
			if !send() {
				return nil
			}
		}
	}
}

func (b *urlBatch) process(o urlsOptions) {
	var scratch []byte
	for i := range b.items {
		it := &b.items[i]
		if it.err == nil {
			scratch = it.convert(o, scratch)
		}
	}
	close(b.done)
}
