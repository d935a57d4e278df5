package score

import (
	"bytes"
	"context"
	"io"
	"os"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/scoring"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

// benchOptions are score's defaults with the link strategy links, the
// profile topicPath and one worker.
func benchOptions(b *testing.B, topicPath, links string) Options {
	b.Helper()
	prof, err := topic.Load(topicPath)
	if err != nil {
		b.Fatal(err)
	}
	cfg := scoring.Config{Page: scoring.DefaultPageOptions(), Links: scoring.DefaultLinkOptions(), Remember: 1_000_000}
	cfg.Links.Strategy = links
	return Options{Profile: prof, Config: cfg, Workers: 1}
}

// benchEndToEnd runs the stage on segment output of simweb pages (one
// worker) and reports docs/s: JSON in, scoring, JSON out.
func benchEndToEnd(b *testing.B, links string) {
	lines := simwebDocs(b, 400)
	var in bytes.Buffer
	// The corpus five times: the start (profile, IDF table) stays a small
	// part of a run.
	for range 5 {
		for _, l := range lines {
			in.Write(l)
			in.WriteByte('\n')
		}
	}
	o := benchOptions(b, "../../../examples/topics/forestry.yaml", links)
	b.SetBytes(int64(in.Len()))
	b.ResetTimer()
	for range b.N {
		if err := Run(context.Background(), bytes.NewReader(in.Bytes()), io.Discard, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(5*len(lines)*b.N)/b.Elapsed().Seconds(), "docs/s")
}

func BenchmarkEndToEndVSM(b *testing.B)        { benchEndToEnd(b, "best-first") }
func BenchmarkEndToEndBlockShark(b *testing.B) { benchEndToEnd(b, "block-shark") }

// BenchmarkEndToEndFile runs the stage (vsm, best-first, one worker) on
// the docs in $SCORE_BENCH_DOCS with the profile $SCORE_BENCH_TOPIC
// (default forestry), for profiling on other inputs; skipped without them.
func BenchmarkEndToEndFile(b *testing.B) {
	path := os.Getenv("SCORE_BENCH_DOCS")
	if path == "" {
		b.Skip("SCORE_BENCH_DOCS not set")
	}
	topicPath := os.Getenv("SCORE_BENCH_TOPIC")
	if topicPath == "" {
		topicPath = "../../../examples/topics/forestry.yaml"
	}
	links := os.Getenv("SCORE_BENCH_LINKS")
	if links == "" {
		links = "best-first"
	}
	o := benchOptions(b, topicPath, links)
	for range b.N {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		err = Run(context.Background(), f, io.Discard, o)
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
}
