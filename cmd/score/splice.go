package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// The streaming path decodes only the fields scoring reads and writes the
// input line back verbatim with the scored fields spliced in: on segment's
// docs (tens of KB of blocks, contents and meta) JSON is most of the cost,
// and every field score does not touch passes through byte for byte.

// leanDoc is the part of a doc record that scoring reads.
type leanDoc struct {
	URL         string `json:"url"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Content     string `json:"content"`
	// HTML stays raw (a copy, not unquoted) unless the rules read it.
	HTML   json.RawMessage `json:"html"`
	Tokens []string        `json:"tokens"`
	Links  []record.Link   `json:"links"`
	Blocks []leanBlock     `json:"blocks"`
	record.Lineage
	Error string `json:"error"`

	// members are the line's top-level members, found by decodeLean.
	members []member
}

// leanBlock is the part of a block that scoring reads.
type leanBlock struct {
	ID   int    `json:"id"`
	Kind string `json:"kind"`
}

// doc returns the doc, with its HTML when withHTML.
func (l *leanDoc) doc(withHTML bool) (record.Doc, error) {
	d := record.Doc{URL: l.URL, Title: l.Title, Description: l.Description, Content: l.Content,
		Tokens: l.Tokens, Links: l.Links, Lineage: l.Lineage, Error: l.Error}
	if withHTML && len(l.HTML) > 0 {
		if err := json.Unmarshal(l.HTML, &d.HTML); err != nil {
			return d, fmt.Errorf(`field "html": %w`, err)
		}
	}
	if len(l.Blocks) > 0 {
		d.Blocks = make([]record.Block, len(l.Blocks))
		for i, b := range l.Blocks {
			d.Blocks[i] = record.Block{ID: b.ID, Kind: b.Kind}
		}
	}
	return d, nil
}

// scoredFields are the fields score adds to a doc (links replace the
// doc's own).
type scoredFields struct {
	Score    float64             `json:"score"`
	Relevant bool                `json:"relevant"`
	Scores   map[string]float64  `json:"scores,omitempty"`
	Links    []record.ScoredLink `json:"links,omitempty"`
}

// replacedKeys are the top-level keys of the input that the scored fields
// replace.
var replacedKeys = map[string]bool{"links": true, "score": true, "relevant": true, "scores": true}

var errNotObject = errors.New("not a JSON object")

// member is a member of a line's top-level object: the bytes
// [start, end) from its key to the end of its value; replaced when its key
// is one of replacedKeys.
type member struct {
	start, end int
	replaced   bool
}

// splice appends to dst the JSON object line (valid JSON, as decoded
// before) without its replacedKeys, followed by the members of the
// encoded object add.
func splice(dst, line, add []byte) ([]byte, error) {
	ms, err := members(line, nil)
	if err != nil {
		return dst, err
	}
	return join(dst, line, ms, add), nil
}

// join appends to dst the members of line that are not replaced,
// followed by the members of the object add.
func join(dst, line []byte, ms []member, add []byte) []byte {
	dst = append(dst, '{')
	n := 0
	for _, m := range ms {
		if m.replaced {
			continue
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, line[m.start:m.end]...)
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

// members appends to dst the members of the JSON object line (valid
// JSON, as decoded before), found by a scan that only tracks strings and
// nesting.
func members(line []byte, dst []member) ([]member, error) {
	all := line
	line = bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(line), []byte("\ufeff")))
	if len(line) < 2 || line[0] != '{' || line[len(line)-1] != '}' {
		return dst, errNotObject
	}
	base := cap(all) - cap(line) // line is all[base:…]
	i := 1
	for {
		i = skipSpace(line, i)
		if i >= len(line)-1 || line[i] == '}' {
			break
		}
		if line[i] == ',' {
			i++
			continue
		}
		start := i
		keyEnd := skipString(line, i)
		key := line[i+1 : keyEnd-1]
		i = skipSpace(line, keyEnd)
		if i >= len(line) || line[i] != ':' {
			return dst, errNotObject
		}
		i = skipValue(line, skipSpace(line, i+1))
		if i < 0 {
			return dst, errNotObject
		}
		dst = append(dst, member{start: base + start, end: base + i, replaced: replacedKeys[string(key)]})
	}
	return dst, nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string starting at b[i].
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// skipValue returns the index just past the value starting at b[i], or −1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = skipString(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	return j
}

// scoredEncoder writes scored docs: each the input line with its scored
// fields spliced in. One per goroutine.
type scoredEncoder struct {
	scratch []byte
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

// encode appends to dst the scored doc sd: line with its scored fields
// spliced in. ms are line's members when the decoder found them (nil:
// found here).
func (e *scoredEncoder) encode(dst, line []byte, ms []member, sd *record.ScoredDoc) ([]byte, error) {
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
	if ms == nil {
		var err error
		if ms, err = members(line, nil); err != nil {
			return nil, err
		}
	}
	return join(slices.Grow(dst, len(line)+len(add)), line, ms, add), nil
}
