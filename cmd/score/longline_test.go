package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// TestOverLongLineClosesURL: a doc line over the reader's cap (a page of
// a quarter million links) is rejected, and an error record for its URL
// still goes out, so the frontier marks the URL done.
func TestOverLongLineClosesURL(t *testing.T) {
	p := filepath.Join(t.TempDir(), "docs.jsonl")
	link := `{"url":"http://big.example/x","anchor":"x","context":"` + strings.Repeat("c", 200) + `"},`
	big := `{"url":"http://big.example/p","title":"t","links":[` + strings.Repeat(link, jsonl.DefaultMaxLine/len(link)+1) + "]}\n"
	if err := os.WriteFile(p, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := run(t, "--topic", "testdata/forest.yaml", "-q", p)
	if code != cli.ExitRejected {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	if len(out) != 1 || out[0].URL != "http://big.example/p" || !strings.HasPrefix(out[0].Error, "input: line too long") {
		t.Errorf("out %+v", out)
	}
}
