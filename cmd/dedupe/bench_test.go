package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/text"
)

// benchDocs writes n scored docs of ~1.2 KB (half Chinese), with the
// tokens segment gives them when tokens is set, and returns the file.
func benchDocs(b *testing.B, n int, tokens bool) string {
	b.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	zh := []rune(articleA + articleB)
	en := strings.Fields("the forestry bureau published new rules for thinning and replanting of state forests after storm season crews must loosen soil weed and replant gaps so that survival reaches at least eighty five percent")
	tok := text.NewTokenizer(text.Options{})
	var lines []string
	for i := range n {
		var sb strings.Builder
		for p := range 2 {
			if p > 0 {
				sb.WriteString("\n\n")
			}
			for range 60 {
				if i%2 == 0 {
					k := r.IntN(len(zh) - 8)
					sb.WriteString(string(zh[k : k+4]))
				} else {
					sb.WriteString(en[r.IntN(len(en))] + " ")
				}
			}
		}
		d := record.ScoredDoc{Doc: record.Doc{URL: fmt.Sprintf("http://s%d.test/a/%d", i%500, i), Title: fmt.Sprintf("标题 %d", i), Content: sb.String()}, Score: 0.5, Relevant: true}
		if tokens {
			d.Tokens = tok.Tokens(d.Title + "\n" + d.Content)
		}
		lines = append(lines, line(b, d))
	}
	p := filepath.Join(b.TempDir(), "docs.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkDedupe runs the whole command over 5,000 docs into a new
// index: ns/op divided by 5,000 is the cost of a doc.
func BenchmarkDedupe(b *testing.B) {
	for _, tokens := range []bool{true, false} {
		b.Run(fmt.Sprintf("tokens=%v", tokens), func(b *testing.B) {
			in := benchDocs(b, 5000, tokens)
			dir := b.TempDir()
			i := 0
			for b.Loop() {
				i++
				if code, _, errs := runCmd(b, "-q", "--index", filepath.Join(dir, fmt.Sprint(i, ".idx")), "-o", filepath.Join(dir, "out.jsonl"), in); code != 0 {
					b.Fatal(errs)
				}
			}
		})
	}
}
