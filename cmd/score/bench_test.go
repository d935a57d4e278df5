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
