package extract

import (
	"iter"
	"regexp"
)

// firstThenAll yields, in order, the matches of re in s that
// FindAllStringSubmatchIndex(s, n) lists. It searches for the first match
// alone and lists them all only when the caller asks for a second: the
// callers stop at the first match they can use, most often the first,
// and the search for the later ones would scan the rest of s.
func firstThenAll(re *regexp.Regexp, s string, n int) iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		if n == 0 {
			return
		}
		first := re.FindStringSubmatchIndex(s)
		if first == nil || !yield(first) {
			return
		}
		for _, m := range re.FindAllStringSubmatchIndex(s, n)[1:] {
			if !yield(m) {
				return
			}
		}
	}
}
