package cli

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// Ordered is the loop of a stage that works on its input lines in
// parallel and writes the results in input order: one goroutine reads
// s.In, Workers goroutines call Work, and the caller's goroutine calls
// Emit, one line at a time, in the order the lines came. It is the one
// worker pool of the stages (seed urls and add, segment, score, dedupe).
//
// What it takes care of, so that no stage does it again:
//   - bounds: at most Window lines, and WindowBytes bytes of them (plus
//     the batch being read), are read and not yet emitted, so neither one
//     slow line nor long lines can make memory grow without limit;
//   - batching: lines that are already buffered go to a worker together
//     (up to BatchLines or BatchBytes), and a batch never waits for input
//     that has not come, so a record in a feedback loop is not held back;
//   - rejects: a Work error made with Reject is reported on s.Rejects at
//     the line's turn, and the stream goes on; a line over the reader's
//     cap is rejected, and its URL, when the cut line names one, goes on
//     as an error record (jsonl.ClosingRecord) so the frontier closes it;
//   - errors: any other error of Work or Emit stops the run once the
//     lines before it are emitted; a closed stdout (EPIPE) is such an
//     error, which ExitCode turns into a quiet success;
//   - cancel: when ctx ends, reading stops, the workers finish or abandon
//     what they hold, and Run returns the context's error without waiting
//     for a read of stdin that may never return (Stream.Finish releases
//     it);
//   - progress: with s.Progress, Progress is called every second and once
//     at the end.
type Ordered[T any] struct {
	// Workers is how many goroutines call Work (at least 1).
	Workers int
	// Window bounds the lines read and not yet emitted (default 64 per
	// worker, and at least four batches per worker, so that the workers
	// have batches to work on while earlier ones wait to be emitted); a
	// batch larger than it goes alone.
	Window int
	// WindowBytes bounds the bytes of those lines (default 64 MiB); a
	// batch larger than it (one long line) goes alone.
	WindowBytes int
	// BatchLines and BatchBytes bound a batch (defaults 64 lines, 256 KiB;
	// a longer line makes a batch of its own).
	BatchLines, BatchBytes int
	// Want, when not nil, names the record kinds the stage reads: a line
	// of another kind, or with invalid UTF-8, is rejected before Work sees
	// it (jsonl.CheckKind), by the same words in every stage. An empty
	// Want checks UTF-8 only.
	Want []record.Kind
	// Work turns one line into a result. l.Bytes stays valid until Emit
	// for the line returns. Errors made with Reject reject the line.
	Work func(ctx context.Context, l jsonl.Line) (T, error)
	// Emit writes one result, on the goroutine that called Run, in input
	// order.
	Emit func(l jsonl.Line, v T) error
	// Progress, when set, draws the progress line from the count of lines
	// emitted and their rate per second.
	Progress func(done int64, perSecond float64)
}

// rejectError marks an error of Work that rejects its line.
type rejectError struct{ err error }

func (e rejectError) Error() string { return e.err.Error() }
func (e rejectError) Unwrap() error { return e.err }

// Reject wraps err so that Ordered rejects the line Work was given and goes
// on with the next.
func Reject(err error) error { return rejectError{err} }

// orderedBatch is a run of lines read together, and their results.
type orderedBatch[T any] struct {
	lines   []jsonl.Line
	results []T
	errs    []error
	arena   []byte // the lines' bytes
	// cut are the lines over the reader's cap, rejected at their turn:
	// each before lines[before] (or after the last line).
	cut  []cutLine
	done chan struct{}
}

// cutLine is a line over the reader's cap, kept (cut) for the rejects
// file until its turn comes.
type cutLine struct {
	before int
	line   jsonl.Line
	err    error
}

// Run reads s.In to the end (or to the first error) and returns the first
// error of reading, Work or Emit, or the context's. It does not close s.
func (o *Ordered[T]) Run(ctx context.Context, s *Stream) error {
	if o.Workers < 1 {
		return errors.New("ordered: Workers must be at least 1")
	}
	if o.BatchLines <= 0 {
		o.BatchLines = 64
	}
	if o.BatchBytes <= 0 {
		o.BatchBytes = 256 << 10
	}
	if o.Window <= 0 {
		o.Window = max(64, 4*o.BatchLines) * o.Workers
	}
	if o.WindowBytes <= 0 {
		o.WindowBytes = 64 << 20
	}
	win := &window{maxLines: o.Window, maxBytes: o.WindowBytes, freed: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()

	// Each batch goes to work and, in read order, to order; it holds its
	// lines and bytes of the window until it is emitted.
	work := make(chan *orderedBatch[T], o.Workers)
	order := make(chan *orderedBatch[T], o.Window)
	readErr := make(chan error, 1) // sent before order closes
	go func() {
		defer close(order)
		defer close(work)
		readErr <- o.read(ctx, s, work, order, win)
	}()

	for range o.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				var b *orderedBatch[T]
				var ok bool
				select {
				case b, ok = <-work:
				case <-ctx.Done():
					return
				}
				if !ok {
					return
				}
				for i, l := range b.lines {
					if ctx.Err() != nil {
						continue
					}
					if o.Want != nil && !l.Closing {
						if err := jsonl.CheckKind(l.Bytes, o.Want...); err != nil {
							b.errs[i] = Reject(err)
							continue
						}
					}
					b.results[i], b.errs[i] = o.Work(ctx, l)
				}
				close(b.done)
			}
		}()
	}

	var emitted atomic.Int64
	if o.Progress != nil {
		start := time.Now()
		stop := s.ShowProgress(time.Second, func() {
			n := emitted.Load()
			o.Progress(n, float64(n)/max(time.Since(start).Seconds(), 1e-3))
		})
		defer stop()
	}
	for {
		var b *orderedBatch[T]
		var ok bool
		select {
		case b, ok = <-order:
		case <-ctx.Done():
			return ctx.Err()
		}
		if !ok {
			return <-readErr
		}
		select {
		case <-b.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		cut := b.cut
		for i, l := range b.lines {
			for len(cut) > 0 && cut[0].before == i {
				s.Rejects.Reject(cut[0].line, cut[0].err)
				cut = cut[1:]
			}
			var rej rejectError
			switch err := b.errs[i]; {
			case errors.As(err, &rej):
				s.Rejects.Reject(l, rej.err)
			case err != nil:
				return err
			default:
				if err := o.Emit(l, b.results[i]); err != nil {
					return err
				}
				emitted.Add(1)
			}
		}
		for _, c := range cut {
			s.Rejects.Reject(c.line, c.err)
		}
		// A batch's share of the window is freed at once: freed line by
		// line, it would wake the reader for one line at a time.
		win.release(len(b.lines), len(b.arena))
		putArena(b.arena) // its lines are emitted: l.Bytes is no longer in use
	}
}

// read batches the input lines into work and order until the input ends,
// reading fails or ctx ends.
func (o *Ordered[T]) read(ctx context.Context, s *Stream, work, order chan<- *orderedBatch[T], win *window) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := &orderedBatch[T]{done: make(chan struct{}), arena: getArena()}
		var err error
		for len(b.lines) < o.BatchLines && len(b.arena) < o.BatchBytes {
			var l jsonl.Line
			l, err = s.In.Next()
			if errors.Is(err, jsonl.ErrLineTooLong) {
				cut := l
				cut.Bytes = append([]byte(nil), l.Bytes...)
				b.cut = append(b.cut, cutLine{before: len(b.lines), line: cut, err: err})
				closing, ok := jsonl.ClosingRecord(l.Bytes, err)
				l.Bytes, l.Closing, err = closing, true, nil
				if !ok {
					continue
				}
			}
			if err != nil {
				break
			}
			start := len(b.arena)
			b.arena = append(b.arena, l.Bytes...)
			l.Bytes = b.arena[start:len(b.arena):len(b.arena)]
			b.lines = append(b.lines, l)
			if !s.In.Buffered() {
				break
			}
		}
		if len(b.lines) > 0 || len(b.cut) > 0 {
			// The arena may have moved as it grew: point the lines at
			// its final bytes.
			off := 0
			for i := range b.lines {
				n := len(b.lines[i].Bytes)
				b.lines[i].Bytes = b.arena[off : off+n : off+n]
				off += n
			}
			if err := win.acquire(ctx, len(b.lines), len(b.arena)); err != nil {
				return err
			}
			b.results = make([]T, len(b.lines))
			b.errs = make([]error, len(b.lines))
			select {
			case order <- b:
			case <-ctx.Done():
				return ctx.Err()
			}
			select {
			case work <- b:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// window bounds the lines, and their bytes, read and not yet emitted.
// Only the reader waits on it, so one pending wake-up is enough.
type window struct {
	mu                 sync.Mutex
	lines, bytes       int
	maxLines, maxBytes int
	freed              chan struct{}
}

// acquire takes a batch's lines and bytes, waiting for releases while
// they would go over the window; a batch is let through alone whatever
// its size.
func (w *window) acquire(ctx context.Context, lines, bytes int) error {
	for {
		w.mu.Lock()
		if w.lines == 0 || w.lines+lines <= w.maxLines && w.bytes+bytes <= w.maxBytes {
			w.lines += lines
			w.bytes += bytes
			w.mu.Unlock()
			return nil
		}
		w.mu.Unlock()
		select {
		case <-w.freed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (w *window) release(lines, bytes int) {
	w.mu.Lock()
	w.lines -= lines
	w.bytes -= bytes
	w.mu.Unlock()
	select {
	case w.freed <- struct{}{}:
	default:
	}
}

// arenas recycles the batches' line buffers once their lines are
// emitted: at tens of KB a doc (score, dedupe), fresh ones for every batch
// would make most of a stage's garbage.
var arenas = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledArena is the largest buffer kept for reuse: a batch of
// BatchBytes and a long line, not one of 64 MiB.
const maxPooledArena = 1 << 20

func getArena() []byte { return (*arenas.Get().(*[]byte))[:0] }

func putArena(b []byte) {
	if cap(b) == 0 || cap(b) > maxPooledArena {
		return
	}
	b = b[:0]
	arenas.Put(&b)
}
