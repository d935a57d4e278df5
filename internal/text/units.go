package text

import (
	"unicode"
	"unicode/utf8"
)

// A unit is the smallest piece of text the segmenter works on, as in gse's
// SplitTextToWords: a run of letters, digits and marks each encoded in at
// most two UTF-8 bytes (Latin, Greek, Cyrillic words and numbers), a run of
// letters of other space-delimited scripts (Hangul, Thai, Devanagari …), or
// one single rune otherwise (each Han character or kana, each space or
// punctuation mark).
type unit struct {
	start, end int // byte offsets in the normalised text
	kind       unitKind
}

type unitKind uint8

const (
	unitOther unitKind = iota // punctuation, symbols, spaces
	unitAlnum                 // run of ≤2-byte letters and digits
	unitWord                  // run of letters of another non-CJK script
	unitCJK                   // one Han, kana or Bopomofo character
)

// splitUnits cuts s (already normalised) into units, appending to dst.
func splitUnits(dst []unit, s string) []unit {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch k := runeKind(r, size); k {
		case unitAlnum, unitWord:
			j := i + size
			for j < len(s) {
				r2, size2 := utf8.DecodeRuneInString(s[j:])
				if runeKind(r2, size2) != k {
					break
				}
				j += size2
			}
			dst = append(dst, unit{start: i, end: j, kind: k})
			i = j
		default:
			dst = append(dst, unit{start: i, end: i + size, kind: k})
			i += size
		}
	}
	return dst
}

// runeKind classifies one rune of the normalised text.
func runeKind(r rune, size int) unitKind {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || 'A' <= r && r <= 'Z' {
			return unitAlnum
		}
		return unitOther
	}
	if 0x4E00 <= r && r <= 0x9FFF {
		return unitCJK // CJK Unified Ideographs, the common case
	}
	letter := unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
	if !letter {
		return unitOther
	}
	if size <= 2 {
		return unitAlnum
	}
	if isCJK(r) && !unicode.Is(unicode.Hangul, r) {
		return unitCJK
	}
	return unitWord
}
