package dedupe

import (
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// input holds the fields of a doc or scored doc that dedupe uses;
// jsonl.Decode skips the rest (blocks, links: most of a scored doc's
// bytes) without building them. Tokens, when the doc carries them
// (segment's and score's do), spare cutting the content again. Relevant is
// nil when the record has no "relevant" field (segment output), which
// counts as relevant.
type input struct {
	URL       string      `json:"url"`
	FinalURL  string      `json:"final_url"`
	Canonical string      `json:"canonical"`
	Title     string      `json:"title"`
	Published string      `json:"published"`
	Source    string      `json:"source"`
	Author    string      `json:"author"`
	Content   string      `json:"content"`
	Score     float64     `json:"score"`
	Relevant  *bool       `json:"relevant"`
	PageType  string      `json:"page_type"`
	Error     string      `json:"error"`
	Meta      record.Meta `json:"meta"`
	// Duplicates: a knowledge record read again keeps the copies it had.
	Duplicates []string `json:"duplicates"`
	Tokens     []string `json:"tokens"`
}

// doc is the scored doc dedup.NewItem reads.
func (in *input) doc() *record.ScoredDoc {
	return &record.ScoredDoc{Doc: record.Doc{URL: in.URL, FinalURL: in.FinalURL, Canonical: in.Canonical,
		Title: in.Title, Published: in.Published, Source: in.Source, Author: in.Author,
		Content: in.Content, Meta: in.Meta, Tokens: in.Tokens}, Score: in.Score}
}
