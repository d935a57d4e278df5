package score

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// nextLine reads the next input line (a copy); ok is false at the end of
// the input. Lines too long are rejected here.
func (r *runner) nextLine() (l jsonl.Line, ok bool, err error) {
	for {
		if err := r.ctx.Err(); err != nil {
			return l, false, err
		}
		line, err := r.s.In.Next()
		if err == io.EOF {
			return l, false, nil
		}
		if errors.Is(err, jsonl.ErrLineTooLong) {
			r.s.Rejects.Reject(line, err)
			closing, ok := jsonl.ClosingRecord(line.Bytes, err)
			if !ok {
				continue
			}
			line.Bytes, err = closing, nil // an error record for the URL, so the frontier closes it
		}
		if err != nil {
			return l, false, err
		}
		line.Bytes = append(getBuf(), line.Bytes...)
		return line, true, nil
	}
}

// groups scores the input in groups of size docs (0: all of it).
func (r *runner) groups(size int) error {
	var lines [][]byte
	var group []record.Doc
	enc := newScoredEncoder()
	flush := func() error {
		if len(group) == 0 {
			return nil
		}
		out, err := r.sc.ScoreBatch(r.ctx, group)
		if err != nil {
			return err
		}
		for i := range out {
			b, err := enc.encode(getBuf(), lines[i], &out[i])
			if err != nil {
				return fmt.Errorf("encode %s: %w", out[i].URL, err)
			}
			r.count(out[i].Relevant, out[i].Error != "")
			err = r.s.Out.WriteLine(b)
			putBuf(b)
			putBuf(lines[i])
			if err != nil {
				return err
			}
		}
		group, lines = group[:0], lines[:0]
		return nil
	}
	// A reader goroutine, so that a window is scored when the input
	// pauses: in a crawl loop the next docs come only after these are
	// scored and their links queued.
	type read struct {
		line jsonl.Line
		ok   bool
		err  error
	}
	lineCh := make(chan read)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			line, ok, err := r.nextLine()
			select {
			case lineCh <- read{line, ok, err}:
			case <-stop:
				return
			}
			if err != nil || !ok {
				return
			}
		}
	}()
	var idle <-chan time.Time
	for {
		var in read
		select {
		case in = <-lineCh:
		case <-idle:
			idle = nil
			if err := flush(); err != nil {
				return err
			}
			continue
		}
		if in.err != nil {
			return in.err
		}
		if !in.ok {
			return flush()
		}
		d, err := decodeDoc(in.line.Bytes, r.withHTML, r.withText)
		if err != nil {
			r.s.Rejects.Reject(in.line, err)
			putBuf(in.line.Bytes)
			continue
		}
		group = append(group, d)
		lines = append(lines, in.line.Bytes)
		if size > 0 && len(group) >= size {
			if err := flush(); err != nil {
				return err
			}
			idle = nil
		} else if size > 0 && r.wait > 0 && idle == nil {
			idle = time.After(r.wait)
		}
	}
}
