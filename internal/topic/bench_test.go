package topic

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkLoadForestry measures loading the largest example profile
// (390 dictionary terms, 24 hosts, rules and selectors compiled).
func BenchmarkLoadForestry(b *testing.B) {
	path := filepath.Join(examplesDir, "forestry.yaml")
	for b.Loop() {
		if _, err := Load(path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRuleScore measures F(P,R) of the bookstore rules over the text
// of a product page repeated to about 20 KB, a typical page's text.
func BenchmarkRuleScore(b *testing.B) {
	p, err := Load(filepath.Join(examplesDir, "bookstores.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join("testdata", "pages", "other-zh-news.txt"))
	if err != nil {
		b.Fatal(err)
	}
	text := strings.Repeat(string(page), 20*1024/len(page)+1)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		p.RuleScore(text)
	}
}
