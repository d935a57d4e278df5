package vsm

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func benchTokens(r *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("词%d", int(r.ExpFloat64()*300)) // Zipf-like reuse of terms
	}
	return out
}

// BenchmarkVector: a 400-token page to its TF-IDF vector.
func BenchmarkVector(b *testing.B) {
	tab := Builtin()
	toks := benchTokens(rand.New(rand.NewPCG(1, 1)), 400)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		tab.Vector(toks)
	}
}

// BenchmarkMeasures: cosine, Pearson and Euclid of two page vectors.
func BenchmarkMeasures(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 2))
	tab := Builtin()
	x, y := tab.Vector(benchTokens(r, 400)), tab.Vector(benchTokens(r, 400))
	for _, m := range []struct {
		name string
		f    func(a, b Vector) float64
	}{{"cosine", Cosine}, {"pearson", Pearson}, {"euclid", Euclidean}} {
		b.Run(m.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				m.f(x, y)
			}
		})
	}
}
