package text

import (
	"strings"
	"unicode/utf8"
)

// t2s maps a traditional character to its simplified form.
var t2s = buildT2S(t2sPairs)

// The CJK Unified Ideographs block, where every character of the table
// lies: there a dense array replaces the map on the hot path.
const (
	cjkFirst = 0x4E00
	cjkLast  = 0x9FFF
)

// t2sDense[r-cjkFirst] is the simplified form of r, or 0.
var t2sDense = func() []uint16 {
	d := make([]uint16, cjkLast-cjkFirst+1)
	for t, s := range t2s {
		if t >= cjkFirst && t <= cjkLast && s <= 0xFFFF {
			d[t-cjkFirst] = uint16(s)
		}
	}
	return d
}()

// simplified returns the simplified form of r, and whether it has one.
func simplified(r rune) (rune, bool) {
	if r >= cjkFirst && r <= cjkLast {
		if s := t2sDense[r-cjkFirst]; s != 0 {
			return rune(s), true
		}
		return r, false
	}
	s, ok := t2s[r]
	return s, ok
}

// buildT2S reads pairs "TS" separated by white space.
func buildT2S(pairs string) map[rune]rune {
	m := make(map[rune]rune, len(pairs)/7)
	for _, p := range strings.Fields(pairs) {
		t, n := utf8.DecodeRuneInString(p)
		s, _ := utf8.DecodeRuneInString(p[n:])
		if t != s {
			m[t] = s
		}
	}
	return m
}

// Fold returns s with the traditional Chinese characters of the built-in
// table replaced by their simplified forms, so both scripts of one text
// fingerprint alike. Text without such characters is returned as is,
// without allocating.
func Fold(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if _, ok := simplified(r); ok {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if sr, ok := simplified(r); ok {
			r = sr
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Traditional returns s with every simplified character that the built-in
// table maps from a traditional one replaced by that traditional form (the
// first listed when several map to it). It is Fold's rough inverse, used to
// make traditional-script variants for tests and benchmarks.
func Traditional(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for _, r := range s {
		if tr, ok := s2t[r]; ok {
			r = tr
		}
		b.WriteRune(r)
	}
	return b.String()
}

var s2t = func() map[rune]rune {
	m := make(map[rune]rune, len(t2s))
	for _, p := range strings.Fields(t2sPairs) {
		t, n := utf8.DecodeRuneInString(p)
		s, _ := utf8.DecodeRuneInString(p[n:])
		if _, seen := m[s]; !seen && t != s {
			m[s] = t
		}
	}
	return m
}()
