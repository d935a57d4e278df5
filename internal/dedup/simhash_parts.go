package dedup

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/text"
)

// Leave-one-out keys: the SimHashes of a text without each of its
// paragraphs (Print.Parts).

// part is a paragraph of a text: its tokens toks[from:to] and its share
// of the text's weight.
type part struct {
	from, to int
	share    float32
}

// parts returns the SimHashes of the text without each of its paragraphs
// whose share of the weight is in [MinPartShare, MaxPartShare], heaviest
// first, at most f.Parts of them, leaving out those equal to main. The
// tokens are placed in paragraphs by finding each in turn in the
// normalised text (tokens are cut from it, in order); when one is not
// found there, the text gets no parts. para, when not nil, already
// holds the line of each token. sums are the main SimHash's per-bit sums
// (simhashSums).
func (f *Fingerprinter) parts(sc *scratch, body string, toks []string, para []int32, of, tf []int32, dw []float32,
	feats []feature, sums *[64]float32, main uint64) []uint64 {
	if para == nil {
		norm := text.Normalize(body)
		if strings.IndexByte(norm, '\n') < 0 {
			return nil
		}
		// para[i]: the paragraph (line) token i is in.
		para = grow(sc.para, len(toks))
		defer func() { sc.para = para }()
		line, pos := int32(0), 0
		for i, t := range toks {
			j := strings.Index(norm[pos:], t)
			if j < 0 {
				return nil
			}
			line += int32(strings.Count(norm[pos:pos+j], "\n"))
			para[i] = line
			pos += j + len(t)
		}
	}
	if para[len(para)-1] == para[0] {
		return nil
	}
	total := float32(0)
	for i := range toks {
		total += dw[of[i]]
	}
	if total <= 0 {
		return nil
	}
	ps := sc.parts[:0]
	defer func() { sc.parts = ps[:0] }()
	for from := 0; from < len(toks); {
		to, w := from, float32(0)
		for ; to < len(toks) && para[to] == para[from]; to++ {
			w += dw[of[to]]
		}
		if sh := w / total; sh >= MinPartShare && sh <= MaxPartShare {
			ps = append(ps, part{from, to, sh})
		}
		from = to
	}
	if len(ps) == 0 {
		return nil
	}
	sort.SliceStable(ps, func(a, b int) bool { return ps[a].share > ps[b].share })
	if len(ps) > f.Parts {
		ps = ps[:f.Parts]
	}
	cnt := grow(sc.cnt, len(tf))
	clear(cnt)
	defer func() { sc.cnt = cnt }()
	var out []uint64
	for _, pt := range ps {
		// The part's SimHash is the whole text's with the change of the
		// weights of the paragraph's tokens added, through nibble
		// counters as in simhash.
		var nib [16][16]float32
		change := float32(0)
		for i := pt.from; i < pt.to; i++ {
			cnt[of[i]]++
		}
		for i := pt.from; i < pt.to; i++ {
			d := of[i]
			c := cnt[d]
			if c == 0 { // already applied
				continue
			}
			cnt[d] = 0
			left := float32(0)
			if n := tf[d] - c; n > 0 {
				left = dw[d] * float32(1+math.Log(float64(n)))
			}
			delta := left - feats[d].w
			change += delta
			addNibbles(&nib, feats[d].h, delta)
		}
		var s [64]float32
		fp := expand(&nib, change, sums, &s)
		if fp != main && !slices.Contains(out, fp) {
			out = append(out, fp)
		}
	}
	return out
}
