package jsonl

import (
	"bytes"
	"encoding/json"
	"io"
)

// maxURLScan bounds how much of a cut line URLOfPrefix reads: records
// put their "url" first, and a URL is at most a few KB.
const maxURLScan = 1 << 20

// URLOfPrefix finds the top-level "url" string of a JSON line that may be
// cut short (a line over the reader's cap comes back cut), so a stage
// that cannot use the line can still emit an error record for its URL
// and the frontier can close it. It reads the members in order and gives
// up at the first value that does not end within the first MiB.
func URLOfPrefix(b []byte) (string, bool) {
	if !IsJSON(b) {
		return "", false
	}
	b = bytes.TrimLeft(b, leadingSpace)
	dec := json.NewDecoder(bytes.NewReader(b[:min(len(b), maxURLScan)]))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return "", false
		}
		if key == "url" {
			v, err := dec.Token()
			s, ok := v.(string)
			if err != nil || !ok || s == "" {
				return "", false
			}
			return s, true
		}
		if err := skipValue(dec); err != nil {
			return "", false
		}
	}
	return "", false
}

// skipValue reads past one value, nested or not.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			if err == io.EOF {
				return io.ErrUnexpectedEOF
			}
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// ClosingRecord stands in for a line over the reader's cap: an error
// record {"url":…,"status":0,"error":"input: line too long …"} for the URL
// found in the line's prefix, which every stage passes on as it passes any
// error record, down to seed add, which marks the URL done. Without it the
// frontier would lease the URL again and again. ok is false when the
// prefix names no URL.
func ClosingRecord(cut []byte, reason error) (line []byte, ok bool) {
	u, ok := URLOfPrefix(cut)
	if !ok {
		return nil, false
	}
	b, err := json.Marshal(struct {
		URL    string `json:"url"`
		Status int    `json:"status"`
		Error  string `json:"error"`
	}{u, 0, "input: " + reason.Error()})
	return b, err == nil
}
