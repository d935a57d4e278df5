package report

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// Labelling is the page's labelling section: the pages of a sample to mark
// relevant or not, and the labels made before (seed report --labels),
// which its export writes again with the new ones.
type Labelling struct {
	Sample  *Sample
	Earlier []jsonl.LabelEntry
	// Archives, LabelsFile and Seed are told on the page, so that a user
	// knows where the sample came from.
	Archives   []string
	LabelsFile string
	Seed       uint64
}

// labellingJS is the section's script: marks, a running count, the marks
// kept in localStorage across reloads, and the export. It is the page's
// only script; the Content-Security-Policy lets it run by its hash and no
// other, so a title from the web that slipped through escaping still
// could not run.
//
//go:embed labelling.js
var labellingJS string

// scriptHash is the CSP source of labellingJS.
var scriptHash = func() string {
	sum := sha256.Sum256([]byte(labellingJS))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()

// The label states, as the radio inputs' values.
const (
	stateRelevant = "yes"
	stateOther    = "no"
)

// labelItem is one page to label as the template shows it. The page
// holds its URL in data-page, not data-url: html/template takes an
// attribute whose name has "url" in it for a link and rewrites it, and
// the label's key must stay the archive's url byte for byte.
type labelItem struct {
	N                     int // numbers the radio group
	URL, Link, Title      string
	ShortURL, Excerpt     string
	Score, Verdict        string
	Prior                 string // the label read from --labels: yes, no or ""
	Line                  string // that label's line, written again unless changed
	InArchive, HasVerdict bool
}

type labelView struct {
	// Key names the page's marks in localStorage: the pages and labels
	// it was made with, so that another report does not take them.
	Key, Threshold, Archives, LabelsFile string
	Seed                                 uint64
	Shown                                int
	Docs                                 string
	Relevant, Other, Earlier             []labelItem
	Bands                                table
	Script                               template.JS
}

func labellingView(l *Labelling) *labelView {
	if l == nil {
		return nil
	}
	s := l.Sample
	if s == nil {
		s = &Sample{}
	}
	v := &labelView{Archives: strings.Join(l.Archives, ", "), LabelsFile: l.LabelsFile, Seed: l.Seed,
		Shown: len(s.Pages), Docs: formatCount(s.Docs), Script: template.JS(labellingJS)}
	if s.HasThreshold {
		v.Threshold = formatScore(s.Threshold)
	}
	key := xxhash.New()
	n := 0
	for _, p := range s.Pages {
		n++
		it := pageItem(n, p)
		if p.Side == SideRelevant {
			v.Relevant = append(v.Relevant, it)
		} else {
			v.Other = append(v.Other, it)
		}
		fmt.Fprintf(key, "%s\x00\x00", p.URL)
	}
	for _, e := range l.Earlier {
		n++
		it := labelItem{N: n, URL: e.URL, Link: e.URL, Title: clip(e.Title, maxTitle), Line: string(e.Line), Prior: stateOther}
		if e.Relevant {
			it.Prior = stateRelevant
		}
		if p, ok := s.Found[e.URL]; ok {
			found := pageItem(n, p)
			found.Prior, found.Line = it.Prior, it.Line
			if found.Title == "" {
				found.Title = it.Title
			}
			it = found
		}
		it.ShortURL = clip(it.Link, 100)
		v.Earlier = append(v.Earlier, it)
		fmt.Fprintf(key, "%s\x00%s\x00", e.URL, it.Prior)
	}
	v.Key = strconv.FormatUint(key.Sum64(), 36)
	v.Bands = bandTable(s)
	return v
}

func pageItem(n int, p LabelPage) labelItem {
	verdict := "judged not relevant"
	if p.Relevant {
		verdict = "judged relevant"
	}
	return labelItem{N: n, URL: p.URL, Link: p.Link, Title: p.Title, ShortURL: clip(p.Link, 100), Excerpt: p.Excerpt,
		Score: formatScore(p.Score), Verdict: verdict, InArchive: true, HasVerdict: true}
}

func formatScore(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }

// bandTable tells how the sample was drawn: each band's score range, its
// docs in the archive (not labelled before) and the pages of it shown.
func bandTable(s *Sample) table {
	t := table{Caption: "The pages shown, by score band", Head: []string{"score's verdict", "score", "docs", "shown"}}
	for _, b := range s.Bands {
		side := "relevant"
		if b.Side == SideOther {
			side = "not relevant"
		}
		t.Rows = append(t.Rows, []cell{{Text: side}, {Text: formatScore(b.Lo) + " – " + formatScore(b.Hi)},
			numCell(formatCount(b.Docs)), numCell(formatCount(int64(b.Shown)))})
	}
	return t
}

// contentPolicy is the page's Content-Security-Policy: nothing from
// anywhere, inline styles (the charts' colours), and the labelling
// script alone when the page has one.
func contentPolicy(withScript bool) string {
	script := "'none'"
	if withScript {
		script = scriptHash
	}
	return "default-src 'none'; style-src 'unsafe-inline'; script-src " + script + "; base-uri 'none'; form-action 'none'"
}
