package cli

import (
	"strings"
	"unicode/utf8"
)

// Text that came from the web (titles, URLs, host names, error messages)
// is printed in the tables and reports the commands write for people.
// A page may put terminal control sequences in its title: ESC ] 0 ; … BEL
// retitles the window, ESC [ 2 J clears the screen, others move the
// cursor to overwrite what was printed, or (on some terminals) answer
// back as if typed. Every table and text printer passes such text through
// Printable (one field on one line) or PrintableText (a block of lines);
// JSON output needs neither, its encoder escapes control characters.

// Printable gives s fit for one field of one line on a terminal: escape
// sequences (CSI, OSC, DCS … and two-byte ones) are removed whole, other
// control characters (C0, DEL, C1) and the bidirectional overrides that
// reorder what is shown are removed, tabs and line breaks become spaces,
// and invalid UTF-8 becomes U+FFFD.
func Printable(s string) string { return printable(s, false) }

// PrintableText is Printable for a block of text: it keeps line breaks
// and tabs.
func PrintableText(s string) string { return printable(s, true) }

func printable(s string, block bool) string {
	if isPlain(s, block) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == 0x1b: // ESC
			i += escapeLen(s[i:])
			continue
		case r == 0x9b || r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f: // C1 CSI, OSC, DCS, SOS, PM, APC
			i += size + c1Len(s[i+size:], r == 0x9b)
			continue
		case r == '\n' || r == '\t':
			if block {
				b.WriteRune(r)
			} else {
				b.WriteByte(' ')
			}
		case r == '\r' || r == '\v' || r == '\f':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || isBidiControl(r):
			// dropped
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlain tells that s has nothing to change (the common case, no copy).
func isPlain(s string, block bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && !(block && (c == '\n' || c == '\t')) || c == 0x7f {
			return false
		}
		if c >= 0x80 {
			for _, r := range s[i:] {
				if r == utf8.RuneError || (r >= 0x80 && r < 0xa0) || isBidiControl(r) || r < 0x20 && !(block && (r == '\n' || r == '\t')) || r == 0x7f {
					return false
				}
			}
			return utf8.ValidString(s[i:])
		}
	}
	return true
}

// isBidiControl: the embeddings, overrides and isolates (U+202A–U+202E,
// U+2066–U+2069), which make a terminal show text in another order than
// it is (a URL that reads as another).
func isBidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// escapeLen is the length of the escape sequence at the start of s
// (s[0] is ESC): the whole of a CSI (ESC [ … final byte), of a string
// sequence (ESC ] / P / X / ^ / _ … up to BEL or ESC \, or to the end
// when unterminated), or ESC with its intermediates and final byte.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + csiLen(s[2:])
	case ']', 'P', 'X', '^', '_':
		return 2 + stringLen(s[2:])
	}
	n := 1
	for n < len(s) && s[n] >= 0x20 && s[n] <= 0x2f {
		n++
	}
	if n < len(s) && s[n] >= 0x30 && s[n] <= 0x7e {
		n++
	}
	return n
}

// csiLen: parameter and intermediate bytes, then the final byte.
func csiLen(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x40 && c <= 0x7e {
			return i + 1
		}
		if c < 0x20 || c >= 0x7f {
			return i // not a CSI byte: the sequence ends here, the byte is judged alone
		}
	}
	return len(s)
}

// stringLen: up to and with the terminator BEL, ESC \ or C1 ST.
func stringLen(s string) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c: // U+009C ST
			return i + 2
		}
	}
	return len(s)
}

// c1Len is the rest of a sequence begun by a C1 control (U+009B CSI, or a
// string sequence's opener).
func c1Len(s string, csi bool) int {
	if csi {
		return csiLen(s)
	}
	return stringLen(s)
}
