package score

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
)

// leanDoc is the part of a doc record that scoring reads: jsonl.Decode
// skips the rest (blocks' texts, meta, …) without building anything.
type leanDoc struct {
	URL         string `json:"url"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Content     string `json:"content"`
	// HTML stays raw (not unquoted) unless the rules read it.
	HTML   json.RawMessage `json:"html"`
	Tokens []string        `json:"tokens"`
	Links  []record.Link   `json:"links"`
	Blocks []leanBlock     `json:"blocks"`
	record.Lineage
	Error string `json:"error"`
}

// leanBlock is the part of a block that scoring reads. Text stays raw:
// only a page model reads it, and only of the navigation blocks.
type leanBlock struct {
	ID   int     `json:"id"`
	Kind string  `json:"kind"`
	Text rawText `json:"text"`
}

// rawText is a JSON value kept as the decoder saw it, without a copy
// (json.RawMessage copies every block's text, which only a page model
// reads, and only of a few blocks).
type rawText []byte

// UnmarshalJSON keeps b itself: the decoder's buffer stays alive as long
// as the slice does.
func (r *rawText) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

// decodeDoc decodes a doc line, with its HTML when withHTML and the text
// of its navigation blocks when withText; the error says why the line is
// not a doc.
func decodeDoc(line []byte, withHTML, withText bool) (record.Doc, error) {
	var ld leanDoc
	if err := jsonl.Decode(line, &ld); err != nil {
		return record.Doc{}, err
	}
	if ld.URL == "" && ld.Error == "" {
		return record.Doc{}, errors.New(`doc without "url"`)
	}
	return ld.doc(withHTML, withText)
}

// doc returns the doc, with its HTML when withHTML and the text of its
// navigation blocks when withText.
func (l *leanDoc) doc(withHTML, withText bool) (record.Doc, error) {
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
			if withText && len(b.Text) > 0 && scoring.IsNavBlock(d.Blocks, i) {
				if err := json.Unmarshal(b.Text, &d.Blocks[i].Text); err != nil {
					return d, fmt.Errorf(`field "blocks[%d].text": %w`, i, err)
				}
			}
		}
	}
	return d, nil
}
