package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

// benchEndToEnd runs the command on segment output of simweb pages (one
// worker) and reports docs/s: JSON in, scoring, JSON out.
func benchEndToEnd(b *testing.B, links string) {
	lines := simwebDocs(b, 400)
	var in bytes.Buffer
	// The corpus five times: the command's start (profile, IDF table)
	// stays a small part of a run.
	for range 5 {
		for _, l := range lines {
			in.Write(l)
			in.WriteByte('\n')
		}
	}
	path := filepath.Join(b.TempDir(), "docs.jsonl")
	if err := os.WriteFile(path, in.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(in.Len()))
	b.ResetTimer()
	for range b.N {
		if code := cli.Run(newApp(), []string{"score", "-q", "--topic", "../../examples/topics/forestry.yaml",
			"--links", links, "--workers", "1", "-o", os.DevNull, path}, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(5*len(lines)*b.N)/b.Elapsed().Seconds(), "docs/s")
}

func BenchmarkEndToEndVSM(b *testing.B)        { benchEndToEnd(b, "best-first") }
func BenchmarkEndToEndBlockShark(b *testing.B) { benchEndToEnd(b, "block-shark") }

// BenchmarkEndToEndFile runs the command (vsm, best-first, one worker) on
// the docs in $SCORE_BENCH_DOCS with the profile $SCORE_BENCH_TOPIC
// (default forestry), for profiling on other inputs; skipped without them.
func BenchmarkEndToEndFile(b *testing.B) {
	path := os.Getenv("SCORE_BENCH_DOCS")
	if path == "" {
		b.Skip("SCORE_BENCH_DOCS not set")
	}
	topicPath := os.Getenv("SCORE_BENCH_TOPIC")
	if topicPath == "" {
		topicPath = "../../examples/topics/forestry.yaml"
	}
	links := os.Getenv("SCORE_BENCH_LINKS")
	if links == "" {
		links = "best-first"
	}
	for range b.N {
		if code := cli.Run(newApp(), []string{"score", "-q", "--topic", topicPath,
			"--links", links, "--workers", "1", "-o", os.DevNull, path}, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
