package segmenter

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// White space and character counts of the text the tree builder keeps.

// isSpace counts the ideographic space and no-break spaces as white space.
func isSpace(r rune) bool {
	return unicode.IsSpace(r) || r == '\u00a0' || r == '\u3000' || r == '\u200b' || r == '\ufeff'
}

// collapseSpace turns every run of white space into one space. The result
// keeps a leading or trailing space when the input had one, so inline
// neighbours stay separated.
func collapseSpace(s string) string {
	if singleSpaced(s) {
		return s
	}
	var sb strings.Builder
	space := false
	wrote := false
	run := -1 // start of the current run of non-space text
	flush := func(end int) {
		if run >= 0 {
			sb.WriteString(s[run:end])
			run = -1
		}
	}
	for i := 0; i < len(s); {
		sp, size := spaceAt(s, i)
		if sp {
			flush(i)
			space = true
			i += size
			continue
		}
		if run < 0 {
			if !wrote {
				// Sized at the first word: the white space between
				// tags, most text nodes, allocates nothing.
				sb.Grow(len(s) - i + 1)
			}
			if space {
				sb.WriteByte(' ')
			}
			space = false
			run = i
		}
		wrote = true
		i += size
	}
	flush(len(s))
	if space && wrote {
		sb.WriteByte(' ')
	}
	if !wrote {
		if space {
			return " "
		}
		return ""
	}
	return sb.String()
}

// spaceAt tells whether the rune at s[i] is white space (isSpace) and
// how many bytes it takes. ASCII and the three-byte runes of Chinese text
// (U+4000–U+CFFF, never space) are read without decoding.
func spaceAt(s string, i int) (space bool, size int) {
	c := s[i]
	if c < utf8.RuneSelf {
		return c == ' ' || (c >= '\t' && c <= '\r'), 1
	}
	if c >= 0xE3 && c <= 0xEC && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
		return isIdeographicSpace(s[i:]), 3
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	return isSpace(r), size
}

// isIdeographicSpace tells whether s starts with U+3000, the only white
// space among the three-byte runes that start with 0xE3 to 0xEC
// (U+3000–U+CFFF: CJK punctuation, kana, ideographs, hangul).
func isIdeographicSpace(s string) bool {
	return len(s) >= 3 && s[0] == 0xE3 && s[1] == 0x80 && s[2] == 0x80
}

// singleSpaced tells whether s is ASCII-spaced text with no run of
// spaces and no other white space: collapseSpace would return it as is.
func singleSpaced(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			if i+1 < len(s) && s[i+1] == ' ' {
				return false
			}
		case c < ' ' || c == 0x7f:
			return false
		case c == 0xE3:
			if isIdeographicSpace(s[i:]) {
				return false
			}
		case c == 0xC2 || c == 0xE1 || c == 0xE2 || c == 0xEF:
			if r, _ := utf8.DecodeRuneInString(s[i:]); isSpace(r) {
				return false
			}
		}
	}
	return true
}

// countText counts non-space runes, clause punctuation and CJK runes.
func countText(s string) (chars, commas, cjk int) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf { // ASCII: no decoding
			i++
			if c == ' ' || (c >= '\t' && c <= '\r') {
				continue
			}
			chars++
			if c == ',' || c == ';' {
				commas++
			}
			continue
		}
		if c >= 0xE4 && c <= 0xE9 && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
			// U+4000–U+9FFF, three bytes: Chinese text, never space or
			// punctuation; U+4E00 and up are CJK Unified Ideographs.
			r := rune(c&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			i += 3
			chars++
			if r >= 0x4e00 || isCJK(r) { // the first test answers for nearly all Chinese text
				cjk++
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if isSpace(r) {
			continue
		}
		chars++
		if r >= 0x2e80 && isCJK(r) {
			cjk++
		}
		switch r {
		case ',', '，', '、', '。', ';', '；', '．':
			commas++
		}
	}
	return chars, commas, cjk
}

// isCJK tells whether r is a Han, kana or hangul character.
func isCJK(r rune) bool {
	if r >= 0x4e00 && r <= 0x9fff { // CJK Unified Ideographs: nearly all Chinese text
		return true
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}
