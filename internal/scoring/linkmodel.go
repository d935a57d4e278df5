package scoring

import (
	"math"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// LinkModel is paper 3's (docs/algorithms.md §4) link model for one set of candidate URLs T and
// labelled seeds S (docs/algorithms.md §4), with U (|T|×|S|, dense: S is small)
// and V (|T|×|T|) kept as the top-k entries of each row, found through an
// inverted index: V is never built densely.
type LinkModel struct {
	// U holds the row-normalised similarities of each candidate to each
	// seed.
	U [][]float64
	// VCols and VVals are row i's kept columns and row-normalised values.
	VCols [][]int32
	VVals [][]float64
	// Xs are the seed labels, positives summing to 1 and negatives to −1.
	Xs []float64
	// Gamma is γ, the weight of the candidates' own neighbourhood.
	Gamma float64
}

type posting struct {
	cand int32
	w    float64
}

// NewLinkModel builds the model. cands and seeds are TF-IDF vectors (made
// unit length here); labels are +1 (relevant) or −1 (irrelevant) per seed.
// In each row of V only the topK largest similarities are kept; terms
// found in more than maxPosting candidates are skipped when looking for
// them (they join almost everything and say little), which keeps the
// search near-linear.
func NewLinkModel(cands, seeds []vsm.Vector, labels []float64, gamma float64, topK, maxPosting int) *LinkModel {
	n := len(cands)
	lm := &LinkModel{U: make([][]float64, n), VCols: make([][]int32, n), VVals: make([][]float64, n), Gamma: gamma}
	ix := newLMIndex(cands, seeds, topK, maxPosting)
	// Seed labels: positives sum to 1, negatives to −1.
	lm.Xs = normaliseSigned(append([]float64(nil), labels...))
	for i, u := range ix.units {
		lm.U[i], lm.VCols[i], lm.VVals[i] = ix.row(u, int32(i))
	}
	return lm
}

// lmIndex finds the rows of U and V: the candidates' unit vectors behind
// an inverted index, and the seeds'.
type lmIndex struct {
	units, seedUnits []vsm.Vector
	index            map[string][]posting
	topK, maxPosting int
	acc              []float64
	touched          []int32
	// full, when set, is the index this one holds a part of: its posting
	// lengths decide which terms count.
	full *lmIndex
}

func newLMIndex(cands, seeds []vsm.Vector, topK, maxPosting int) *lmIndex {
	ix := &lmIndex{units: make([]vsm.Vector, len(cands)), seedUnits: make([]vsm.Vector, len(seeds)),
		index: map[string][]posting{}, topK: topK, maxPosting: maxPosting, acc: make([]float64, len(cands))}
	for i, c := range cands {
		ix.units[i] = c.Normalize()
	}
	for j, s := range seeds {
		ix.seedUnits[j] = s.Normalize()
	}
	for i, u := range ix.units {
		for k, t := range u.Terms {
			ix.index[t] = append(ix.index[t], posting{int32(i), u.Weights[k]})
		}
	}
	return ix
}

// set indexes candidate i's unit vector u: a new candidate (i the next
// id) or a changed one, whose old postings go.
func (ix *lmIndex) set(i int32, u vsm.Vector) {
	if int(i) < len(ix.units) {
		for _, t := range ix.units[i].Terms {
			ps := ix.index[t]
			kept := ps[:0]
			for _, p := range ps {
				if p.cand != i {
					kept = append(kept, p)
				}
			}
			ix.index[t] = kept
		}
	} else {
		ix.units = append(ix.units, vsm.Vector{})
		ix.acc = append(ix.acc, 0)
	}
	ix.units[i] = u
	for k, t := range u.Terms {
		ix.index[t] = append(ix.index[t], posting{i, u.Weights[k]})
	}
}

// sim is the similarity of two indexed unit vectors as nearest finds it:
// the terms in more than maxPosting candidates left out.
func (ix *lmIndex) sim(a, b vsm.Vector) float64 {
	s := 0.0
	i, j := 0, 0
	for i < len(a.Terms) && j < len(b.Terms) {
		switch c := strings.Compare(a.Terms[i], b.Terms[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			if len(ix.index[a.Terms[i]]) <= ix.maxPosting {
				s += a.Weights[i] * b.Weights[j]
			}
			i++
			j++
		}
	}
	return s
}

// seedRow is u's similarity to each seed, negative ones at 0.
func (ix *lmIndex) seedRow(u vsm.Vector) []float64 {
	row := make([]float64, len(ix.seedUnits))
	for j, s := range ix.seedUnits {
		row[j] = math.Max(0, vsm.Dot(u, s))
	}
	return row
}

// row is the row of U and V for the unit vector u among the indexed
// candidates, leaving out candidate self (−1: none): its similarities to
// the seeds and its topK most similar candidates, normalised jointly.
func (ix *lmIndex) row(u vsm.Vector, self int32) ([]float64, []int32, []float64) {
	row := ix.seedRow(u)
	cols, vals := ix.nearest(u, self, nil)
	normaliseRow(row, vals)
	return row, cols, vals
}

// normaliseRow divides a row of U and of V by their joint sum.
func normaliseRow(u, v []float64) {
	sum := 0.0
	for _, x := range u {
		sum += x
	}
	for _, x := range v {
		sum += x
	}
	if sum <= 0 {
		return
	}
	for j := range u {
		u[j] /= sum
	}
	for k := range v {
		v[k] /= sum
	}
}

// nearest returns the topK candidates most similar to the unit vector u
// (leaving out self) and their similarities, unnormalised. offer, when
// not nil, is told every candidate with a positive similarity.
func (ix *lmIndex) nearest(u vsm.Vector, self int32, offer func(j int32, v float64)) ([]int32, []float64) {
	type kept struct {
		col int32
		val float64
	}
	touched := ix.touched[:0]
	for k, t := range u.Terms {
		ps := ix.index[t]
		n := len(ps)
		if ix.full != nil {
			n = len(ix.full.index[t])
		}
		if n > ix.maxPosting {
			continue
		}
		wi := u.Weights[k]
		for _, p := range ps {
			if p.cand == self {
				continue
			}
			if ix.acc[p.cand] == 0 {
				touched = append(touched, p.cand)
			}
			ix.acc[p.cand] += wi * p.w
		}
	}
	ix.touched = touched
	top := make([]kept, 0, ix.topK+1)
	for _, j := range touched {
		v := ix.acc[j]
		ix.acc[j] = 0
		if v <= 0 {
			continue
		}
		if offer != nil {
			offer(j, v)
		}
		if ix.topK <= 0 || len(top) == ix.topK && v <= top[len(top)-1].val {
			continue
		}
		// Insert in descending order; the slice holds at most topK.
		pos := len(top)
		for pos > 0 && top[pos-1].val < v {
			pos--
		}
		top = append(top, kept{})
		copy(top[pos+1:], top[pos:])
		top[pos] = kept{j, v}
		if len(top) > ix.topK {
			top = top[:ix.topK]
		}
	}
	cols := make([]int32, len(top))
	vals := make([]float64, len(top))
	for k, e := range top {
		cols[k], vals[k] = e.col, e.val
	}
	return cols, vals
}

// normaliseSigned scales the positive entries of x to sum to 1 and the
// negative ones to sum to −1.
func normaliseSigned(x []float64) []float64 {
	var pos, neg float64
	for _, v := range x {
		if v > 0 {
			pos += v
		} else {
			neg -= v
		}
	}
	for i, v := range x {
		switch {
		case v > 0:
			x[i] = v / pos
		case v < 0:
			x[i] = v / neg
		}
	}
	return x
}

// Solve iterates X_t(n) = (1 − γ)·U·X_s + γ·V·X_t(n − 1), renormalising
// X_t each round (positives sum to 1, negatives to −1), from start (nil:
// zeros) until the L1 change falls under tol or maxIter rounds. The rows
// of γV sum to less than γ < 1, so it converges from any start.
func (lm *LinkModel) Solve(start []float64, tol float64, maxIter int) ([]float64, int) {
	n := len(lm.U)
	base := make([]float64, n)
	for i, row := range lm.U {
		s := 0.0
		for j, u := range row {
			s += u * lm.Xs[j]
		}
		base[i] = (1 - lm.Gamma) * s
	}
	x := make([]float64, n)
	if len(start) == n {
		copy(x, start)
		normaliseSigned(x)
	}
	next := make([]float64, n)
	iter := 0
	for iter < maxIter {
		iter++
		for i := range next {
			s := 0.0
			for k, c := range lm.VCols[i] {
				s += lm.VVals[i][k] * x[c]
			}
			next[i] = base[i] + lm.Gamma*s
		}
		normaliseSigned(next)
		delta := 0.0
		for i := range x {
			delta += math.Abs(next[i] - x[i])
		}
		x, next = next, x
		if delta < tol {
			break
		}
	}
	return x, iter
}

// norms are the sums that a round from x divides by before its
// renormalisation: of the positive and of the (absolute) negative entries
// of (1 − γ)·U·X_s + γ·V·x.
func (lm *LinkModel) norms(x []float64) (pos, neg float64) {
	for i, row := range lm.U {
		v := 0.0
		for j, u := range row {
			v += u * lm.Xs[j]
		}
		v *= 1 - lm.Gamma
		for k, c := range lm.VCols[i] {
			v += lm.Gamma * lm.VVals[i][k] * x[c]
		}
		if v > 0 {
			pos += v
		} else {
			neg -= v
		}
	}
	return pos, neg
}
