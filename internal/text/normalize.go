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
	if out, ok := normalizeCommon(s); ok {
		return out
	}
	s = norm.NFKC.String(s)
	if !hasUpper(s) {
		return s
	}
	return strings.ToLower(s)
}

// normalizeCommon normalises text made only of ASCII, CJK ideographs,
// common CJK punctuation and full-width ASCII forms — most Chinese pages —
// in one pass, without the NFKC tables. It reports false, doing nothing,
// when s has any other rune.
func normalizeCommon(s string) (string, bool) {
	changed := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				changed = true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case stableCJK(r):
		case 0xFF01 <= r && r <= 0xFF5E || r == 0x3000:
			changed = true
		default:
			return "", false
		}
		i += size
	}
	if !changed {
		return s, true
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x3000:
			b.WriteByte(' ')
		case 0xFF01 <= r && r <= 0xFF5E:
			c := byte(r - 0xFF01 + '!')
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String(), true
}

// stableCJK reports whether r is a CJK ideograph or punctuation mark that
// NFKC and lower-casing leave alone and that never composes with a
// neighbour (TestNormalizeCommon checks every one against x/text/norm).
func stableCJK(r rune) bool {
	switch {
	case 0x4E00 <= r && r <= 0x9FFF, 0x3400 <= r && r <= 0x4DBF:
		return true
	case 0x3001 <= r && r <= 0x3002, 0x3008 <= r && r <= 0x3011, 0x3014 <= r && r <= 0x301B:
		return true
	case r == 0x2014, r == 0x2018, r == 0x2019, r == 0x201C, r == 0x201D, r == 0x00B7:
		return true
	}
	return false
}

// hasUpper reports whether s has a rune that lower-casing changes. CJK
// text has none, so the common case is one cheap pass.
func hasUpper(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x3000 && r < 0xA000 || r >= 0xAC00 && r < 0xD7A4 {
			continue // CJK punctuation, kana, ideographs, Hangul: no case
		}
		if unicode.ToLower(r) != r {
			return true
		}
	}
	return false
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
	if 0x4E00 <= r && r <= 0x9FFF {
		return true // CJK Unified Ideographs, the common case
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana,
		unicode.Hangul, unicode.Bopomofo)
}

// isWordRune reports whether r is a letter or a digit. Tokens without one
// (punctuation, symbols, spaces, lone combining marks) are dropped.
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
