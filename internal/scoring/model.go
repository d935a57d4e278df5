package scoring

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/focuscrawl/focuscrawl/internal/pagemodel"
	"github.com/focuscrawl/focuscrawl/internal/slicesx"
	"github.com/focuscrawl/focuscrawl/internal/topic"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// Tokenizer cuts text into terms (internal/text's Tokenizer).
type Tokenizer interface {
	Tokens(s string) []string
}

// ErrNoTopicText says a profile has neither a description nor keywords,
// so there is no topic vector to score against.
var ErrNoTopicText = errors.New("the topic profile has neither a description nor keywords: add `description:` or `keywords:`")

// keyword is a profile keyword with its terms as the tokenizer cuts them.
type keyword struct {
	term   string
	weight float64
	terms  []string
	cjk    bool
}

// Model is a topic prepared for scoring: its TF-IDF vector, its keywords
// and synonyms, and the tokenizer and IDF table that built them. It is
// read-only once built and safe for concurrent use.
type Model struct {
	Profile *topic.Profile
	Tok     Tokenizer
	IDF     *vsm.IDF
	// Vector is the topic vector: the unit TF-IDF vectors of the
	// description, of the keywords and of the mean positive example text,
	// added up.
	Vector vsm.Vector

	unit     vsm.Vector // Vector, unit length
	peak     float64    // the largest weight of unit
	keywords []keyword
	kwTotal  float64
	// theta is Θ(t) of paper 2's (docs/algorithms.md §3) RW: keywords 1, synonyms their value.
	theta map[string]float64
	// topicWords are the words whose presence UH, TeH and TiH test.
	topicWords []string
	sims       simCache
	// page is the page model that judges pages (UsePageModel), nil for
	// the profile's own score; tokenMemo remembers the tokens of the
	// navigation texts and anchors it reads.
	page      *pagemodel.Model
	tokenMemo tokenCache
}

// NewModel prepares p for scoring with the tokenizer and IDF table.
func NewModel(p *topic.Profile, tok Tokenizer, idf *vsm.IDF) (*Model, error) {
	if strings.TrimSpace(p.Description) == "" && len(p.Keywords) == 0 {
		return nil, ErrNoTopicText
	}
	m := &Model{Profile: p, Tok: tok, IDF: idf, theta: map[string]float64{}}
	var parts []vsm.Vector
	if d := idf.Vector(tok.Tokens(p.Description)); d.Len() > 0 {
		parts = append(parts, d.Normalize())
	}
	var kwTokens []string
	for _, k := range p.Keywords {
		terms := slicesx.Unique(tok.Tokens(k.Term))
		if len(terms) == 0 {
			terms = []string{strings.ToLower(k.Term)}
		}
		m.keywords = append(m.keywords, keyword{term: k.Term, weight: k.Weight, terms: terms, cjk: vsm.HasCJK(k.Term)})
		m.kwTotal += k.Weight
		kwTokens = append(kwTokens, terms...)
		m.addTopicWord(k.Term, 1)
	}
	if kv := idf.Vector(slicesx.Unique(kwTokens)); kv.Len() > 0 {
		parts = append(parts, kv.Normalize())
	}
	var ex vsm.Vector
	for _, e := range p.Examples.Positive {
		if topic.IsURL(e) {
			continue // a URL's text is known only when its page is in the batch
		}
		if v := idf.Vector(tok.Tokens(e)); v.Len() > 0 {
			ex = vsm.Add(ex, 1, v.Normalize())
		}
	}
	if ex.Len() > 0 {
		parts = append(parts, ex.Normalize())
	}
	for _, v := range parts {
		m.Vector = vsm.Add(m.Vector, 1, v)
	}
	if m.Vector.Len() == 0 {
		return nil, fmt.Errorf("the topic profile's description and keywords hold no words after tokenizing: %w", ErrNoTopicText)
	}
	m.unit = m.Vector.Normalize()
	m.peak = slices.Max(m.unit.Weights)
	for s, th := range p.Synonyms {
		m.addTopicWord(s, th)
	}
	return m, nil
}

func (m *Model) addTopicWord(w string, theta float64) {
	w = strings.ToLower(strings.TrimSpace(w))
	if w == "" {
		return
	}
	if old, ok := m.theta[w]; !ok || theta > old {
		if !ok {
			m.topicWords = append(m.topicWords, w)
		}
		m.theta[w] = theta
	}
}

// Text returns the TF-IDF vector of a text.
func (m *Model) Text(s string) vsm.Vector { return m.IDF.Vector(m.Tok.Tokens(s)) }

// Cosine is sim(v, topic): the cosine of v and the topic vector.
func (m *Model) Cosine(v vsm.Vector) float64 { return vsm.Cosine(v, m.unit) }

// TextSim is ShortSim(Text(s)), remembered for the last texts seen
// (menus, footers and related-link lists repeat from page to page of a
// site, and tokenising is most of the cost of ranking links). Safe for
// concurrent use.
func (m *Model) TextSim(s string) float64 {
	c := &m.sims
	c.mu.Lock()
	v, ok := c.m[s]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = m.ShortSim(m.Text(s))
	if len(s) > textSimMaxLen {
		return v
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= textSimCacheSize {
		// Bounded: start over rather than track recency.
		c.m = make(map[string]float64, 1024)
	}
	c.m[strings.Clone(s)] = v
	c.mu.Unlock()
	return v
}

// textSimCacheSize and textSimMaxLen bound the texts TextSim remembers:
// at most 20,000 of at most 1 KB (contexts are at most 200 characters),
// so under 25 MB, a few MB in practice.
const (
	textSimCacheSize = 20000
	textSimMaxLen    = 1024
)

// simCache is TextSim's memory.
type simCache struct {
	mu sync.Mutex
	m  map[string]float64
}

// ShortSim is the similarity of a short text (an anchor, a link's
// context) to the topic: the cosine scaled so that a text made of the
// topic's strongest term scores 1, capped at 1. A plain cosine of a
// three-word anchor against a topic vector of hundreds of terms stays
// near 0.1 even when every word is on topic, which would put every link
// under the link threshold; scaling by the peak keeps the ranking of the
// cosine and gives the values a usable range.
func (m *Model) ShortSim(v vsm.Vector) float64 {
	if m.peak == 0 {
		return 0
	}
	return math.Min(1, vsm.Cosine(v, m.unit)/m.peak)
}

// KeywordCover is the weighted share of the keywords a page holds (every
// term of a keyword among the page's terms), reaching 1 at cover:
// min(1, Σ_{k in page} w_k / (cover · Σ_k w_k)). It is 0 without keywords.
// Raising the weight of a keyword the page holds never lowers it.
func (m *Model) KeywordCover(page vsm.Vector, cover float64) float64 {
	return m.keywordCover(page, "", cover)
}

// keywordCover is KeywordCover where a Chinese keyword also counts when
// it occurs in text: the segmenter may cut 林业局 as one word, which holds
// the keyword 林业 all the same.
func (m *Model) keywordCover(page vsm.Vector, text string, cover float64) float64 {
	if m.kwTotal <= 0 {
		return 0
	}
	got := 0.0
	var present *runeSet
	for _, k := range m.keywords {
		all := true
		for _, t := range k.terms {
			if page.Weight(t) == 0 {
				all = false
				break
			}
		}
		if !all && text != "" && k.cjk {
			// Most keywords have a character the page lacks: a set of
			// the page's characters, made once, spares their search.
			if present == nil {
				present = newRuneSet(text)
			}
			all = present.mayContain(k.term) && strings.Contains(text, k.term)
		}
		if all {
			got += k.weight
		}
	}
	if cover <= 0 {
		cover = 1
	}
	return math.Min(1, got/(cover*m.kwTotal))
}

// HasKeywords tells whether the profile has keywords with weight.
func (m *Model) HasKeywords() bool { return m.kwTotal > 0 }

// runeSet is the set of the CJK characters (U+3000–U+9FFF) of a text.
type runeSet struct {
	bits [(runeSetHi - runeSetLo) / 64]uint64
}

const runeSetLo, runeSetHi = 0x3000, 0xA000

func newRuneSet(text string) *runeSet {
	s := &runeSet{}
	for _, r := range text {
		if r >= runeSetLo && r < runeSetHi {
			s.bits[(r-runeSetLo)/64] |= 1 << ((r - runeSetLo) % 64)
		}
	}
	return s
}

// mayContain is false when term has a character of the set's range that
// the text lacks (then the text cannot contain term).
func (s *runeSet) mayContain(term string) bool {
	for _, r := range term {
		if r >= runeSetLo && r < runeSetHi && s.bits[(r-runeSetLo)/64]&(1<<((r-runeSetLo)%64)) == 0 {
			return false
		}
	}
	return true
}
