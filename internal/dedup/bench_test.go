package dedup

import (
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/text"
)

var benchZH = strings.Repeat("宜林地造林模式的选择要根据立地条件，造林前要进行整地。整地方式包括穴状整地和带状整地，造林后要及时抚育，确保成活率和保存率。", 8)
var benchEN = strings.Repeat("The forestry bureau published new rules for thinning and replanting of state forests after the storm season. ", 12)

func BenchmarkPrintChinese(b *testing.B) {
	f := NewFingerprinter(text.NewTokenizer(text.Options{}), nil)
	f.Print(benchZH)
	b.SetBytes(int64(len(benchZH)))
	for b.Loop() {
		f.Print(benchZH)
	}
}

func BenchmarkPrintEnglish(b *testing.B) {
	f := NewFingerprinter(text.NewTokenizer(text.Options{}), nil)
	f.Print(benchEN)
	b.SetBytes(int64(len(benchEN)))
	for b.Loop() {
		f.Print(benchEN)
	}
}

func BenchmarkTokensChinese(b *testing.B) {
	tok := text.NewTokenizer(text.Options{})
	tok.Tokens(benchZH)
	b.SetBytes(int64(len(benchZH)))
	for b.Loop() {
		tok.Tokens(benchZH)
	}
}

func BenchmarkStripBoiler(b *testing.B) {
	s := join(append(append([]string{headerZH}, articleZH...), footerZH)...) + "\n" + join(articleEN...)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		stripBoiler(s)
	}
}
