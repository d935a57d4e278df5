package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// LabelEntry is one label read by ReadLabels, with the line it came from.
type LabelEntry struct {
	record.Label
	// Line is the label's line, compacted: its fields beyond url and
	// relevant (the user's own) go out again unchanged when the label
	// is written back.
	Line json.RawMessage
	// Pos is where the line is (FILE:LINE).
	Pos string
}

// labelProbe tells a missing url or relevant from an empty or false one.
type labelProbe struct {
	URL      *string `json:"url"`
	Relevant *bool   `json:"relevant"`
	Title    any     `json:"title"` // informative: any type is let be
}

// ReadLabels reads the user's page labels: JSON lines of {"url": …,
// "relevant": true|false} (record.Label), which seed report's labelling
// section exports and score train learns from, from the named file (.gz
// and .zst too). A line that is not a label is an error naming the file
// and the line, never skipped: a label lost in silence would change what
// the model learns. When a URL is labelled more than once its last line
// counts, in the place of its first. A missing file gives an error
// satisfying errors.Is(err, fs.ErrNotExist).
func ReadLabels(name string) ([]LabelEntry, error) {
	if _, err := os.Stat(name); err != nil {
		return nil, err
	}
	r := NewReader([]string{name}, nil)
	defer r.Close()
	var out []LabelEntry
	at := map[string]int{}
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if errors.Is(err, ErrLineTooLong) {
			return nil, fmt.Errorf("%s: %w", l, err)
		}
		if err != nil {
			return nil, err
		}
		e, err := parseLabel(l.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", l, err)
		}
		e.Pos = l.String()
		if i, ok := at[e.URL]; ok {
			out[i] = e
			continue
		}
		at[e.URL] = len(out)
		out = append(out, e)
	}
}

func parseLabel(b []byte) (LabelEntry, error) {
	var p labelProbe
	if err := Decode(b, &p); err != nil {
		return LabelEntry{}, fmt.Errorf("not a label: %w", err)
	}
	switch {
	case p.URL == nil || *p.URL == "":
		return LabelEntry{}, errors.New(`not a label: no "url"`)
	case p.Relevant == nil:
		return LabelEntry{}, errors.New(`not a label: no "relevant" (true or false)`)
	}
	var line bytes.Buffer
	if err := json.Compact(&line, bytes.TrimLeft(b, " \t\ufeff")); err != nil {
		return LabelEntry{}, fmt.Errorf("not a label: %w", err)
	}
	title, _ := p.Title.(string)
	return LabelEntry{Label: record.Label{URL: *p.URL, Relevant: *p.Relevant, Title: title}, Line: line.Bytes()}, nil
}
