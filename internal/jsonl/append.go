package jsonl

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// The appenders below write JSON values straight into a byte slice, for
// stages whose records are too big or too many for encoding/json's
// reflection and HTML escaping (a page's HTML, a scored doc's links).
// Their output is byte for byte what encoding/json writes with
// SetEscapeHTML(false).

// AppendFloat appends a finite f as encoding/json formats a float64: like
// ES6, %f from 1e-6 up to 1e21, else %e with the exponent unpadded. The
// caller leaves out NaN and infinities, which JSON cannot hold.
func AppendFloat(dst []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// e-09 → e-9, as encoding/json writes it.
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

const hexDigits = "0123456789abcdef"

// SWAR constants: one bit or one byte value in each of 8 lanes.
const (
	lanes01 = 0x0101010101010101
	lanes80 = 0x8080808080808080
)

// hasZeroByte is non-zero when some byte of x is zero.
func hasZeroByte(x uint64) uint64 { return (x - lanes01) &^ x & lanes80 }

// load64 reads 8 bytes of s little-endian (the compiler merges the loads).
func load64(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// AppendString appends s as a JSON string, escaping what encoding/json
// escapes with SetEscapeHTML(false): quotes, backslashes, control
// characters, U+2028 and U+2029, and invalid UTF-8 (as \ufffd). One pass
// validates and escapes: eight ASCII bytes at a time when none needs
// escaping, and runs of three-byte sequences (all of CJK) in a tight loop.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start, i, n := 0, 0, len(s)
	for i < n {
		c := s[i]
		if c < utf8.RuneSelf {
			if i+8 <= n {
				x := load64(s, i)
				if x&lanes80 == 0 &&
					(x-lanes01*0x20)&^x&lanes80 == 0 && // no control character
					hasZeroByte(x^(lanes01*'"')) == 0 && hasZeroByte(x^(lanes01*'\\')) == 0 {
					i += 8
					continue
				}
			}
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		// A run of three-byte characters other than U+2028/U+2029's lead
		// 0xE2 (0xE0 and 0xED need range checks: left to DecodeRune).
		for c >= 0xE1 && c <= 0xEF && c != 0xED && c != 0xE2 && i+2 < n &&
			s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
			i += 3
			if i >= n {
				break
			}
			c = s[i]
		}
		if i >= n || c < utf8.RuneSelf {
			continue
		}
		if c == 0xE2 && i+2 < n && s[i+1] == 0x80 && s[i+2]&^1 == 0xA8 { // U+2028, U+2029
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\u202`...)
			dst = append(dst, hexDigits[s[i+2]&0xF])
			i += 3
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendStrings appends ss as a JSON array of strings.
func AppendStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, s)
	}
	return append(dst, ']')
}
