package jsonl

import (
	"context"
	"errors"
	"io"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// ReadURLs reads url records, or plain URL lines, from r until the input
// or ctx ends, and passes each to use. Comment lines are skipped. A line
// that is too long, is not a url record, or is refused by use (its error
// is the reason) goes to rej with its number, and reading goes on. Each
// record owns its Meta: the line's bytes are reused.
func ReadURLs(ctx context.Context, r *Reader, rej *Rejects, use func(record.URL) error) error {
	for ctx.Err() == nil {
		l, err := r.Next()
		switch {
		case err == io.EOF:
			return nil
		case errors.Is(err, ErrLineTooLong):
			rej.Reject(l, err)
			continue
		case err != nil:
			return err
		}
		u, err := DecodeURL(l.Bytes)
		if errors.Is(err, ErrComment) {
			continue
		}
		if err == nil {
			u.Meta = append(record.Meta(nil), u.Meta...)
			err = use(u)
		}
		if err != nil {
			rej.Reject(l, err)
		}
	}
	return nil
}
