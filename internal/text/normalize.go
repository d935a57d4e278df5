package text

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Normalize returns s in the form every token is made from: Unicode NFKC
// (which also folds full-width Latin letters, digits and punctuation to
// their half-width forms and the ideographic space to a space), then
// lower-cased. CJK characters have no case and are left as they are.
func Normalize(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	s = norm.NFKC.String(s)
	return strings.ToLower(s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// HasCJK reports whether s contains a Chinese, Japanese or Korean
// character (Han ideographs, kana, Hangul, Bopomofo), in either width.
func HasCJK(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if isCJK(r) {
			return true
		}
		i += size
	}
	return false
}

// isCJK reports whether r belongs to a CJK script.
func isCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana,
		unicode.Hangul, unicode.Bopomofo)
}

// isWordRune reports whether r can be part of a token: a letter, a digit
// or a combining mark. Tokens made only of other runes (punctuation,
// symbols, spaces) are dropped.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// hasWordRune reports whether w holds at least one letter or digit.
func hasWordRune(w string) bool {
	for _, r := range w {
		if isWordRune(r) {
			return true
		}
	}
	return false
}
