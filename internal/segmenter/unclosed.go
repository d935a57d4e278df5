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
// Pages whose title is closed are returned unchanged.
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

// indexTag is strings.Index for a needle that starts with "<", ignoring the
// case of s.
func indexTag(s, needle string) int {
	n := len(needle)
	for i := 0; i+n <= len(s); i++ {
		if s[i] == '<' && strings.EqualFold(s[i:i+n], needle) {
			return i
		}
	}
	return -1
}
