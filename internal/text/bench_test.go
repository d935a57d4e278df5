package text

import (
	"strings"
	"testing"
)

// benchText is a paragraph of Chinese forestry prose with some Latin.
const benchText = `根据《森林抚育规程》(GB/T 15781-2015)的要求，各地要科学制定森林抚育作业设计，` +
	`以小班为单位开展抚育间伐、补植补造和割灌除草等措施，提高林分质量。2017年全省完成造林面积` +
	`12.5万公顷，其中宜林地造林8.3万公顷，退化林修复4.2万公顷。The forest management plan ` +
	`follows FAO guidelines for sustainable forestry. 造林模式应因地制宜，乡土树种优先，` +
	`营造混交林，增强森林生态系统的稳定性和抗逆性。`

func BenchmarkTokensChinese(b *testing.B) {
	tk := NewTokenizer(Options{Dictionary: []string{"小班", "宜林地", "造林模式"}})
	s := strings.Repeat(benchText, 20)
	if err := LoadChinese(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(s)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tk.Tokens(s)
	}
}

func BenchmarkTokensEnglish(b *testing.B) {
	tk := NewTokenizer(Options{})
	s := strings.Repeat("The forest management plan follows FAO guidelines for sustainable forestry, "+
		"with thinning, replanting and weeding carried out compartment by compartment. ", 40)
	b.SetBytes(int64(len(s)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tk.Tokens(s)
	}
}

// BenchmarkLoadChinese is the cost of the lazy load: zstd decompression
// and dictfile.Read of gse's full zh dictionary.
func BenchmarkLoadChinese(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := loadChinese(); err != nil {
			b.Fatal(err)
		}
	}
}
