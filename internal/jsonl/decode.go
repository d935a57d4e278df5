package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	gojson "github.com/goccy/go-json"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// ErrComment marks a line that is a comment (# …) in a URL list.
var ErrComment = errors.New("comment line")

// leadingSpace is what may come before a line's JSON object: JSON's own
// whitespace (space, tab, CR, LF) and a byte order mark.
const leadingSpace = " \t\r\n\ufeff"

// IsJSON tells whether a line holds a JSON object rather than plain text.
func IsJSON(b []byte) bool {
	b = bytes.TrimLeft(b, leadingSpace)
	return len(b) > 0 && b[0] == '{'
}

// Decode unmarshals one JSON line into v, with an error that says what is
// wrong in words a user can act on. It is the decoder of every stage: v is
// a record of internal/record, or a struct of the few fields a stage reads
// (fields not in v are skipped, not decoded).
//
// goccy/go-json decodes first: on segment's docs it takes 0.84× the
// instructions of the hand-written decoder it replaced and a third of
// encoding/json's (docs/code.md, "One JSON decoder"). When it refuses a line,
// encoding/json decodes it again and gives the error, so what is accepted
// and what is said about a bad line are encoding/json's; FuzzDecode checks
// that the two agree on every line the fast one accepts.
func Decode(b []byte, v any) error {
	if !IsJSON(b) {
		return errors.New("not a JSON object")
	}
	b = bytes.TrimLeft(b, leadingSpace) // a BOM is not JSON
	if gojson.Unmarshal(b, v) == nil {
		return nil
	}
	// encoding/json is the reference: it decodes what the fast decoder
	// refused, if it can, and otherwise says what is wrong.
	if err := json.Unmarshal(b, v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return fmt.Errorf("invalid JSON at byte %d: %v", se.Offset, se)
		case errors.As(err, &te):
			return fmt.Errorf("field %q: %s where %s was expected", jsonPath(te.Field), te.Value, te.Type)
		}
		return fmt.Errorf("invalid JSON: %w", err)
	}
	return nil
}

// jsonPath drops from an UnmarshalTypeError's field path the names of
// embedded Go structs ("Lineage.depth" → "depth"): users know the JSON
// keys, which in our records are all lower case.
func jsonPath(field string) string {
	parts := strings.Split(field, ".")
	for len(parts) > 1 && parts[0] != "" && unicode.IsUpper(rune(parts[0][0])) {
		parts = parts[1:]
	}
	return strings.Join(parts, ".")
}

// DecodeURL reads a line that holds either a url record (or any record with
// a "url" field) or a plain URL. Comment lines give ErrComment.
func DecodeURL(b []byte) (record.URL, error) {
	var u record.URL
	if IsJSON(b) {
		if err := Decode(b, &u); err != nil {
			return u, err
		}
		if u.URL == "" {
			return u, errors.New(`missing "url" field`)
		}
		if err := CheckURLField(b); err != nil {
			return u, err
		}
		return u, nil
	}
	s := string(bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\ufeff"))))
	if s == "" || s[0] == '#' {
		return u, ErrComment
	}
	if !utf8.ValidString(s) {
		return u, errors.New("URL is not valid UTF-8")
	}
	if i := bytes.IndexFunc([]byte(s), unicode.IsSpace); i >= 0 {
		return u, fmt.Errorf("not a URL: white space at byte %d", i)
	}
	u.URL = s
	return u, nil
}
