package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Member is one member of a line's top-level JSON object, as byte
// offsets into the line: a stage that passes a record on with a few of its
// fields replaced (score adds its scores, seed urls sets url, depth and
// site) copies the other members byte for byte instead of decoding and
// encoding them again.
type Member struct {
	Start, End int  // the member: from its key's opening quote to the end of its value
	Value      int  // where its value starts
	key        span // the key's bytes, inside its quotes
	escaped    bool // the key has a backslash escape
}

type span struct{ start, end int }

// Name is the member's key, its escapes undone.
func (m Member) Name(line []byte) string {
	raw := line[m.key.start:m.key.end]
	if !m.escaped {
		return string(raw)
	}
	var s string
	if json.Unmarshal(line[m.key.start-1:m.key.end+1], &s) != nil {
		return string(raw)
	}
	return s
}

// Is tells whether the member's key is name, without allocating for a
// key that has no escape.
func (m Member) Is(line []byte, name string) bool {
	if !m.escaped {
		return string(line[m.key.start:m.key.end]) == name
	}
	return m.Name(line) == name
}

var errNotObject = errors.New("not a JSON object")

// Members appends to dst the members of the JSON object in line. line
// must be valid JSON, as Decode found it: the scan follows only strings
// and nesting, and checks only that the object's shape holds together.
func Members(line []byte, dst []Member) ([]Member, error) {
	b := bytes.TrimRight(line, leadingSpace)
	i := spaceEnd(b, 0)
	if bytes.HasPrefix(b[i:], []byte("\ufeff")) {
		i = spaceEnd(b, i+3)
	}
	if i >= len(b) || b[i] != '{' || b[len(b)-1] != '}' {
		return dst, errNotObject
	}
	b = b[:len(b)-1] // the members, up to the closing brace
	i++
	for {
		i = spaceEnd(b, i)
		if i >= len(b) {
			return dst, nil
		}
		if b[i] == ',' {
			i++
			continue
		}
		if b[i] != '"' {
			return dst, errNotObject
		}
		start := i
		keyEnd := stringEnd(b, i)
		if keyEnd < 0 {
			return dst, errNotObject
		}
		escaped := bytes.IndexByte(b[start+1:keyEnd-1], '\\') >= 0
		i = spaceEnd(b, keyEnd)
		if i >= len(b) || b[i] != ':' {
			return dst, errNotObject
		}
		value := spaceEnd(b, i+1)
		i = valueEnd(b, value)
		if i < 0 || i == value {
			return dst, errNotObject
		}
		dst = append(dst, Member{Start: start, End: i, Value: value,
			key: span{start + 1, keyEnd - 1}, escaped: escaped})
	}
}

func spaceEnd(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index just past the string that starts at b[i],
// or −1 when it does not end. It jumps from quote to quote (IndexByte:
// strings are most of a doc's bytes) and counts the backslashes before
// each to tell an escaped quote from the end.
func stringEnd(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

// valueEnd returns the index just past the value that starts at b[i], or
// −1 when it does not end.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end := stringEnd(b, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	return j
}
