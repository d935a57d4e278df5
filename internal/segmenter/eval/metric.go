package eval

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Tokens is the bag of tokens of s: NFKC-normalised, Latin (and other
// alphabetic) words lower-cased, CJK characters one token each,
// punctuation and symbols dropped.
func Tokens(s string) map[string]int {
	s = norm.NFKC.String(s)
	bag := map[string]int{}
	var word strings.Builder
	flush := func() {
		if word.Len() > 0 {
			bag[strings.ToLower(word.String())]++
			word.Reset()
		}
	}
	for _, r := range s {
		switch {
		case cjk(r):
			flush()
			bag[string(r)]++
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			word.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return bag
}

func cjk(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// PRF is precision, recall and F1 of got against want. An empty
// extraction scores 0; an empty gold with an empty extraction scores 1.
func PRF(got, want map[string]int) (p, r, f float64) {
	ng, nw, both := 0, 0, 0
	for _, v := range got {
		ng += v
	}
	for _, v := range want {
		nw += v
	}
	if ng == 0 && nw == 0 {
		return 1, 1, 1
	}
	if ng == 0 || nw == 0 {
		return 0, 0, 0
	}
	for k, v := range got {
		both += min(v, want[k])
	}
	p = float64(both) / float64(ng)
	r = float64(both) / float64(nw)
	if p+r == 0 {
		return p, r, 0
	}
	return p, r, 2 * p * r / (p + r)
}
