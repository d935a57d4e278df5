package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// TestOverLongLineClosesURL: a page line over the reader's cap is
// rejected, and an error doc for its URL still goes out, so the frontier
// marks the URL done instead of leasing it forever.
func TestOverLongLineClosesURL(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pages.jsonl")
	big := `{"url":"http://big.example/p","status":200,"html":"` + strings.Repeat("<a href=/x>x</a>", jsonl.DefaultMaxLine/16+1) + "\"}\n"
	small, _ := json.Marshal(map[string]any{"url": "http://small.example/", "status": 200, "html": article(1)})
	if err := os.WriteFile(p, append([]byte(big), append(small, '\n')...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := run(t, "-q", p)
	if code != cli.ExitRejected {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	var docs []struct{ URL, Error string }
	for _, l := range out {
		var d struct{ URL, Error string }
		json.Unmarshal(l, &d)
		docs = append(docs, d)
	}
	if len(docs) != 2 || docs[0].URL != "http://big.example/p" || !strings.HasPrefix(docs[0].Error, "input: line too long") ||
		docs[1].URL != "http://small.example/" || docs[1].Error != "" {
		t.Errorf("docs %+v", docs)
	}
}
