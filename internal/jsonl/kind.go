package jsonl

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// CheckKind tells whether line holds a record a stage can read: valid
// UTF-8 (an invalid byte would be replaced silently by any decoder, and
// the record written on changed: a line is rejected instead, by position,
// the same in every stage), and of one of the kinds the stage wants
// (docs/records.md), told by its top-level fields as record.Sniff tells
// them. A record with an "error" passes whatever its kind: errors are
// data that every stage hands on. No wanted kinds: only the UTF-8 check.
// A line that is not a JSON object is left to the stage's decoder.
func CheckKind(line []byte, want ...record.Kind) error {
	if i := invalidUTF8(line); i >= 0 {
		return fmt.Errorf("invalid UTF-8 at byte %d", i)
	}
	if len(want) == 0 || !IsJSON(line) {
		return nil
	}
	keys, ok := topLevelKeys(bytes.TrimLeft(line, leadingSpace))
	if !ok {
		return nil // malformed: the decoder says how
	}
	if keys["error"] {
		return nil
	}
	got := record.KindByFields(func(name string) bool { return keys[name] })
	for _, k := range want {
		// A doc may carry its page's fields (status, html: score
		// --rules-on html reads them): its content makes it a doc.
		if k == got || k == record.KindDoc && (got == record.KindBlock || got == record.KindPage && keys["content"]) {
			return nil
		}
	}
	names := make([]string, len(want))
	for i, k := range want {
		names[i] = k.Describe()
	}
	return fmt.Errorf("%w: %s, where %s is wanted", ErrWrongKind, got.Describe(), strings.Join(names, " or "))
}

// ErrWrongKind marks a record of another kind than the stage reads.
var ErrWrongKind = errors.New("wrong kind of record")

// invalidUTF8 is the offset of the first byte of b that is not valid
// UTF-8, or -1.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// topLevelKeys lists the keys of the JSON object b begins with, skipping
// every value without decoding it. ok is false when b is not well formed
// as far as the scan can tell.
func topLevelKeys(b []byte) (keys map[string]bool, ok bool) {
	keys = map[string]bool{}
	i := 0
	ws := func() {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
			i++
		}
	}
	str := func() (int, bool) { // at '"': index after the closing quote
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1, true
			}
		}
		return 0, false
	}
	if len(b) == 0 || b[0] != '{' {
		return nil, false
	}
	i++
	for {
		ws()
		if i < len(b) && b[i] == '}' {
			return keys, true
		}
		if i >= len(b) || b[i] != '"' {
			return nil, false
		}
		end, ok := str()
		if !ok {
			return nil, false
		}
		keys[string(b[i+1:end-1])] = true
		i = end
		ws()
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i++
		ws()
		// Skip the value: a string, a nested object or array, or a literal.
		depth := 0
		for i < len(b) {
			c := b[i]
			if c == '"' {
				end, ok := str()
				if !ok {
					return nil, false
				}
				i = end
				if depth == 0 {
					break
				}
				continue
			}
			if depth == 0 && (c == ',' || c == '}') {
				break
			}
			switch c {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			i++
			if depth == 0 && (c == '}' || c == ']') {
				break
			}
		}
		ws()
		if i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i++
		case '}':
			return keys, true
		default:
			return nil, false
		}
	}
}
