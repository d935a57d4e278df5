package segmenter

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

// contextAround is a link's context by its definition: oneLine of its
// window, or the anchor cut to limit runes.
func contextAround(text string, start, end, limit int) string {
	lo, hi, cut, ok := contextWindow(text, start, end, limit)
	switch {
	case !ok:
		return ""
	case lo < 0:
		return cut
	}
	return oneLine(text[lo:hi])
}

// TestLinkContexts holds the folded contexts to their definition on
// random block texts (words, Chinese, every kind of white space, runs of
// it at either end) and links in document order whose windows overlap,
// touch or stand apart, with anchors as long as the limit or longer.
func TestLinkContexts(t *testing.T) {
	parts := []string{"word", "森林", "抚育", " ", "  ", "\n\n", "\t", "\u3000", "\u00a0", "\u2028", "\u0085", " | ", "é",
		"a", "。", "\u200b", "x y", "\n", "\v"}
	rng := rand.New(rand.NewSource(7))
	for round := range 3000 {
		var sb strings.Builder
		for n := rng.Intn(40); n >= 0; n-- {
			sb.WriteString(parts[rng.Intn(len(parts))])
		}
		text := sb.String()
		var starts []int // rune boundaries
		for i := range text {
			starts = append(starts, i)
		}
		starts = append(starts, len(text))
		var links []linkAt
		for at := 0; at < len(starts); {
			start := at + rng.Intn(6)
			end := start + rng.Intn(5)
			if end >= len(starts) {
				break
			}
			links = append(links, linkAt{start: starts[start], end: starts[end]})
			at = end + rng.Intn(3)
		}
		limit := 1 + rng.Intn(30)
		got := linkContexts(text, links, limit)
		for i, l := range links {
			if want := contextAround(text, l.start, l.end, limit); got[i] != want {
				t.Fatalf("round %d: text %q, link %d [%d,%d), limit %d: context %q, want %q", round, text, i, l.start, l.end, limit, got[i], want)
			}
			if !utf8.ValidString(got[i]) {
				t.Fatalf("context %q is not valid UTF-8", got[i])
			}
		}
	}
}
