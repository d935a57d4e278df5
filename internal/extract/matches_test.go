package extract

import (
	"slices"
	"testing"
)

// TestFirstThenAll: taken to the end, firstThenAll yields what
// FindAllStringSubmatchIndex lists; a caller that stops early gets its
// first matches.
func TestFirstThenAll(t *testing.T) {
	texts := []string{"", "2017-04-01", "2017-04-01 and 2018/5/6, 2019.7.8 then 2020-1-2 and 2021-3-4",
		"Apr 1, 2017 or May 2, 2018", "no date", "2004 - 01/01 2005-02-03"}
	for _, re := range loosePatterns {
		for _, s := range texts {
			for _, n := range []int{0, 1, 4, -1} {
				var got [][]int
				for m := range firstThenAll(re, s, n) {
					got = append(got, m)
				}
				want := re.FindAllStringSubmatchIndex(s, n)
				if !slices.EqualFunc(got, want, slices.Equal[[]int]) {
					t.Errorf("%s on %q, n=%d: %v, FindAll gives %v", re, s, n, got, want)
				}
				for m := range firstThenAll(re, s, n) {
					if !slices.Equal(m, want[0]) {
						t.Errorf("%s on %q: first %v, want %v", re, s, m, want[0])
					}
					break
				}
			}
		}
	}
}
