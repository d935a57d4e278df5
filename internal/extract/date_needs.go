package extract

import (
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
}

func hasNian(s string) bool { return strings.Contains(s, "年") }

// yearThenSeparator: a year (19xx, 20xx), then white space as the
// regexps' \s reads it and a separator of the numeric layouts (-/.).
func yearThenSeparator(s string) bool {
	for i := yearAt(s); i >= 0; {
		j := i + 4
		for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\f' || s[j] == '\r') {
			j++
		}
		if j < len(s) && (s[j] == '-' || s[j] == '/' || s[j] == '.') {
			return true
		}
		next := yearAt(s[i+1:])
		if next < 0 {
			return false
		}
		i += 1 + next
	}
	return false
}

// separatorThenYear: a separator of the numeric layouts right before a
// year.
func separatorThenYear(s string) bool {
	for i := yearAt(s); i >= 0; {
		if i > 0 && (s[i-1] == '-' || s[i-1] == '/' || s[i-1] == '.') {
			return true
		}
		next := yearAt(s[i+1:])
		if next < 0 {
			return false
		}
		i += 1 + next
	}
	return false
}
