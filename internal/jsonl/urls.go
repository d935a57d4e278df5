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
// is the reason) goes to rej with its number, and reading goes on. A line
// too long whose start names a url is also passed to use, as a record
// with Error set. Each
// record owns its Meta: the line's bytes are reused.
func ReadURLs(ctx context.Context, r *Reader, rej *Rejects, use func(record.URL) error) error {
	for ctx.Err() == nil {
		l, err := r.Next()
		switch {
		case err == io.EOF:
			return nil
		case errors.Is(err, ErrLineTooLong):
			rej.Reject(l, err)
			// Still answer for the URL at the line's start: an error
			// record, which fetch passes on and seed add closes.
			if u, ok := URLOfPrefix(l.Bytes); ok {
				use(record.URL{URL: u, Error: "input: " + err.Error()}) // the line is rejected already
			}
			continue
		case err != nil:
			return err
		}
		// A page, doc or any other stage's record is not a URL to fetch.
		if err := CheckKind(l.Bytes, record.KindURL); err != nil {
			rej.Reject(l, err)
			continue
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
