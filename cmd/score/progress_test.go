package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

// TestProgressOn: score used to ignore --progress on. Without a terminal
// the progress is a whole line, written at the end of a short run.
func TestProgressOn(t *testing.T) {
	// The stream logs to the process's stderr: catch it in a file.
	errFile, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = errFile
	_, out, _ := run(t, "--topic", "testdata/forest.yaml", "--progress", "on", "--rejects", os.DevNull, "testdata/docs.jsonl")
	os.Stderr = saved
	errFile.Close()
	b, _ := os.ReadFile(errFile.Name())
	stderr := string(b)
	if len(out) != 3 || !strings.Contains(stderr, "score: 3 docs scored, ") || strings.Contains(stderr, "\r") {
		t.Fatalf("%d docs, stderr %q", len(out), stderr)
	}
}

// TestDefaultLinksIsShark: score's default --links is crawl.sh's shark.
func TestDefaultLinksIsShark(t *testing.T) {
	cfg := func(args ...string) string {
		var got string
		app := newApp()
		app.Action = func(c *ucli.Context) error {
			conf, err := config(c)
			got = conf.Links.Strategy
			return err
		}
		var stderr bytes.Buffer
		if code := cli.Run(app, append([]string{"score"}, args...), &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		return got
	}
	if got := cfg(); got != "shark" {
		t.Fatalf("default --links %q, want shark", got)
	}
}
