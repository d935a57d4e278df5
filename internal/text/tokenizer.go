package text

import (
	"strings"
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

func (t *Tokenizer) words(s string, dropStop bool) []string {
	if s == "" {
		return nil
	}
	s = Normalize(s)
	units := splitUnits(make([]unit, 0, len(s)/2+1), s)
	out := make([]string, 0, len(units)/2+1)
	keep := func(w string) {
		if !hasWordRune(w) {
			return
		}
		if dropStop {
			if _, ok := t.stop[w]; ok {
				return
			}
		}
		out = append(out, w)
	}
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
		for _, u := range units {
			keep(s[u.start:u.end])
		}
		return out
	}
	var zh = (*dictTrie)(nil)
	if cjk {
		if tr, err := chinese(); err == nil {
			zh = tr
		}
	}
	ends := cut(s, units, zh, t.dom, nil)
	from := 0
	for _, e := range ends {
		keep(s[units[from].start:units[e-1].end])
		from = int(e)
	}
	return out
}
