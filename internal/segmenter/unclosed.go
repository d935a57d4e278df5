package segmenter

import (
	"strings"
	"unicode/utf8"
)

// closeRunawayTitle repairs a <title> that is never closed. HTML reads
// everything after such a tag as the title's text, so the page would have
// no body at all; captures cut or mangled in the head (a title glued to a
// script, "<title>Story (Paper)ntById(...") are common enough in crawls.
// The title then ends at its first line break (or after 300 bytes), the
// rest up to the next tag is dropped, and the page is parsed from there.
// Pages whose title is closed are returned unchanged. Only a tag name
// that ends there opens or closes it, as in the parser: "</titlevalue"
// (a template's leftover) closes nothing.
func closeRunawayTitle(s string) string {
	open := indexTag(s, "<title")
	if open < 0 {
		return s
	}
	gt := strings.IndexByte(s[open:], '>')
	if gt < 0 {
		return s
	}
	start := open + gt + 1
	if indexTag(s[start:], "</title") >= 0 {
		return s
	}
	end := start
	limit := min(len(s), start+300)
	for end < limit && s[end] != '\n' && s[end] != '\r' && s[end] != '<' {
		end++
	}
	for end > start && !utf8.RuneStart(s[end-1]) && end < len(s) && !utf8.RuneStart(s[end]) {
		end-- // do not cut a character in two
	}
	rest := strings.IndexByte(s[end:], '<')
	if rest < 0 {
		return s[:end] + "</title>"
	}
	return s[:end] + "</title>" + s[end+rest:]
}

// indexTag is the offset of the first tag in s whose start is needle
// ("<title", "</title"), ignoring case, with the tag name ending there
// (white space, "/", ">" or the end of s follows), or -1.
func indexTag(s, needle string) int {
	n := len(needle)
	for i := 0; i+n <= len(s); i++ {
		if s[i] != '<' || !strings.EqualFold(s[i:i+n], needle) {
			continue
		}
		if i+n == len(s) {
			return i
		}
		switch s[i+n] {
		case ' ', '\t', '\n', '\f', '\r', '/', '>':
			return i
		}
	}
	return -1
}
