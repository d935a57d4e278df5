package jsonl

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeLabels(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "labels.jsonl")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadLabels(t *testing.T) {
	p := writeLabels(t, "\ufeff{\"url\":\"http://a/1\",\"relevant\":true,\"title\":\"One\"}\n"+
		"\n"+
		"{ \"url\": \"http://a/2\", \"relevant\": false, \"note\": {\"by\": \"me\"} }\r\n"+
		`{"url":"http://a/1","relevant":false,"title":7}`+"\n")
	got, err := ReadLabels(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d labels, want 2: %+v", len(got), got)
	}
	// The second label of http://a/1 counts, in the place of the first.
	if got[0].URL != "http://a/1" || got[0].Relevant || got[0].Title != "" || got[0].Pos != p+":4" {
		t.Errorf("first label %+v", got[0])
	}
	if got[1].URL != "http://a/2" || got[1].Relevant || string(got[1].Line) != `{"url":"http://a/2","relevant":false,"note":{"by":"me"}}` {
		t.Errorf("second label %+v, line %s", got[1], got[1].Line)
	}
}

func TestReadLabelsErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"{\"url\":\"http://a/1\",\"relevant\":true}\nhttp://a/2\n", ":2: not a label: not a JSON object"},
		{`{"url":"http://a/1"}`, `:1: not a label: no "relevant"`},
		{`{"url":"http://a/1","relevant":null}`, `:1: not a label: no "relevant"`},
		{`{"relevant":true}`, `:1: not a label: no "url"`},
		{`{"url":"","relevant":true}`, `:1: not a label: no "url"`},
		{`{"url":"http://a/1","relevant":"yes"}`, `:1: not a label: field "relevant": string where bool was expected`},
		{`{"url":"http://a/1","relevant":true`, `:1: not a label: invalid JSON`},
	} {
		p := writeLabels(t, c.text)
		_, err := ReadLabels(p)
		if err == nil || !strings.Contains(err.Error(), p+c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, p+c.want)
		}
	}
	if _, err := ReadLabels(filepath.Join(t.TempDir(), "none.jsonl")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
