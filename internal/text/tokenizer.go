package text

import (
	"strings"
	"unicode/utf8"

	"github.com/focuscrawl/focuscrawl/internal/text/dictfile"
)

// Options configures a Tokenizer.
type Options struct {
	// Dictionary holds domain words (the topic profile's dictionary):
	// each comes out as one token wherever it occurs, whatever gse's
	// dictionary says about its pieces. Words are normalised like text.
	Dictionary []string
	// Stopwords are dropped from Tokens in addition to the built-in ones.
	Stopwords []string
	// NoBuiltinStopwords drops only Options.Stopwords, not the built-in
	// Chinese and English lists.
	NoBuiltinStopwords bool
}

// Tokenizer cuts text into normalised words. It is immutable once built
// and safe for concurrent use; build one per profile and share it.
type Tokenizer struct {
	stop map[string]struct{}
	dom  *domain
}

// NewTokenizer returns a Tokenizer with the domain dictionary and stop
// words of o. It does not load the Chinese dictionary: that happens once
// per process, at the first text with CJK characters.
func NewTokenizer(o Options) *Tokenizer {
	t := &Tokenizer{}
	if !o.NoBuiltinStopwords && len(o.Stopwords) == 0 {
		t.stop = builtinStop()
	} else {
		t.stop = make(map[string]struct{}, len(o.Stopwords)+1400)
		if !o.NoBuiltinStopwords {
			for w := range builtinStop() {
				t.stop[w] = struct{}{}
			}
		}
		for _, w := range o.Stopwords {
			if w = Normalize(strings.TrimSpace(w)); w != "" {
				t.stop[w] = struct{}{}
			}
		}
	}
	words := make([]string, 0, len(o.Dictionary))
	for _, w := range o.Dictionary {
		if w = Normalize(strings.TrimSpace(w)); w != "" {
			words = append(words, w)
		}
	}
	t.dom = newDomain(words)
	return t
}

// Tokens returns the words of s: normalised (see Normalize), Chinese cut
// by gse's zh dictionary and the domain dictionary, Latin letters and
// digits kept as whole runs ("covid-19" gives "covid" and "19"), stop
// words and tokens without a letter or digit dropped.
func (t *Tokenizer) Tokens(s string) []string {
	return t.words(s, true)
}

// Words is Tokens with the stop words kept: every word of s in order,
// punctuation and spaces dropped. Use it where word order matters
// (shingles, phrase search).
func (t *Tokenizer) Words(s string) []string {
	return t.words(s, false)
}

// IsStopword reports whether w, once normalised, is one of t's stop words.
func (t *Tokenizer) IsStopword(w string) bool {
	_, ok := t.stop[Normalize(w)]
	return ok
}

// chunkSize is the length of text cut at a time: past it, the text is
// cut at the next line break (or, lacking one, at the next space or
// punctuation mark), which no word spans, so memory stays bounded on huge
// pages without changing any word.
const chunkSize = 64 << 10

func (t *Tokenizer) words(s string, dropStop bool) []string {
	if s == "" {
		return nil
	}
	s = Normalize(s)
	out := make([]string, 0, len(s)/6+1)
	var units []unit
	var ends []int32
	for len(s) > 0 {
		chunk := s[:chunkEnd(s)]
		s = s[len(chunk):]
		units = splitUnits(units[:0], chunk)
		ends = t.cutChunk(chunk, units, ends[:0])
		from := 0
		for _, e := range ends {
			w := chunk[units[from].start:units[e-1].end]
			from = int(e)
			if !hasWordRune(w) {
				continue
			}
			if dropStop {
				if _, ok := t.stop[w]; ok {
					continue
				}
			}
			out = append(out, w)
		}
	}
	return out
}

// cutChunk returns the word ends of one chunk's units (see cut).
func (t *Tokenizer) cutChunk(s string, units []unit, ends []int32) []int32 {
	cjk := false
	for _, u := range units {
		if u.kind == unitCJK {
			cjk = true
			break
		}
	}
	if !cjk && !t.dom.latin {
		// Without CJK text or multi-unit Latin domain words every unit is
		// a word on its own.
		for i := range units {
			ends = append(ends, int32(i+1))
		}
		return ends
	}
	var zh *dictfile.Trie
	if cjk {
		if tr, err := chinese(); err == nil {
			zh = tr
		}
	}
	return cut(s, units, zh, t.dom, ends)
}

// chunkEnd returns where the first chunk of s ends.
func chunkEnd(s string) int {
	if len(s) <= chunkSize {
		return len(s)
	}
	if i := strings.IndexByte(s[chunkSize:], '\n'); i >= 0 && i < chunkSize {
		return chunkSize + i + 1
	}
	// No line break nearby: the next ASCII space or punctuation mark
	// (never inside a word of the dictionary), else a rune boundary.
	for i := chunkSize; i < len(s) && i < 2*chunkSize; i++ {
		if c := s[i]; c == ' ' || c == '\t' || c == ',' || c == '.' || c == ';' {
			return i + 1
		}
	}
	i := 2 * chunkSize
	if i > len(s) {
		return len(s)
	}
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return i
}

// TokenizerVersion names how Tokens cuts text: the rules above and gse
// v0.80.3's zh dictionary. Whatever keeps what it learned from tokens (a
// page model) records it; change it whenever a text's tokens change.
const TokenizerVersion = "focuscrawl-text/1 gse-zh/v0.80.3"
