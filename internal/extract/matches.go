package extract

import (
	"iter"
	"regexp"
)

// firstThenAll yields, in order, the matches of re in s that
// FindAllStringSubmatchIndex(s, n) (FindAllStringIndex with submatch
// false) lists. It searches for the first match alone and lists them all
// only when the caller asks for a second: the callers stop at the first
// match they can use, most often the first, and the search for the later
// ones would scan the rest of s.
func firstThenAll(re *regexp.Regexp, s string, n int, submatch bool) iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		if n == 0 {
			return
		}
		var first []int
		if submatch {
			first = re.FindStringSubmatchIndex(s)
		} else {
			first = re.FindStringIndex(s)
		}
		if first == nil || !yield(first) {
			return
		}
		var all [][]int
		if submatch {
			all = re.FindAllStringSubmatchIndex(s, n)
		} else {
			all = re.FindAllStringIndex(s, n)
		}
		for _, m := range all[1:] {
			if !yield(m) {
				return
			}
		}
	}
}
