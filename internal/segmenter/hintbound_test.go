package segmenter

import (
	"fmt"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// longClassPage is a page whose wrapper carries a class attribute of about
// n bytes of distinct words, as when an unclosed quote swallows the page.
func longClassPage(n int) string {
	var b strings.Builder
	b.WriteString(`<html><body><div class="`)
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "w%d ", i)
	}
	b.WriteString(`"><p>` + strings.Repeat("Forest tending raises the quality of forests. ", 20) + `</p>`)
	b.WriteString(`<p><a href="/a">one</a> <a href="/b">two</a></p></div></body></html>`)
	return b.String()
}

// TestHintWorkBounded: the bytes the class/id regexps read for a page do
// not grow with the length of one class attribute (they grew 8× for an 8×
// longer attribute, each block's hint lookups rescanning it whole).
func TestHintWorkBounded(t *testing.T) {
	sg := mustNew(t, Options{Tokenizer: fakeTokenizer{}, LinkTokens: true})
	read := func(n int) int64 {
		before := hintBytesRead.Load()
		sg.Segment(record.Page{URL: "http://x.example/", HTML: longClassPage(n)})
		return hintBytesRead.Load() - before
	}
	small, large := read(64<<10), read(512<<10)
	t.Logf("hint regexps read %d bytes for a 64 KiB class, %d for a 512 KiB one", small, large)
	if small == 0 {
		t.Fatal("no class bytes read: the counter is not reached")
	}
	if large > 2*small {
		t.Errorf("hint regexps read %d bytes for a 64 KiB class, %d for a 512 KiB one", small, large)
	}
}

// TestHintOfLongClass: a hint word early in a long class list still counts;
// a word past the bound is not read.
func TestHintOfLongClass(t *testing.T) {
	long := "article " + strings.Repeat("x ", maxHintBytes)
	if stringHints(long)&hintPos == 0 {
		t.Errorf("class %q…: no content hint", long[:20])
	}
	if stringHints(strings.Repeat("x ", maxHintBytes)+"sidebar")&hintNeg != 0 {
		t.Error("a word past the bound was read")
	}
}

// BenchmarkLongClass: a page whose wrapper has a 64 KiB or 512 KiB class
// attribute (docs/segment.md gives the figures).
func BenchmarkLongClass(b *testing.B) {
	sg := mustNew(b, Options{Tokenizer: fakeTokenizer{}, LinkTokens: true})
	for _, n := range []int{64 << 10, 512 << 10} {
		page := record.Page{URL: "http://x.example/", HTML: longClassPage(n)}
		b.Run(fmt.Sprintf("%dKiB", n>>10), func(b *testing.B) {
			b.SetBytes(int64(len(page.HTML)))
			for i := 0; i < b.N; i++ {
				sg.Segment(page)
			}
		})
	}
}
