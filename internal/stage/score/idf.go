package score

import (
	"context"
	"errors"
	"io"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/text"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// AddIDFDocs adds to b each line of in as a document (score idf build):
// a doc record's tokens, or its title, description and content tokenized
// with tok, or a line of plain text tokenized. Docs with an error are
// skipped; lines that are neither are rejected on rej.
func AddIDFDocs(ctx context.Context, in *jsonl.Reader, rej *jsonl.Rejects, tok *text.Tokenizer, b *vsm.Builder) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, err := in.Next()
		if err == io.EOF {
			return nil
		}
		if errors.Is(err, jsonl.ErrLineTooLong) {
			rej.Reject(line, err)
			continue
		}
		if err != nil {
			return err
		}
		if !jsonl.IsJSON(line.Bytes) {
			b.Add(tok.Tokens(string(line.Bytes)))
			continue
		}
		var d record.Doc
		if err := jsonl.Decode(line.Bytes, &d); err != nil {
			rej.Reject(line, err)
			continue
		}
		if d.Error != "" {
			continue
		}
		if len(d.Tokens) > 0 {
			b.Add(d.Tokens)
		} else {
			b.Add(tok.Tokens(d.Title + "\n" + d.Description + "\n" + d.Content))
		}
	}
}
