package score

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// The streaming path decodes only the fields scoring reads (leanDoc) and
// writes the input line back verbatim with the scored fields spliced in:
// on segment's docs (tens of KB of blocks, contents and meta) JSON is most
// of the cost, and every field score does not touch passes through byte
// for byte.

// scoredFields are the fields score adds to a doc (links replace the
// doc's own).
type scoredFields struct {
	Score    float64             `json:"score"`
	Relevant bool                `json:"relevant"`
	Scores   map[string]float64  `json:"scores,omitempty"`
	Links    []record.ScoredLink `json:"links,omitempty"`
}

// replaced tells whether the member m of line is one of the fields the
// scored fields replace: links, score, relevant, scores.
func replaced(line []byte, m jsonl.Member) bool {
	return m.Is(line, "links") || m.Is(line, "score") || m.Is(line, "relevant") || m.Is(line, "scores")
}

// splice appends to dst the JSON object line (valid JSON, as decoded
// before) without its replaced fields, followed by the members of the
// encoded object add.
func splice(dst, line, add []byte) ([]byte, error) {
	ms, err := jsonl.Members(line, nil)
	if err != nil {
		return dst, err
	}
	return join(dst, line, ms, add), nil
}

// join appends to dst the members of line that are not replaced,
// followed by the members of the object add.
func join(dst, line []byte, ms []jsonl.Member, add []byte) []byte {
	dst = append(dst, '{')
	n := 0
	for _, m := range ms {
		if replaced(line, m) {
			continue
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, line[m.Start:m.End]...)
		n++
	}
	add = bytes.TrimSpace(add)
	if inner := bytes.TrimSpace(add[1 : len(add)-1]); len(inner) > 0 {
		if n > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, inner...)
	}
	return append(dst, '}')
}

// scoredEncoder writes scored docs: each the input line with its scored
// fields spliced in. One per goroutine.
type scoredEncoder struct {
	scratch []byte
	members []jsonl.Member
	// buf and enc are encoding/json's, for the docs appendScored refuses.
	buf bytes.Buffer
	enc *json.Encoder
}

func newScoredEncoder() *scoredEncoder {
	e := &scoredEncoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}

// encode appends to dst the scored doc sd: line (valid JSON, as decoded
// before) with its scored fields spliced in.
func (e *scoredEncoder) encode(dst, line []byte, sd *record.ScoredDoc) ([]byte, error) {
	add, ok := appendScored(e.scratch[:0], sd)
	if ok {
		e.scratch = add
	} else {
		// encoding/json says what it cannot write.
		e.buf.Reset()
		if err := e.enc.Encode(scoredFields{Score: sd.Score, Relevant: sd.Relevant, Scores: sd.Scores, Links: sd.Links}); err != nil {
			return nil, err
		}
		add = e.buf.Bytes()
	}
	ms, err := jsonl.Members(line, e.members[:0])
	if err != nil {
		return nil, err
	}
	e.members = ms
	return join(slices.Grow(dst, len(line)+len(add)), line, ms, add), nil
}
