package jsonl

import (
	"errors"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// CheckKind names the kind a stage got and the one it wants, lets error
// records and the wanted kinds through, agrees with record.Sniff, and
// rejects invalid UTF-8 by byte offset.
func TestCheckKind(t *testing.T) {
	lines := map[record.Kind]string{
		record.KindURL:       `{"url":"http://a/","depth":1,"meta":{"x":[1,{"status":2}]}}`,
		record.KindPage:      `{"url":"http://a/","status":200,"html":"<p>{\"tokens\":1}</p>"}`,
		record.KindDoc:       `{"url":"http://a/","status":200,"title":"t \\\" }","tokens":["a"],"blocks":[]}`,
		record.KindScoredDoc: `{"url":"http://a/","tokens":["a"],"score":0.5,"relevant":true}`,
		record.KindKnowledge: ` {"url":"http://a/","fingerprint":"00ff"}`,
		record.KindVerdict:   `{"url":"http://a/","site":"a","pages_fetched":3}`,
	}
	for got, line := range lines {
		if k, _ := record.Sniff([]byte(strings.TrimSpace(line))); k != got {
			t.Fatalf("test line of %s sniffs as %s", got, k)
		}
		for want := range lines {
			err := CheckKind([]byte(line), want)
			if (err == nil) != (got == want) {
				t.Errorf("got %s, want %s: %v", got, want, err)
			}
			if err != nil && (!errors.Is(err, ErrWrongKind) || !strings.Contains(err.Error(), got.Describe()) || !strings.Contains(err.Error(), want.Describe())) {
				t.Errorf("message %q does not name %s and %s", err, got, want)
			}
		}
	}
	if err := CheckKind([]byte(`{"url":"http://a/","error":"dns: no such host"}`), record.KindPage); err != nil {
		t.Errorf("an error record: %v", err)
	}
	if err := CheckKind([]byte(`{"url":"http://a/","status":200,"html":"`+"\xff"+`"}`), record.KindPage); err == nil || !strings.Contains(err.Error(), "invalid UTF-8 at byte 40") {
		t.Errorf("invalid UTF-8: %v", err)
	}
	if err := CheckKind([]byte(`{"url":`), record.KindPage); err != nil {
		t.Errorf("a cut line is the decoder's to report: %v", err)
	}
}
