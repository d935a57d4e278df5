package score

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/pagemodel"
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
	runEndToEnd(b, in.Bytes(), 5*len(lines), o)
}

// runEndToEnd runs the stage b.N times over in (docs docs) and reports
// docs/s of wall time and of CPU time (the process's, every goroutine's:
// on a shared machine the wall clock measures the other processes too).
func runEndToEnd(b *testing.B, in []byte, docs int, o Options) {
	b.SetBytes(int64(len(in)))
	cpu0 := cpuTime()
	b.ResetTimer()
	for range b.N {
		if err := Run(context.Background(), bytes.NewReader(in), io.Discard, o); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(docs*b.N)/b.Elapsed().Seconds(), "docs/s")
	b.ReportMetric(float64(docs*b.N)/(cpuTime()-cpu0).Seconds(), "docs/cpu-s")
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkEndToEndVSM(b *testing.B)        { benchEndToEnd(b, "best-first") }
func BenchmarkEndToEndBlockShark(b *testing.B) { benchEndToEnd(b, "block-shark") }

// BenchmarkEndToEndFile runs the stage (vsm, best-first, one worker) on
// the docs in $SCORE_BENCH_DOCS with the profile $SCORE_BENCH_TOPIC
// (default forestry) and the page model $SCORE_BENCH_MODEL (none by
// default), for profiling on other inputs; skipped without them.
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
	o.Model = os.Getenv("SCORE_BENCH_MODEL")
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

// benchModel trains a page model for the forestry profile on ten of the
// simweb docs (the first five the profile calls relevant and the first
// five it does not), with the rest of the 400 as the unlabelled pool, and
// saves it in dir.
func benchModel(b *testing.B, dir string, lines [][]byte) string {
	b.Helper()
	pos, neg, docs := writeLabelled(b, dir, lines, 5)
	prof, err := topic.Load("../../../examples/topics/forestry.yaml")
	if err != nil {
		b.Fatal(err)
	}
	res, err := Train(context.Background(), TrainOptions{Profile: prof, Page: scoring.DefaultPageOptions(),
		Positive: []string{pos}, Negative: []string{neg}, Docs: []string{docs}, MaxPool: 5000,
		NoProfileExamples: true, Model: pagemodel.DefaultOptions()})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "forestry.model.json")
	if err := res.Model.Save(path); err != nil {
		b.Fatal(err)
	}
	return path
}

// writeLabelled writes k docs the profile scores relevant to pos, k it
// does not to neg, and every line to docs.
func writeLabelled(b *testing.B, dir string, lines [][]byte, k int) (pos, neg, docs string) {
	b.Helper()
	var p, n, all bytes.Buffer
	for _, l := range lines {
		all.Write(l)
		all.WriteByte('\n')
		isRel := bytes.Contains(l, []byte(`造林`)) || bytes.Contains(l, []byte(`森林`))
		switch {
		case isRel && bytes.Count(p.Bytes(), []byte("\n")) < k:
			p.Write(l)
			p.WriteByte('\n')
		case !isRel && bytes.Count(n.Bytes(), []byte("\n")) < k:
			n.Write(l)
			n.WriteByte('\n')
		}
	}
	pos, neg, docs = filepath.Join(dir, "pos.jsonl"), filepath.Join(dir, "neg.jsonl"), filepath.Join(dir, "docs.jsonl")
	for name, buf := range map[string]*bytes.Buffer{pos: &p, neg: &n, docs: &all} {
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return pos, neg, docs
}

// BenchmarkEndToEndModel is BenchmarkEndToEndVSM with a page model
// judging the pages (score --model): docs/s on one worker.
func BenchmarkEndToEndModel(b *testing.B) {
	lines := simwebDocs(b, 400)
	model := benchModel(b, b.TempDir(), lines)
	var in bytes.Buffer
	for range 5 {
		for _, l := range lines {
			in.Write(l)
			in.WriteByte('\n')
		}
	}
	o := benchOptions(b, "../../../examples/topics/forestry.yaml", "best-first")
	o.Model = model
	runEndToEnd(b, in.Bytes(), 5*len(lines), o)
}

// BenchmarkTrain10 is score train on ten examples (five and five), no
// pool: reading the docs, the fit, the leave-one-out cross-validation.
func BenchmarkTrain10(b *testing.B) {
	lines := simwebDocs(b, 400)
	dir := b.TempDir()
	pos, neg, _ := writeLabelled(b, dir, lines, 5)
	prof, err := topic.Load("../../../examples/topics/forestry.yaml")
	if err != nil {
		b.Fatal(err)
	}
	o := TrainOptions{Profile: prof, Page: scoring.DefaultPageOptions(), Positive: []string{pos}, Negative: []string{neg},
		NoProfileExamples: true, Model: pagemodel.DefaultOptions()}
	b.ResetTimer()
	for range b.N {
		if _, err := Train(context.Background(), o); err != nil {
			b.Fatal(err)
		}
	}
}
