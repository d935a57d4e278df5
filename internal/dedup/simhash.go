package dedup

import (
	"math"
	"math/bits"
	"strings"
	"sync"
	"unicode"

	"github.com/cespare/xxhash/v2"

	"github.com/focuscrawl/focuscrawl/internal/text"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// FingerprintVersion names the way Fingerprinter computes its keys. An
// index file records it and refuses runs that would compute them another
// way, since fingerprints of two versions cannot be compared.
const FingerprintVersion = "simhash64-v2"

// Print holds the content keys of one text.
type Print struct {
	// SimHash is the 64-bit SimHash of the weighted features.
	SimHash uint64
	// Exact is the hash of the text with white space collapsed.
	Exact uint64
	// Tokens is the number of tokens the SimHash was made from.
	Tokens int
	// Vector is the TF-IDF vector for --method euclid (nil unless asked).
	Vector Compact
	// Parts are the SimHashes of the text with one of its paragraphs
	// left out (Fingerprinter.Parts): a copy that lacks that paragraph
	// lies near one of them even when it lies far from SimHash.
	Parts []uint64
}

// Fingerprinter computes the content keys of texts. It is safe for
// concurrent use.
type Fingerprinter struct {
	tok *text.Tokenizer
	idf *vsm.IDF
	// Shingle is the length, in tokens, of the shingles hashed beside the
	// single tokens (≤ 1, the default: single tokens only). On the
	// labelled copies of scripts/bench/dedupe.sh, shingles of 2 moved
	// copies with swapped paragraphs further apart (recall at k=3 fell)
	// without separating distinct texts better.
	Shingle int
	// VectorTerms, when > 0, makes Print carry the TF-IDF vector of the
	// text cut to its heaviest VectorTerms terms.
	VectorTerms int
	// Parts is the largest number of leave-one-paragraph-out SimHashes a
	// Print carries (0: none). Dropping a paragraph of a tenth of a text
	// moves its SimHash about 6 bits (64·θ/π for cos θ ≈ √0.9): beyond
	// the default radius 3. A text's paragraphs holding between
	// MinPartShare and MaxPartShare of its weight get a SimHash of the
	// text without them, heaviest first.
	Parts int
}

// Leave-one-out paragraphs: a paragraph lighter than MinPartShare of the
// text moves the SimHash too little to need its own print; one heavier
// than MaxPartShare is too much of the text for the rest to stand for it
// (a copy that lost a quarter of an article is not a near-duplicate, and
// a page whose one paragraph is most of it would otherwise match other
// pages through what is left: the template's lines that the boilerplate
// filter missed).
const (
	MinPartShare = 1.0 / 64
	MaxPartShare = 1.0 / 4
	// DefaultParts is NewFingerprinter's Parts.
	DefaultParts = 8
)

// NewFingerprinter returns a Fingerprinter cutting text with tok and
// weighing terms with idf (vsm.Builtin when nil).
func NewFingerprinter(tok *text.Tokenizer, idf *vsm.IDF) *Fingerprinter {
	if idf == nil {
		idf = vsm.Builtin()
	}
	return &Fingerprinter{tok: tok, idf: idf, Shingle: 1, Parts: DefaultParts}
}

// scratch holds the buffers of one Print call, reused through a pool:
// allocation was a tenth of the cost.
type scratch struct {
	hs        []uint64
	slot, of  []int32
	first, tf []int32
	dw, ws    []float32
	feats     []feature
	para, cnt []int32
	parts     []part
	// placeTokens' buffers.
	boiler []bool
	kept   []string
	kpara  []int32
	// idf caches the weights of tokens by hash: the IDF table is a large
	// string-keyed map, and its lookups were a seventh of the cost.
	idf      map[uint64]float32
	idfOwner *Fingerprinter // whose table the cache holds weights of
}

// maxIDFCache bounds a scratch's weight cache; it is emptied when full.
const maxIDFCache = 1 << 17

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// grow returns b with length n, reallocated only when too small.
func grow[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n, n+n/4)
	}
	return b[:n]
}

// feature is one hashed feature and its weight.
type feature struct {
	h uint64
	w float32
}

// Print computes the keys of s. Traditional Chinese is folded to
// simplified first and boilerplate lines (isBoilerLine: copyright,
// contact and byline lines, navigation bars) are left out; the features are the distinct tokens, weighing
// idf·(1+ln tf), and the shingles of Shingle consecutive tokens, weighing
// the mean idf of their tokens. Tokens made only of digits (dates, counts,
// page numbers) weigh a fifth: they are what copies of one text change.
func (f *Fingerprinter) Print(s string) Print {
	body := stripBoiler(text.Fold(s))
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	return f.print(sc, Print{Exact: ExactHash(s)}, f.tok.Tokens(body), nil, body)
}

// PrintTokens is Print of content for a doc that already carries its
// tokens — segment's and score's docs do: toks are the tokens of
// title + "\n" + content, cut by a tokenizer with the same dictionary and
// stop words as f's. It gives Print's keys without cutting the text
// again: each token is placed on its line by finding it in the
// normalised text, and the tokens of the title and of boilerplate lines
// are left out. When the text needs folding (traditional characters) or
// a token is not found where it should be, the content is cut again.
func (f *Fingerprinter) PrintTokens(title, content string, toks []string) Print {
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	p := Print{Exact: ExactHash(content)}
	if kept, para, ok := placeTokens(sc, title, content, toks); ok {
		return f.print(sc, p, kept, para, "")
	}
	body := stripBoiler(text.Fold(content))
	return f.print(sc, p, f.tok.Tokens(body), nil, body)
}

// placeTokens keeps the tokens of content's lines that are not
// boilerplate (toks being those of title + "\n" + content) and returns
// them with the line of each; ok is false when content has characters to
// fold, its lines cannot be told apart after normalisation, or a token is
// not found in order.
func placeTokens(sc *scratch, title, content string, toks []string) (kept []string, para []int32, ok bool) {
	if text.Fold(content) != content {
		return nil, nil, false
	}
	all := title + "\n" + content
	norm := text.Normalize(all)
	titleLines := int32(strings.Count(title, "\n") + 1)
	if strings.Count(norm, "\n") != strings.Count(all, "\n") {
		return nil, nil, false
	}
	boiler := sc.boiler[:0]
	if strings.IndexByte(content, '\n') < 0 {
		boiler = append(boiler, isBoilerLine(strings.TrimSpace(content)))
	} else {
		for line := range strings.Lines(content) {
			boiler = append(boiler, isBoilerLine(strings.TrimSpace(line)))
		}
	}
	sc.boiler = boiler
	kept, para = sc.kept[:0], sc.kpara[:0]
	line, pos := int32(0), 0
	for _, t := range toks {
		j := strings.Index(norm[pos:], t)
		if j < 0 {
			return nil, nil, false
		}
		line += int32(strings.Count(norm[pos:pos+j], "\n"))
		pos += j + len(t)
		if c := line - titleLines; c >= 0 && int(c) < len(boiler) && !boiler[c] {
			kept = append(kept, t)
			para = append(para, c)
		}
	}
	sc.kept, sc.kpara = kept, para
	return kept, para, true
}

// print computes the keys of the tokens toks of body (whose lines para
// gives, or nil to find them in body when parts are made) into p.
func (f *Fingerprinter) print(sc *scratch, p Print, toks []string, para []int32, body string) Print {
	p.Tokens = len(toks)
	if len(toks) == 0 {
		return p
	}
	hs := grow(sc.hs, len(toks))
	for i, t := range toks {
		hs[i] = xxhash.Sum64String(t)
	}
	// Group equal tokens (by hash) so each distinct token is weighed once:
	// the IDF table is large and its lookups are a good part of the cost.
	// first[d] is the first token of distinct token d, tf[d] its count,
	// of[i] the distinct token of token i.
	size := 64
	for size < 2*len(toks) {
		size <<= 1
	}
	slot := grow(sc.slot, size) // distinct token + 1, 0 when empty
	clear(slot)
	of := grow(sc.of, len(toks))
	first, tf := sc.first[:0], sc.tf[:0]
	for i, h := range hs {
		k := int(mix(h)) & (size - 1)
		for {
			d := slot[k] - 1
			if d < 0 {
				slot[k] = int32(len(first)) + 1
				of[i] = int32(len(first))
				first = append(first, int32(i))
				tf = append(tf, 1)
				break
			}
			if hs[first[d]] == h {
				of[i] = d
				tf[d]++
				break
			}
			k = (k + 1) & (size - 1)
		}
	}
	dw := grow(sc.dw, len(first))
	feats := grow(sc.feats, len(first))
	if sc.idf == nil || len(sc.idf) > maxIDFCache || sc.idfOwner != f {
		sc.idf, sc.idfOwner = make(map[uint64]float32, 4096), f
	}
	for d, i := range first {
		w, ok := sc.idf[hs[i]]
		if !ok {
			t := toks[i]
			w = float32(f.idf.Weight(t))
			if digitsOnly(t) {
				w *= 0.2
			}
			sc.idf[hs[i]] = w
		}
		dw[d] = w
		feats[d] = feature{hs[i], w * float32(1+math.Log(float64(tf[d])))}
	}
	var ws []float32
	if f.Shingle > 1 || f.VectorTerms > 0 {
		ws = grow(sc.ws, len(toks))
		for i := range ws {
			ws[i] = dw[of[i]]
		}
	}
	defer func() { // keep the grown buffers for the next call
		sc.hs, sc.slot, sc.of, sc.first, sc.tf, sc.dw, sc.feats, sc.ws = hs, slot, of, first, tf, dw, feats, ws
	}()
	if f.Parts > 0 && f.Shingle <= 1 {
		var sums [64]float32
		p.SimHash = simhashSums(feats, &sums)
		p.Parts = f.parts(sc, body, toks, para, of, tf, dw, feats, &sums, p.SimHash)
		if f.VectorTerms > 0 {
			p.Vector = compactVector(hs, ws, f.VectorTerms)
		}
		return p
	}
	if n := f.Shingle; n > 1 && len(toks) >= n {
		for i := 0; i+n <= len(toks); i++ {
			h := uint64(n)
			w := float32(0)
			for j := i; j < i+n; j++ {
				h = bits.RotateLeft64(h, 23)*0x9E3779B97F4A7C15 ^ hs[j]
				w += ws[j]
			}
			feats = append(feats, feature{mix(h), w / float32(n)})
		}
	}
	p.SimHash = simhash(feats)
	if f.VectorTerms > 0 {
		p.Vector = compactVector(hs, ws, f.VectorTerms)
	}
	return p
}

func digitsOnly(t string) bool {
	for _, r := range t {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
