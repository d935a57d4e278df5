package kb

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/focuscrawl/focuscrawl/internal/text"
)

func fold(s string) string { return text.Fold(s) }

// ErrEmptyQuery says a query has no searchable word (only stop words or
// punctuation).
var ErrEmptyQuery = errors.New("the query has no searchable word (only stop words or punctuation)")

// Query is a search.
type Query struct {
	// Text is cut into words like the indexed text.
	Text string
	// Any matches records with any of the words instead of all of them.
	Any bool
	// Raw passes Text to FTS5 unchanged (its query syntax: OR, NOT,
	// "phrases", title: …) — the words must then be written cut.
	Raw bool
	// Limit caps the number of hits (default 20).
	Limit int
	// Snippet is the snippet length in characters (default 120).
	Snippet int
	// Open and Close mark matched words in snippets (default "[" and "]").
	Open, Close string
}

// Hit is one search result.
type Hit struct {
	Rank       int      `json:"rank"`
	Score      float64  `json:"score"` // bm25, higher is better
	URL        string   `json:"url"`
	Title      string   `json:"title,omitempty"`
	Published  string   `json:"published,omitempty"`
	Source     string   `json:"source,omitempty"`
	Snippet    string   `json:"snippet,omitempty"`
	Duplicates []string `json:"duplicates,omitempty"`
}

// Search returns the records matching q, best first by bm25 (the title
// weighs 3, the content 1).
func (k *KB) Search(q Query) ([]Hit, error) {
	if q.Limit <= 0 {
		q.Limit = 20
	}
	if q.Snippet <= 0 {
		q.Snippet = 120
	}
	if q.Open == "" && q.Close == "" {
		q.Open, q.Close = "[", "]"
	}
	terms := k.tok.Tokens(fold(q.Text))
	match := q.Text
	if !q.Raw {
		if len(terms) == 0 {
			return nil, ErrEmptyQuery
		}
		quoted := make([]string, len(terms))
		for i, t := range terms {
			quoted[i] = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
		}
		sep := " "
		if q.Any {
			sep = " OR "
		}
		match = strings.Join(quoted, sep)
	}
	rows, err := k.db.Query(`SELECT k.url, k.title, k.published, k.source, k.content, k.duplicates, -bm25(knowledge_fts, 3.0, 1.0) AS s
		FROM knowledge_fts JOIN knowledge k ON k.id = knowledge_fts.rowid
		WHERE knowledge_fts MATCH ? ORDER BY bm25(knowledge_fts, 3.0, 1.0) LIMIT ?`, match, q.Limit)
	if err != nil {
		return nil, fmt.Errorf("search %s: %w", k.path, err)
	}
	defer rows.Close()
	var hits []Hit
	for rows.Next() {
		var h Hit
		var content, dups string
		if err := rows.Scan(&h.URL, &h.Title, &h.Published, &h.Source, &content, &dups, &h.Score); err != nil {
			return nil, fmt.Errorf("search %s: %w", k.path, err)
		}
		json.Unmarshal([]byte(dups), &h.Duplicates)
		h.Rank = len(hits) + 1
		h.Snippet = Snippet(content, terms, q.Snippet, q.Open, q.Close)
		hits = append(hits, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search %s: %w", k.path, err)
	}
	return hits, nil
}

// Snippet cuts from content the window of about size characters that
// holds the most distinct terms (then the most occurrences), with every
// occurrence wrapped in open and close. Matching ignores case and folds
// traditional characters, like the index; the snippet shows the original
// text, its white space collapsed.
func Snippet(content string, terms []string, size int, open, close string) string {
	src := []rune(strings.Join(strings.Fields(content), " "))
	if len(src) == 0 {
		return ""
	}
	low := []rune(strings.ToLower(fold(string(src))))
	if len(low) != len(src) { // a case mapping changed the length: match on the original
		low = src
	}
	type occ struct{ at, n, term int }
	var occs []occ
	for ti, t := range terms {
		tr := []rune(t)
		if len(tr) == 0 {
			continue
		}
		for i := 0; i+len(tr) <= len(low); i++ {
			if runesEqual(low[i:i+len(tr)], tr) && wordEdge(low, i, i+len(tr)) {
				occs = append(occs, occ{i, len(tr), ti})
				i += len(tr) - 1
			}
		}
	}
	slices.SortStableFunc(occs, func(a, b occ) int { return a.at - b.at })
	start := 0
	if len(occs) > 0 {
		best, bestDistinct, bestCount := 0, -1, -1
		for i := range occs {
			seen := map[int]bool{}
			count := 0
			for j := i; j < len(occs) && occs[j].at+occs[j].n <= occs[i].at+size; j++ {
				seen[occs[j].term] = true
				count++
			}
			if len(seen) > bestDistinct || len(seen) == bestDistinct && count > bestCount {
				best, bestDistinct, bestCount = i, len(seen), count
			}
		}
		start = max(0, occs[best].at-size/5)
	}
	end := min(len(src), start+size)
	if end-start < size {
		start = max(0, end-size)
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	pos := start
	for _, o := range occs {
		if o.at < pos || o.at+o.n > end {
			continue
		}
		b.WriteString(string(src[pos:o.at]))
		b.WriteString(open)
		b.WriteString(string(src[o.at : o.at+o.n]))
		b.WriteString(close)
		pos = o.at + o.n
	}
	b.WriteString(string(src[pos:end]))
	if end < len(src) {
		b.WriteString("…")
	}
	return b.String()
}

func runesEqual(a, b []rune) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// wordEdge tells whether s[i:j] does not cut a Latin word or number in
// two (CJK words have no edges to check).
func wordEdge(s []rune, i, j int) bool {
	latin := func(r rune) bool { return r < 0x2E80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) }
	if i > 0 && latin(s[i-1]) && latin(s[i]) {
		return false
	}
	if j < len(s) && latin(s[j]) && latin(s[j-1]) {
		return false
	}
	return true
}
