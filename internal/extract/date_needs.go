package extract

import (
	"iter"
	"regexp"
	"strings"
)

// layoutNeeds are, for some date layouts, a quick test of what a text
// must hold for the layout to match in it: findDate runs a layout's
// regexp only on a window that passes. A regexp without a literal
// prefix tries every byte of the window, and most windows hold no date
// of most layouts (no 年 on English pages, no 2017-04-01 on most
// Chinese ones). Each test is a condition the regexp cannot match
// without, never more (TestLayoutNeeds holds them to their regexps).
var layoutNeeds = map[*regexp.Regexp]func(string) bool{
	datePatterns[0]: yearThenSeparator, // 2017-04-01, 2017/4/1 08:00
	datePatterns[1]: hasNian,           // 2017年4月1日
	datePatterns[4]: hasNian,           // 2017年4月
	numericDate:     separatorThenYear, // 01/04/2017
	datePatterns[2]: hasMonthName,      // Apr 1, 2017
	datePatterns[3]: hasMonthName,      // 1 April 2017
	datePatterns[5]: hasMonthName,      // April 2017
}

func hasNian(s string) bool { return strings.Contains(s, "年") }

// monthStarts are the first three letters of the month names (monthRe).
var monthStarts = []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// hasMonthName: the first three letters of a month's name in any case, as
// (?i) reads them ("ſ", U+017F, is an "s" there).
func hasMonthName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c == 'j' || c == 'f' || c == 'm' || c == 'a' || c == 's' || c == 'o' || c == 'n' ||
			c == 'd' || s[i] == 0xC5 { // 0xC5 starts "ſ"
			for _, m := range monthStarts {
				if foldedPrefix(s[i:], m) >= 0 {
					return true
				}
			}
		}
	}
	return false
}

// yearThenSeparator: a year (19xx, 20xx), then white space as the
// regexps' \s reads it and a separator of the numeric layouts (-/.).
func yearThenSeparator(s string) bool {
	for i := range years(s) {
		j := skipRegexpSpace(s, i+4)
		if j < len(s) && (s[j] == '-' || s[j] == '/' || s[j] == '.') {
			return true
		}
	}
	return false
}

// separatorThenYear: a separator of the numeric layouts right before a
// year.
func separatorThenYear(s string) bool {
	for i := range years(s) {
		if i > 0 && (s[i-1] == '-' || s[i-1] == '/' || s[i-1] == '.') {
			return true
		}
	}
	return false
}

// years yields the offsets of the years (yearAt) in s, overlapping ones
// too ("2019" in "20190").
func years(s string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := yearAt(s); i >= 0; {
			if !yield(i) {
				return
			}
			next := yearAt(s[i+1:])
			if next < 0 {
				return
			}
			i += 1 + next
		}
	}
}
