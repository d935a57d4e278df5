package scoring

import (
	"math"
	"slices"

	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// Between rebuilds: folding a new or changed candidate into the built
// model, and keeping each candidate's nearest neighbours current.

// foldedRow is what a fold-in found of a candidate's row against the
// built candidates: its nearest, and the kept rows it may enter.
type foldedRow struct {
	cols   []int32
	vals   []float64
	offers []nearOffer
}

type nearOffer struct {
	j int32
	v float64
}

// complete is the candidate's row over every candidate: the folded-in
// nearest among the built ones (less those changed since), merged with
// its nearest among the new and changed ones (delta). Only approximate
// when a changed candidate pushed out of the folded-in nearest one that
// would now be kept.
func (fr *foldedRow) complete(delta *lmIndex, u vsm.Vector, self int32, dirty []bool, topK int) ([]int32, []float64) {
	dc, dv := delta.nearest(u, self, nil)
	type kept struct {
		col int32
		val float64
	}
	all := make([]kept, 0, len(fr.cols)+len(dc))
	for k, c := range fr.cols {
		if !dirty[c] {
			all = append(all, kept{c, fr.vals[k]})
		}
	}
	for k, c := range dc {
		all = append(all, kept{c, dv[k]})
	}
	slices.SortFunc(all, func(a, b kept) int {
		switch {
		case a.val > b.val:
			return -1
		case a.val < b.val:
			return 1
		}
		return int(a.col - b.col)
	})
	all = all[:min(len(all), max(topK, 0))]
	cols := make([]int32, len(all))
	vals := make([]float64, len(all))
	for k, e := range all {
		cols[k], vals[k] = e.col, e.val
	}
	return cols, vals
}

// refresh sets again, in the kept rows, the similarity of every changed
// candidate (dirty and built before) to the row's own candidate: those
// the changed candidate no longer touches were not offered it. A
// similarity that fell to 0 leaves the row.
func (st *lmState) refresh(dirty []bool) {
	for j := range st.nearCols {
		if dirty[j] {
			continue
		}
		cols, vals := st.nearCols[j], st.nearVals[j]
		touched := false
		for k := 0; k < len(cols); k++ {
			if c := cols[k]; int(c) < st.built && dirty[c] {
				vals[k] = st.ix.sim(st.ix.units[c], st.ix.units[j])
				touched = true
			}
		}
		if !touched {
			continue
		}
		kept := 0
		for k := range cols {
			if vals[k] > 0 {
				cols[kept], vals[kept] = cols[k], vals[k]
				kept++
			}
		}
		st.nearCols[j], st.nearVals[j] = cols[:kept], vals[:kept]
		st.nearMin[j] = minOf(st.nearVals[j])
	}
}

// offer puts candidate c, of similarity v, in the kept row of j when it
// is among j's topK nearest: its value updated when it is there already
// (known: c may be), else in place of the least similar.
func (st *lmState) offer(j, c int32, v float64, known bool, topK int) {
	cols, vals := st.nearCols[j], st.nearVals[j]
	if known {
		for k, col := range cols {
			if col == c {
				vals[k] = v
				st.nearMin[j] = minOf(vals)
				return
			}
		}
	}
	switch {
	case topK <= 0:
	case len(cols) < topK:
		st.nearCols[j], st.nearVals[j] = append(cols, c), append(vals, v)
		st.nearMin[j] = minOf(st.nearVals[j])
	case v > st.nearMin[j]:
		least := 0
		for k := range vals {
			if vals[k] < vals[least] {
				least = k
			}
		}
		cols[least], vals[least] = c, v
		st.nearMin[j] = minOf(vals)
	}
}

// minOf is the least of vals (0 for none).
func minOf(vals []float64) float64 {
	if len(vals) == 0 {
		return 0
	}
	m := vals[0]
	for _, v := range vals[1:] {
		m = math.Min(m, v)
	}
	return m
}

// xOf is candidate id's x: the solved one, or folded in.
func (st *lmState) xOf(id int) float64 {
	if id < st.built && !st.changed[id] {
		return st.x[id]
	}
	if v, ok := st.fold[id]; ok {
		return v
	}
	self := int32(-1)
	if id < st.built {
		self = int32(id)
	}
	u := st.vecs[id].Normalize()
	fr := &foldedRow{}
	cols, vals := st.ix.nearest(u, self, func(j int32, v float64) {
		if len(st.nearCols[j]) < st.ix.topK || v > st.nearMin[j] {
			fr.offers = append(fr.offers, nearOffer{j, v})
		}
	})
	fr.cols, fr.vals = cols, slices.Clone(vals)
	st.folded[id] = fr
	urow := st.ix.seedRow(u)
	normaliseRow(urow, vals)
	s := 0.0
	for j, u := range urow {
		s += u * st.lm.Xs[j]
	}
	v := (1 - st.lm.Gamma) * s
	for k, c := range cols {
		v += st.lm.Gamma * vals[k] * st.x[c]
	}
	// On the solved x's scale: Solve renormalises each round, positives
	// to sum 1 and negatives −1.
	switch {
	case v > 0 && st.posNorm > 0:
		v /= st.posNorm
	case v < 0 && st.negNorm > 0:
		v /= st.negNorm
	}
	st.fold[id] = v
	return v
}
