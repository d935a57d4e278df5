package segmenter

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/charset"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/text"
)

// benchPages are the fixtures, or the pages of SEGMENT_BENCH_DIR (raw
// HTML files in any charset) when set, as scripts/bench/segment.sh does.
func benchPages(b *testing.B) ([]record.Page, int64) {
	dir := os.Getenv("SEGMENT_BENCH_DIR")
	pattern := filepath.Join("testdata", "*.html")
	if dir != "" {
		pattern = filepath.Join(dir, "*.html")
	}
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		b.Fatalf("no pages under %s", pattern)
	}
	var pages []record.Page
	var n int64
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		html, _, err := charset.Decode(raw, "")
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, record.Page{URL: "http://bench.example/" + filepath.Base(f), HTML: html})
		n += int64(len(html))
	}
	return pages, n
}

func BenchmarkSegment(b *testing.B) {
	pages, n := benchPages(b)
	sg, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	runBench(b, sg, pages, n)
}

// runBench segments the pages b.N times and reports, besides the wall
// clock MB/s, MB per CPU-second of the whole process (GC included).
func runBench(b *testing.B, sg *Segmenter, pages []record.Page, n int64) {
	b.SetBytes(n)
	b.ResetTimer()
	start := cpuTime()
	for range b.N {
		for _, p := range pages {
			sg.Segment(p)
		}
	}
	if used := cpuTime() - start; used > 0 && start > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/1e6/used.Seconds(), "MB/cpu-s")
	}
}

func BenchmarkSegmentTokens(b *testing.B) {
	pages, n := benchPages(b)
	sg, err := New(Options{Tokenizer: text.NewTokenizer(text.Options{})})
	if err != nil {
		b.Fatal(err)
	}
	sg.Segment(pages[0]) // the dictionary loads once per process, not per page
	runBench(b, sg, pages, n)
}
