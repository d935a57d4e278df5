package dedup

import (
	"cmp"
	"math"
	"slices"
)

// Compact is a unit-length TF-IDF vector cut to its heaviest terms, the
// terms named by 32-bit hashes and sorted by them: small enough to keep
// one per indexed document for --method euclid.
type Compact struct {
	Terms   []uint32
	Weights []float32
}

// compactVector builds the TF-IDF vector ((1+ln tf)·idf, as vsm.Vector)
// of the tokens with hashes hs and idf weights ws, keeps the max heaviest
// terms and scales the whole vector to unit length before cutting, so the
// distance of two cut vectors stays close to the distance of the full ones.
func compactVector(hs []uint64, ws []float32, max int) Compact {
	type tw struct {
		h  uint32
		tf int
		w  float32
	}
	m := make(map[uint32]int, len(hs))
	var terms []tw
	for i, h := range hs {
		k := uint32(h ^ h>>32)
		if j, ok := m[k]; ok {
			terms[j].tf++
			continue
		}
		m[k] = len(terms)
		terms = append(terms, tw{h: k, tf: 1, w: ws[i]})
	}
	norm := 0.0
	for i := range terms {
		terms[i].w *= float32(1 + math.Log(float64(terms[i].tf)))
		norm += float64(terms[i].w) * float64(terms[i].w)
	}
	if norm == 0 {
		return Compact{}
	}
	norm = math.Sqrt(norm)
	if len(terms) > max {
		slices.SortFunc(terms, func(a, b tw) int { return cmp.Compare(b.w, a.w) })
		terms = terms[:max]
	}
	slices.SortFunc(terms, func(a, b tw) int { return cmp.Compare(a.h, b.h) })
	c := Compact{Terms: make([]uint32, len(terms)), Weights: make([]float32, len(terms))}
	for i, t := range terms {
		c.Terms[i] = t.h
		c.Weights[i] = float32(float64(t.w) / norm)
	}
	return c
}

// Euclidean is the Euclidean distance of two compact vectors, in [0, 2]
// for unit vectors (d² = 2 − 2·cos). Two empty vectors are at distance 2:
// nothing says they are alike.
func Euclidean(a, b Compact) float64 {
	if len(a.Terms) == 0 || len(b.Terms) == 0 {
		return 2
	}
	s := 0.0
	i, j := 0, 0
	for i < len(a.Terms) && j < len(b.Terms) {
		switch {
		case a.Terms[i] == b.Terms[j]:
			d := float64(a.Weights[i] - b.Weights[j])
			s += d * d
			i++
			j++
		case a.Terms[i] < b.Terms[j]:
			s += float64(a.Weights[i]) * float64(a.Weights[i])
			i++
		default:
			s += float64(b.Weights[j]) * float64(b.Weights[j])
			j++
		}
	}
	for ; i < len(a.Terms); i++ {
		s += float64(a.Weights[i]) * float64(a.Weights[i])
	}
	for ; j < len(b.Terms); j++ {
		s += float64(b.Weights[j]) * float64(b.Weights[j])
	}
	return math.Sqrt(s)
}
