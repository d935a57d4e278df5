// Package seed is the frontier side of the seed command, callable from Go
// without its command line: Add records returning pages and queues URLs
// (seed add), Next leases them (seed next), and Peek, Requeue, Stats,
// Hosts and Report are the other subcommands' work. The command parses
// its flags into these Options and calls them.
package seed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// addBatchSize is how many records go into one transaction at most; a
// batch is also written addBatchWait after its first record, so pages in
// a crawl loop are recorded within ~50 ms.
const (
	addBatchSize = 20000
	addBatchWait = 50 * time.Millisecond
)

// AddOptions configure Add.
type AddOptions struct {
	// Ingest says how records become frontier work.
	Ingest frontier.IngestOptions
	// MaxPerHost refuses new URLs of a host that holds this many (0: no
	// limit).
	MaxPerHost int64
	// Retry says how failures are retried and hosts parked (nil: the
	// default).
	Retry *frontier.RetryPolicy
	// Archive, when set, gets every accepted input line, flushed before the
	// batch that holds it is recorded. A rejected line (a record cut by a
	// killed writer, say) never reaches it, so every reader of the archive
	// can parse every line. Add does not close it.
	Archive *jsonl.Writer
	// Workers parse lines in parallel (0: one per CPU); the records reach
	// the frontier in input order whatever their number.
	Workers int
	// Log gets the rejected lines and the summary (nil: nothing).
	Log *cli.Logger
}

// AddSummary counts what one run of Add did.
type AddSummary struct {
	Records int64
	frontier.Applied
	// Refused counts the URLs turned away, by guard.
	Refused map[string]int64
}

func (s *AddSummary) String() string {
	msg := fmt.Sprintf("%d records: %d pages recorded, %d URLs queued, %d improved, %d already known",
		s.Records, s.Done, s.Queued, s.Raised, s.Known)
	if s.Reserved > 0 {
		msg = fmt.Sprintf("%d records: %d pages recorded, %d URLs queued (%d in the reserve), %d improved, %d already known",
			s.Records, s.Done, s.Queued, s.Reserved, s.Raised, s.Known)
	}
	if s.Requeued > 0 {
		msg += fmt.Sprintf(", %d put back (parked host, retry or cancelled)", s.Requeued)
	}
	if len(s.Refused) > 0 {
		names := make([]string, 0, len(s.Refused))
		for k := range s.Refused {
			names = append(names, k)
		}
		sort.Strings(names)
		var parts []string
		for _, k := range names {
			parts = append(parts, fmt.Sprintf("%s %d", k, s.Refused[k]))
		}
		msg += "; refused: " + strings.Join(parts, ", ")
	}
	return msg
}

// Add reads url, page, doc and scored records (or plain URLs) from in
// into store, as seed add does, logs the summary on o.Log and returns it.
// Rejected lines make the error cli.ErrRejected.
func Add(ctx context.Context, in io.Reader, store frontier.Store, o AddOptions) (*AddSummary, error) {
	s := cli.NewStream(in, io.Discard, o.Log)
	sum, err := AddStream(ctx, s, store, o)
	s.Log.Infof("%s", sum)
	return sum, errors.Join(err, s.Close())
}

// AddStream is Add on an open stream (seed add's files, rejects and
// progress); the caller logs the summary and closes s.
func AddStream(ctx context.Context, s *cli.Stream, store frontier.Store, o AddOptions) (*AddSummary, error) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	a := &adding{ctx: ctx, cancel: cancel, store: store, o: o, rejects: s.Rejects,
		ingest: frontier.NewIngester(o.Ingest), sum: AddSummary{Refused: map[string]int64{}}}
	a.timer = time.AfterFunc(time.Hour, a.flushLater)
	a.timer.Stop()
	start := time.Now()
	p := cli.Ordered[parsed]{
		Workers: o.Workers,
		Want:    []record.Kind{}, // every kind; invalid UTF-8 rejected as elsewhere
		Work: func(_ context.Context, l jsonl.Line) (parsed, error) {
			b, err := a.ingest.Parse(l.Bytes)
			return parsed{b, err}, nil
		},
		Emit: a.emit,
		Progress: func(int64, float64) {
			n := a.records.Load()
			s.Log.Progressf("%d records, %.0f/s, %d queued", n, float64(n)/time.Since(start).Seconds(), a.queued.Load())
		},
	}
	if p.Workers <= 0 {
		p.Workers = max(1, runtime.GOMAXPROCS(0))
	}
	err := p.Run(runCtx, s)
	// Records already read are written, even when the run was cancelled:
	// they were taken from the pipe and would be lost otherwise.
	a.timer.Stop()
	a.mu.Lock()
	defer a.mu.Unlock()
	if werr := a.wait(); werr != nil {
		a.err = werr
	}
	if a.err != nil {
		err = a.err // what stopped the run
	}
	return &a.sum, errors.Join(err, a.flush(), a.wait())
}

// parsed is one line's part of a batch, or why it has none.
type parsed struct {
	b   frontier.Batch
	err error
}

// adding is one run of Add: the batch being gathered, written when it is
// full (by emit) or addBatchWait after its first record (by the timer).
// A batch is applied while the next is read and parsed (one at a time,
// in order): the store's work and the parsing overlap.
type adding struct {
	ctx     context.Context
	cancel  context.CancelFunc // stops the run when the timer's flush fails
	store   frontier.Store
	o       AddOptions
	rejects *jsonl.Rejects
	ingest  *frontier.Ingester
	timer   *time.Timer

	records, queued atomic.Int64 // for the progress line

	mu      sync.Mutex
	sum     AddSummary
	batch   frontier.Batch
	pending int
	err     error // of a flush by the timer
	// applying gives the result of the batch being applied (nil: none).
	applying chan applied
}

// applied is what became of one batch.
type applied struct {
	res frontier.Applied
	err error
}

// emit archives an accepted line and adds its part to the batch, in
// input order. Comments and rejected lines are not archived.
func (a *adding) emit(l jsonl.Line, p parsed) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err != nil {
		return a.err
	}
	switch {
	case errors.Is(p.err, jsonl.ErrComment):
		return nil
	case p.err != nil:
		a.rejects.Reject(l, p.err)
		return nil
	}
	if a.o.Archive != nil {
		if err := a.o.Archive.WriteLine(l.Bytes); err != nil {
			return fmt.Errorf("archive: %w", err)
		}
	}
	a.sum.Records++
	a.records.Add(1)
	for k, n := range p.b.Refused {
		a.sum.Refused[k] += n
	}
	if a.pending == 0 {
		a.timer.Reset(addBatchWait)
	}
	a.pending += a.batch.Merge(p.b)
	if a.pending < addBatchSize {
		return nil
	}
	a.timer.Stop()
	return a.flush()
}

// flushLater writes the batch when input paused.
func (a *adding) flushLater() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err == nil {
		if a.err = a.flush(); a.err != nil {
			a.cancel()
		}
	}
}

// flush starts applying the batch gathered so far, once the batch before
// it is applied; a.mu is held. A failed Apply stops the run (the error is
// the one wait gives).
func (a *adding) flush() error {
	if err := a.wait(); err != nil {
		return err
	}
	if a.pending == 0 {
		return nil
	}
	b := a.batch
	a.batch, a.pending = frontier.Batch{}, 0
	if a.o.Archive != nil {
		if err := a.o.Archive.Flush(); err != nil {
			return fmt.Errorf("archive: %w", err)
		}
	}
	b.MaxPerHost, b.Retry = a.o.MaxPerHost, a.o.Retry
	done := make(chan applied, 1)
	a.applying = done
	go func() {
		res, err := a.store.Apply(context.WithoutCancel(a.ctx), b)
		if err != nil {
			a.cancel()
		}
		done <- applied{res, err}
	}()
	return nil
}

// wait waits for the batch being applied, if any, and counts what it did;
// a.mu is held.
func (a *adding) wait() error {
	if a.applying == nil {
		return nil
	}
	r := <-a.applying
	a.applying = nil
	if r.err != nil {
		return r.err
	}
	res := r.res
	a.sum.Queued += res.Queued
	a.sum.Reserved += res.Reserved
	a.sum.Raised += res.Raised
	a.sum.Known += res.Known
	a.sum.Done += res.Done
	a.sum.Requeued += res.Requeued
	a.queued.Store(int64(a.sum.Queued))
	if res.Refused > 0 {
		a.sum.Refused[frontier.GuardMaxPerHost] += int64(res.Refused)
	}
	for guard, n := range res.Guards {
		a.sum.Refused[guard] += n
	}
	return nil
}

// OpenExisting opens the frontier of a command that reads it (next,
// stats, report): a missing file is a mistake, not an empty frontier to
// create.
func OpenExisting(ctx context.Context, path string) (frontier.Store, error) {
	s, err := frontier.OpenExisting(ctx, path)
	return s, noFrontier(path, err)
}

// OpenReading is OpenExisting for the commands that only read the
// frontier (stats, peek, report): a SQLite file is opened read-only.
func OpenReading(ctx context.Context, path string) (frontier.Store, error) {
	s, err := frontier.OpenReading(ctx, path)
	return s, noFrontier(path, err)
}

// WarnVolatile writes one line to w when the frontier's server keeps
// nothing on disk (a Redis without RDB snapshots or an append-only file),
// so a restart would lose the crawl. seed next says it, once per run.
func WarnVolatile(ctx context.Context, s frontier.Store, w io.Writer, cmd string) {
	v, ok := s.(interface{ PersistenceWarning(context.Context) string })
	if !ok {
		return
	}
	if msg := v.PersistenceWarning(ctx); msg != "" {
		fmt.Fprintf(w, "%s: warning: %s\n", cmd, msg)
	}
}

// noFrontier turns ErrNoFrontier into a usage error that says how a
// frontier is begun; a server's URL is not repeated (it may carry a
// password): the error names it, redacted.
func noFrontier(path string, err error) error {
	if !errors.Is(err, frontier.ErrNoFrontier) {
		return err
	}
	if frontier.IsServerURL(path) {
		return cli.Usagef("--db %v; seeding begins a crawl (seed urls SEEDS | seed add --db URL, or crawl.sh with SEEDS)", err)
	}
	return cli.Usagef("--db %s: no such frontier (seed add --db %s creates it)", path, path)
}
