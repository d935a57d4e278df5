package main

import (
	"bytes"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// closingLine stands in for a page, doc or scored line over the reader's
// cap: an error record for its URL (jsonl.ClosingRecord), so the frontier
// marks the URL done instead of leasing it again and again. It reports
// false for a line with no URL up front, or a url record.
func closingLine(cut []byte, reason error) ([]byte, bool) {
	if !returningPrefix(cut[:min(len(cut), 64<<10)]) {
		return nil, false
	}
	return jsonl.ClosingRecord(cut, reason)
}

// returningPrefix tells whether the start of a line names a key only
// page, doc and scored records have.
func returningPrefix(b []byte) bool {
	for _, k := range [][]byte{[]byte(`"status"`), []byte(`"html"`), []byte(`"fetched_at"`), []byte(`"score"`),
		[]byte(`"tokens"`), []byte(`"blocks"`), []byte(`"page_type"`), []byte(`"content"`), []byte(`"links"`)} {
		if bytes.Contains(b, k) {
			return true
		}
	}
	return false
}
