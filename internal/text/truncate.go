package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Truncate returns s cut to at most max characters (runes), at the last
// sentence end (。！？；.!?; or a line break) if one falls in the second
// half of the allowed length, else at the last space or clause mark
// (，、,:：), else at a character boundary; so it never splits a
// character, and splits a Latin word only when a single word fills the
// second half. Trailing spaces are removed. No ellipsis is added.
func Truncate(s string, max int) string {
	if max <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	end, n := 0, 0
	for end < len(s) && n < max {
		_, size := utf8.DecodeRuneInString(s[end:])
		end += size
		n++
	}
	head := s[:end]
	half := len(head) / 2
	if i := lastIndexFunc(head, isSentenceEnd); i >= half {
		return strings.TrimRightFunc(head[:i], unicode.IsSpace)
	}
	if i := lastIndexFunc(head, isClauseBreak); i >= half {
		return strings.TrimRightFunc(head[:i], unicode.IsSpace)
	}
	return strings.TrimRightFunc(head, unicode.IsSpace)
}

// lastIndexFunc returns the byte offset just after the last rune of s
// for which f is true, or -1.
func lastIndexFunc(s string, f func(r rune, next string) bool) int {
	for i := len(s); i > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if f(r, s[i:]) {
			return i
		}
		i -= size
	}
	return -1
}

func isSentenceEnd(r rune, next string) bool {
	switch r {
	case '。', '！', '？', '；', '\n', '!', '?', ';':
		return true
	case '.':
		// A full stop, not a decimal point or an abbreviation's dot
		// inside a word: it ends the text or a space follows.
		return next == "" || next[0] == ' ' || next[0] == '\n' || next[0] == '\t'
	}
	return false
}

func isClauseBreak(r rune, _ string) bool {
	switch r {
	case '，', '、', ',', ':', '：', ' ', '\t':
		return true
	}
	return false
}
