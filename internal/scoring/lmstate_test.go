package scoring

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// TestLMRebuildKeepsRows checks the incremental build: rows of V kept
// from an earlier build and updated by the candidates that arrived since
// are the rows a build from scratch finds (no candidate changed, no term
// past maxPosting), and a changed candidate is found again.
func TestLMRebuildKeepsRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	vec := func() vsm.Vector {
		m := map[string]float64{}
		for range 6 {
			m[fmt.Sprintf("t%02d", r.IntN(40))] = 0.1 + r.Float64()
		}
		return vsm.FromMap(m)
	}
	o := DefaultLinkModelOptions()
	o.TopK, o.MaxPosting = 4, 1_000_000
	seeds := []vsm.Vector{vec()}
	labels := []float64{1}
	st := &lmState{changed: map[int]bool{}, fold: map[int]float64{}, folded: map[int]*foldedRow{}}
	for range 30 {
		st.vecs = append(st.vecs, vec())
	}
	st.rebuild(seeds, labels, &o)
	st.built = len(st.vecs)
	for range 50 {
		st.vecs = append(st.vecs, vec())
	}
	// Half the new ones folded in before the build: the build completes
	// their rows instead of finding them again.
	st.x = make([]float64, st.built)
	for id := 30; id < 55; id++ {
		st.xOf(id)
	}
	st.rebuild(seeds, labels, &o)
	st.built = len(st.vecs)
	fresh := NewLinkModel(st.vecs, seeds, labels, o.Gamma, o.TopK, o.MaxPosting)
	for i := range st.vecs {
		if got, want := sortedRow(st.lm.VCols[i], st.lm.VVals[i]), sortedRow(fresh.VCols[i], fresh.VVals[i]); got != want {
			t.Errorf("row %d: kept %s, from scratch %s", i, got, want)
		}
	}

	if len(st.folded) != 25 {
		t.Fatalf("%d rows folded in, want 25", len(st.folded))
	}
	st.folded = map[int]*foldedRow{}

	// A changed candidate: its row found again, its similarity in the
	// other kept rows set again (or gone).
	for _, c := range []int{7, 45} {
		st.vecs[c] = vec()
		st.changed[c] = true
	}
	st.rebuild(seeds, labels, &o)
	fresh = NewLinkModel(st.vecs, seeds, labels, o.Gamma, o.TopK, o.MaxPosting)
	for _, c := range []int{7, 45} {
		if got, want := sortedRow(st.lm.VCols[c], st.lm.VVals[c]), sortedRow(fresh.VCols[c], fresh.VVals[c]); got != want {
			t.Errorf("changed row %d: %s, from scratch %s", c, got, want)
		}
	}
	for j := range st.vecs {
		for k, c := range st.nearCols[j] {
			if got, want := st.nearVals[j][k], vsm.Dot(st.vecs[c].Normalize(), st.vecs[j].Normalize()); math.Abs(got-want) > 1e-12 {
				t.Errorf("row %d keeps %d at %.6f, similarity now %.6f", j, c, got, want)
			}
		}
	}
}

// sortedRow prints a row of V by column, for comparing rows found in
// different orders.
func sortedRow(cols []int32, vals []float64) string {
	idx := make([]int, len(cols))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return int(cols[a] - cols[b]) })
	s := ""
	for _, i := range idx {
		s += fmt.Sprintf("%d:%.9f ", cols[i], vals[i])
	}
	return s
}
