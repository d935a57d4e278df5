// Package suggest finds the likely intended word for a mistyped one (a
// YAML key, a flag): the "did you mean" of error messages.
package suggest

import (
	"strings"
	"unicode/utf8"
)

// Closest returns the candidate closest to s, if it is close enough to be
// a likely typo ("threshold" → "thresholds", "link-stopwords" →
// "link_stopwords"), else "".
func Closest(s string, candidates []string) string {
	norm := func(x string) string { return strings.ToLower(strings.ReplaceAll(x, "-", "_")) }
	ns := norm(s)
	best, bestD := "", 1<<30
	for _, c := range candidates {
		nc := norm(c)
		d := editDistance(ns, nc)
		limit := max(2, utf8.RuneCountInString(c)/3)
		cp := commonPrefix(ns, nc)
		prefix := cp >= 4 && (cp == len(ns) || cp == len(nc) || cp >= len(nc)*2/3)
		if (d <= limit || prefix) && d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// commonPrefix is the length in bytes of the longest common prefix.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
