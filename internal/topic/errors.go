package topic

import (
	"fmt"
	suggestpkg "github.com/focuscrawl/focuscrawl/internal/suggest"
	"strings"
)

// Error is one problem in a topic profile, located by file, line and key.
// Load and Parse return every problem of a file, joined (errors.Join);
// errors.As finds the first.
type Error struct {
	File   string
	Line   int // 1-based; 0 when unknown
	Column int
	// Key is the path of the offending key: "rules[2].any[0]",
	// "thresholds.page", "keywords.造林".
	Key string
	Msg string
	// Err is the underlying error (a regexp or file error), if any.
	Err error
}

// Error formats the problem as "FILE:LINE:COL: KEY: MSG".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// suggest returns the candidate closest to s, if it is close enough to be
// a likely typo ("threshold" → "thresholds", "link-stopwords" →
// "link_stopwords"), else "".
func suggest(s string, candidates []string) string { return suggestpkg.Closest(s, candidates) }
