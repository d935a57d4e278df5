package dedup

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// Item is one document made ready for the Deduper: its knowledge record
// and its keys. Items are built concurrently (NewItem) and decided in
// order (Deduper.Add).
type Item struct {
	// Rec is the knowledge record the document becomes.
	Rec record.Knowledge
	// URLKeys are the hashes of the normalised URL, final URL and
	// canonical link (the last one only if CanonicalKey >= 0).
	URLKeys []uint64
	// CanonicalKey is the index in URLKeys of the canonical link's key
	// when it differs from the page's own URLs, else -1. A match on it
	// alone is checked against the content (see Options.CanonicalGuard).
	CanonicalKey int
	// Print holds the content keys.
	Print Print
	// Length is the content's length in characters (--keep longest).
	Length int
	// Published is the parsed publication time (--keep newest); zero
	// when unknown.
	Published time.Time
}

// NewItem prepares the scored doc d: its knowledge record (fingerprint
// included), URL keys and content keys (from d's tokens when it has them:
// Fingerprinter.PrintTokens). dups are URLs already folded into
// d (when d is a knowledge record read again); they stay in its
// duplicates, or move with it when it is dropped.
func NewItem(f *Fingerprinter, d *record.ScoredDoc, dups ...string) *Item {
	it := &Item{CanonicalKey: -1}
	it.Rec = record.Knowledge{
		URL: d.URL, Title: d.Title, Published: d.Published, Source: d.Source,
		Author: d.Author, Content: d.Content, Score: d.Score, Meta: d.Meta,
		Duplicates: dups,
	}
	seen := map[string]bool{}
	add := func(raw string) int {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			return -1
		}
		u, err := urlx.Normalize(raw)
		if err != nil {
			u = raw // still a key: the same odd string twice is the same page
		}
		if seen[u] {
			return -1
		}
		seen[u] = true
		it.URLKeys = append(it.URLKeys, URLHash(u))
		return len(it.URLKeys) - 1
	}
	add(d.URL)
	add(d.FinalURL)
	if d.Canonical != "" && !rootOfOtherPage(d.Canonical, d.URL) {
		it.CanonicalKey = add(d.Canonical)
	}
	body := d.Content
	if isBlank(body) {
		body = ""
	}
	if len(d.Tokens) > 0 {
		it.Print = f.PrintTokens(d.Title, body, d.Tokens)
	} else {
		it.Print = f.Print(body)
	}
	if body == "" {
		it.Print.Exact = 0
	}
	it.Rec.Fingerprint = FormatFingerprint(it.Print.SimHash)
	it.Length = utf8.RuneCountInString(body)
	it.Published = ParseTime(d.Published)
	return it
}

// URLHash is the key of a normalised URL.
func URLHash(u string) uint64 { return xxhash.Sum64String(u) }

// rootOfOtherPage tells whether canonical is the root of a site while the
// page itself is not: a template that points every page's canonical link
// at the home page would otherwise fold a whole site into one record.
func rootOfOtherPage(canonical, page string) bool {
	c, err := urlx.Normalize(canonical)
	if err != nil {
		return false
	}
	p, err := urlx.Normalize(page)
	if err != nil || p == c {
		return false
	}
	rest := c[strings.Index(c, "//")+2:]
	i := strings.IndexByte(rest, '/')
	return i < 0 || rest[i:] == "/"
}

var timeLayouts = []string{
	time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04",
	"2006-01-02", "2006/01/02 15:04:05", "2006/01/02", "2006.01.02", "2006-01", "2006",
	"2006年1月2日 15:04", "2006年1月2日", "2006年01月02日",
}

// ParseTime reads a publication time in the forms segment writes and a
// few common others; it returns the zero time when it cannot.
func ParseTime(s string) time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}
	}
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t
		}
	}
	return time.Time{}
}
