package vsm

import (
	"math"
	"testing"
)

func TestPearsonOver(t *testing.T) {
	topic := Vector{Terms: []string{"林业", "森林", "造林"}, Weights: []float64{0.6, 0.6, 0.52}}
	page := Vector{Terms: []string{"公告", "森林", "造林"}, Weights: []float64{0.5, 0.7, 0.5}}
	other := Vector{Terms: []string{"公告", "股票"}, Weights: []float64{0.7, 0.7}}
	// Over the union of terms, a page sharing two of three topic terms is
	// anti-correlated with it; over a vocabulary it is not.
	if r := Pearson(page, topic); r >= 0 {
		t.Fatalf("union Pearson %v: the test's premise changed", r)
	}
	r := PearsonOver(page, topic, 100000)
	if cos := Cosine(page, topic); r <= 0 || math.Abs(r-cos) > 0.01 {
		t.Fatalf("PearsonOver = %v, want close to the cosine %v over a large vocabulary", r, cos)
	}
	if o := PearsonOver(other, topic, 100000); o >= r {
		t.Fatalf("a page without topic terms correlates %v >= %v", o, r)
	}
	// A vocabulary smaller than the union counts as the union.
	if got, want := PearsonOver(page, topic, 1), Pearson(page, topic); math.Abs(got-want) > 1e-12 {
		t.Fatalf("n below the union: %v, want %v", got, want)
	}
	if got := PearsonOver(Vector{}, topic, 10); got != 0 {
		t.Fatalf("empty vector: %v", got)
	}
}
