package main

import (
	"context"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

type job struct {
	seq int
	doc record.Doc
}

type result struct {
	seq int
	sd  record.ScoredDoc
	err error
}

// stream scores docs as they arrive, on several workers, and writes them
// in input order. At most a few docs per worker are in flight.
func (r *runner) stream() error {
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	jobs := make(chan job, r.workers*2)
	results := make(chan result, r.workers*2)
	readErr := make(chan error, 1)
	// inFlight bounds the docs read but not yet written, so one slow doc
	// cannot make the reorder buffer grow without limit.
	inFlight := make(chan struct{}, r.workers*8)
	go func() {
		defer close(jobs)
		for seq := 0; ; seq++ {
			d, ok, err := r.next()
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
			case jobs <- job{seq, d}:
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
			for j := range jobs {
				sd, err := r.sc.Score(ctx, &j.doc)
				select {
				case results <- result{j.seq, sd, err}:
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
			if err := r.write(p.sd); err != nil {
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
