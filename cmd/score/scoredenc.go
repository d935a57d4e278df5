package main

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// appendScored appends the JSON object of the scored fields of sd, byte
// for byte as json.Encoder with SetEscapeHTML(false) writes scoredFields
// (without its newline), and reports false, having appended nothing,
// when a number is NaN or infinite (which encoding/json refuses with an
// error; the caller lets it say so). It writes the links of a doc without
// reflection, which on docs with hundreds of links is most of the cost
// of writing.
func appendScored(dst []byte, sd *record.ScoredDoc) ([]byte, bool) {
	if !finite(sd.Score) {
		return dst, false
	}
	for _, v := range sd.Scores {
		if !finite(v) {
			return dst, false
		}
	}
	for i := range sd.Links {
		if l := &sd.Links[i]; !finite(l.Priority) || !finite(l.Inherited) {
			return dst, false
		}
	}
	dst = append(dst, `{"score":`...)
	dst = appendFloat(dst, sd.Score)
	dst = append(dst, `,"relevant":`...)
	dst = strconv.AppendBool(dst, sd.Relevant)
	if len(sd.Scores) > 0 {
		dst = append(dst, `,"scores":{`...)
		keys := make([]string, 0, len(sd.Scores))
		for k := range sd.Scores {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, k)
			dst = append(dst, ':')
			dst = appendFloat(dst, sd.Scores[k])
		}
		dst = append(dst, '}')
	}
	if len(sd.Links) > 0 {
		dst = append(dst, `,"links":[`...)
		var ctx prevContext
		for i := range sd.Links {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendLink(dst, &sd.Links[i], &ctx)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}'), true
}

// prevContext is the last link context written and where its quoted
// form is in the output: the links of a block share their context.
type prevContext struct {
	s          string
	start, end int
}

// appendLink appends a record.ScoredLink as encoding/json writes it.
func appendLink(dst []byte, l *record.ScoredLink, prev *prevContext) []byte {
	dst = append(dst, `{"url":`...)
	dst = appendString(dst, l.URL)
	if l.Anchor != "" {
		dst = append(dst, `,"anchor":`...)
		dst = appendString(dst, l.Anchor)
	}
	if l.Context != "" {
		dst = append(dst, `,"context":`...)
		if prev.end > 0 && l.Context == prev.s {
			dst = append(dst, dst[prev.start:prev.end]...)
		} else {
			start := len(dst)
			dst = appendString(dst, l.Context)
			*prev = prevContext{l.Context, start, len(dst)}
		}
	}
	dst = append(dst, `,"block":`...)
	dst = strconv.AppendInt(dst, int64(l.Block), 10)
	dst = append(dst, `,"internal":`...)
	dst = strconv.AppendBool(dst, l.Internal)
	if l.Nofollow {
		dst = append(dst, `,"nofollow":true`...)
	}
	if l.Tag != "" {
		dst = append(dst, `,"tag":`...)
		dst = appendString(dst, l.Tag)
	}
	if len(l.Tokens) > 0 {
		dst = append(dst, `,"tokens":[`...)
		for i, t := range l.Tokens {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, t)
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"priority":`...)
	dst = appendFloat(dst, l.Priority)
	if l.Pruned {
		dst = append(dst, `,"pruned":true`...)
	}
	if l.Inherited != 0 {
		dst = append(dst, `,"inherited":`...)
		dst = appendFloat(dst, l.Inherited)
	}
	return append(dst, '}')
}

func finite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }

// appendFloat formats a finite float64 as encoding/json does: like ES6,
// %f between 1e-6 and 1e21, else %e with the exponent unpadded.
func appendFloat(dst []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

const hexDigits = "0123456789abcdef"

// appendString appends s quoted as encoding/json does without HTML
// escaping: ", \ and control characters escaped, invalid UTF-8 as
// \ufffd, U+2028 and U+2029 as \u2028 and \u2029.
func appendString(dst []byte, s string) []byte {
	if utf8.ValidString(s) {
		return appendValidString(dst, s)
	}
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plainByte marks the bytes of valid UTF-8 that appendValidString copies
// as they are: all but the quote, the backslash, control characters and
// 0xE2, which starts U+2028 and U+2029.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\' && c != 0xE2
	}
	return t
}()

// appendValidString is appendString for valid UTF-8, without decoding
// runes: in valid UTF-8 the bytes E2 80 A8/A9 can only be U+2028/U+2029.
func appendValidString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if plainByte[b] {
			i++
			continue
		}
		if b == 0xE2 {
			if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
				dst = append(dst, s[start:i]...)
				dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[s[i+2]&0xF])
				i += 3
				start = i
				continue
			}
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		switch b {
		case '\\', '"':
			dst = append(dst, '\\', b)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
