package segmenter

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// linkDensePage is an HTML page of about size bytes that is nearly all
// links, in paragraphs of text: the shape that once made a 104 MB doc.
func linkDensePage(size int) string {
	var sb strings.Builder
	sb.WriteString("<html><head><title>links</title></head><body>")
	for i := 0; sb.Len() < size; i++ {
		if i%20 == 0 {
			sb.WriteString("<p>目录 index ")
		}
		fmt.Fprintf(&sb, `<a href="/d/%d.html">条目 %d</a> `, i, i)
		if i%20 == 19 {
			sb.WriteString("</p>")
		}
	}
	sb.WriteString("</body></html>")
	return sb.String()
}

// peakHeap samples the live heap while f runs and returns its peak.
func peakHeap(f func()) uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(done)
	return peak.Load()
}

// BenchmarkLinkDensePage segments an 11 MB page of ~250k links and
// reports the peak live heap and the size of the doc line: both are
// bounded by MaxLinks and MaxContextBytes, whatever the page.
func BenchmarkLinkDensePage(b *testing.B) {
	page := record.Page{URL: "http://dense.example/", Status: 200, HTML: linkDensePage(11 << 20)}
	sg, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(page.HTML)))
	b.ReportAllocs()
	runtime.GC()
	var peak uint64
	var line []byte
	var d record.Doc
	for b.Loop() {
		peak = max(peak, peakHeap(func() {
			d = sg.Segment(page)
			line, _ = json.Marshal(d)
		}))
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(len(line))/(1<<20), "doc-MB")
	b.ReportMetric(float64(len(d.Links)), "links")
}
