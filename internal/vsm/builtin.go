package vsm

import (
	"bytes"
	_ "embed"
	"sync"
)

// The built-in tables, written by `score idf build` (docs/score.md says
// how to rebuild them):
//
//   - zh.idf.zst: the Chinese IDF table that jieba distributes (MIT) and
//     gse ships as data/dict/zh/idf.txt (Apache-2.0), ~1.1 million
//     documents, trimmed to the 82k terms with idf < 11 (found in at
//     least ~18 documents); rarer and unseen CJK terms get the median of
//     the full table, which is jieba's own rule for unknown words.
//   - en.idf.zst: built from the article bodies of the 181 English news
//     pages of scrapinghub/article-extraction-benchmark (MIT) with the
//     project's tokenizer; unseen Latin terms get ln(1+N)+1. Rebuilt with score idf build (docs/score.md).
var (
	//go:embed data/zh.idf.zst
	zhTable []byte
	//go:embed data/en.idf.zst
	enTable []byte
)

var builtin = sync.OnceValue(func() *IDF {
	zh, err := ReadCompressed(bytes.NewReader(zhTable), "builtin zh.idf")
	if err != nil {
		panic("vsm: embedded table: " + err.Error()) // a build defect, caught by the tests
	}
	en, err := ReadCompressed(bytes.NewReader(enTable), "builtin en.idf")
	if err != nil {
		panic("vsm: embedded table: " + err.Error())
	}
	t := NewIDF(map[string]float64{}, 0, en.Default, zh.DefaultCJK)
	t.Merge(en)
	t.Merge(zh)
	return t
})

// Builtin returns the embedded Chinese and English table, loaded once, on
// first use. It is shared: callers must not change it (Merge into a table
// of their own instead).
func Builtin() *IDF { return builtin() }
