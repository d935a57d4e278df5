package jsonl

import (
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// errURLNotUTF8 is the reason for a url field holding invalid UTF-8, the
// same words as for a plain URL line.
var errURLNotUTF8 = errors.New("URL is not valid UTF-8")

// CheckURLField refuses a JSON line whose "url" string holds invalid
// UTF-8. encoding/json would quietly turn the bad bytes into U+FFFD and
// the crawler would fetch a URL nobody wrote. Valid lines cost one scan.
func CheckURLField(line []byte) error {
	if utf8.Valid(line) {
		return nil
	}
	var raw struct {
		URL json.RawMessage `json:"url"`
	}
	if err := json.Unmarshal(line, &raw); err == nil && !utf8.Valid(raw.URL) {
		return errURLNotUTF8
	}
	return nil
}
