package text

import (
	_ "embed"
	"strings"
	"sync"
)

// stopZh is gse's Chinese stop-word list (data/dict/zh/stop_tokens.txt of
// gse v0.80.3: function words, interjections and punctuation).
//
//go:embed data/stop_zh.txt
var stopZh string

// stopEn is a list of English function words: articles, pronouns,
// auxiliaries, conjunctions and prepositions.
//
//go:embed data/stop_en.txt
var stopEn string

var builtinStop = sync.OnceValue(func() map[string]struct{} {
	m := make(map[string]struct{}, 1400)
	for _, list := range []string{stopZh, stopEn} {
		for _, w := range strings.Split(list, "\n") {
			if w = Normalize(strings.TrimSpace(w)); w != "" {
				m[w] = struct{}{}
			}
		}
	}
	return m
})

// Stopwords returns the built-in stop words, normalised: gse's Chinese
// list and an English list. The slice is a fresh copy.
func Stopwords() []string {
	m := builtinStop()
	out := make([]string, 0, len(m))
	for w := range m {
		out = append(out, w)
	}
	return out
}
