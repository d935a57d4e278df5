package siteverify

import (
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// ClassOf names the equivalence class of a URL: its AbstractURL
// (ClassesAbstract), with the digit runs of the path replaced by "{n}"
// (ClassesTemplate). A URL without an AbstractURL is a class of its own.
func ClassOf(rawURL, mode string) string {
	a, err := urlx.AbstractURL(rawURL)
	if err != nil {
		return rawURL
	}
	if mode == ClassesAbstract {
		return a
	}
	path, query, hasQuery := strings.Cut(a, "?")
	var b strings.Builder
	b.Grow(len(a) + 8)
	for i := 0; i < len(path); {
		if c := path[i]; c >= '0' && c <= '9' {
			for i < len(path) && path[i] >= '0' && path[i] <= '9' {
				i++
			}
			b.WriteString("{n}")
			continue
		}
		b.WriteByte(path[i])
		i++
	}
	if hasQuery {
		b.WriteByte('?')
		b.WriteString(query)
	}
	return b.String()
}
