package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

type job struct {
	seq  int
	line jsonl.Line
}

type result struct {
	seq      int
	line     []byte // the scored doc, encoded; nil when the input line was rejected
	relevant bool
	failed   bool
	err      error
}

// stream scores docs as they arrive on several workers, each decoding,
// scoring and encoding its docs (JSON is most of the cost), and writes
// them in input order. At most a few docs per worker are in flight.
func (r *runner) stream() error {
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	jobs := make(chan job, r.workers*2)
	results := make(chan result, r.workers*2)
	readErr := make(chan error, 1)
	// inFlight bounds the lines read but not yet written, so one slow doc
	// cannot make the reorder buffer grow without limit.
	inFlight := make(chan struct{}, r.workers*8)
	go func() {
		defer close(jobs)
		for seq := 0; ; seq++ {
			line, ok, err := r.nextLine()
			if err != nil || !ok {
				readErr <- err
				return
			}
			select {
			case inFlight <- struct{}{}:
			case <-ctx.Done():
				readErr <- nil
				return
			}
			select {
			case jobs <- job{seq, line}:
			case <-ctx.Done():
				readErr <- nil
				return
			}
		}
	}()
	done := make(chan struct{})
	for range r.workers {
		go func() {
			defer func() { done <- struct{}{} }()
			enc := newScoredEncoder()
			for j := range jobs {
				res := result{seq: j.seq}
				if d, ms, ok := r.decodeDoc(j.line); ok {
					sd, err := r.sc.Score(ctx, &d)
					res.err = err
					if err == nil {
						res.line, err = enc.encode(getBuf(), j.line.Bytes, ms, &sd)
						if err != nil {
							res.err = fmt.Errorf("%s: encode: %w", j.line, err)
						}
						res.relevant, res.failed = sd.Relevant, sd.Error != ""
					}
				}
				// The doc holds copies of what it needs from the line.
				putBuf(j.line.Bytes)
				select {
				case results <- res:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		for range r.workers {
			<-done
		}
		close(results)
	}()
	pending := map[int]result{}
	nextSeq := 0
	var firstErr error
	for res := range results {
		if firstErr != nil {
			continue
		}
		pending[res.seq] = res
		for {
			p, ok := pending[nextSeq]
			if !ok {
				break
			}
			delete(pending, nextSeq)
			nextSeq++
			<-inFlight
			if p.err != nil {
				firstErr = p.err
				cancel()
				break
			}
			if p.line == nil {
				continue
			}
			r.docs++
			r.scored.Add(1)
			if p.relevant {
				r.relevant++
			}
			if p.failed {
				r.failed++
			}
			err := r.s.Out.WriteLine(p.line)
			putBuf(p.line)
			if err != nil {
				firstErr = err
				cancel()
				break
			}
		}
	}
	if firstErr != nil {
		return firstErr
	}
	return <-readErr
}

// bufs recycles the buffers of input lines and scored docs: at tens of KB
// a doc, fresh ones each time would make most of the garbage.
var bufs = sync.Pool{New: func() any { return new([]byte) }}

// getBuf returns an empty buffer, from the pool when it has one.
func getBuf() []byte { return (*bufs.Get().(*[]byte))[:0] }

// putBuf gives b back to the pool; b must not be used after.
func putBuf(b []byte) {
	if cap(b) == 0 || cap(b) > 4<<20 {
		return
	}
	b = b[:0]
	bufs.Put(&b)
}
