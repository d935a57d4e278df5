package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// TestOverLongLineAnswered: a scored line over the reader's cap is
// rejected and answered with an error record for its URL.
func TestOverLongLineAnswered(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "in.jsonl")
	big := `{"url":"http://big.example/p","score":0.5,"relevant":true,"content":"` + strings.Repeat("x", jsonl.DefaultMaxLine) + "\"}\n"
	if err := os.WriteFile(p, []byte(big+line(t, scored("http://small.example/", articleB, 0.9, true))+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.jsonl")
	code, _, stderr := runCmd(t, "-q", "-o", out, p)
	if code != cli.ExitRejected {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	ks := readKnowledge(t, out)
	if len(ks) != 2 || ks[0].URL != "http://big.example/p" || !strings.HasPrefix(ks[0].Error, "input: line too long") ||
		ks[1].URL != "http://small.example/" || ks[1].Error != "" {
		t.Errorf("records %+v", ks)
	}
}
