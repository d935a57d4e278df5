package vsm

import (
	"math"
	"slices"
	"strings"
)

// Vector is a sparse term vector. Terms are sorted and unique; Weights[i]
// is the weight of Terms[i]. The zero Vector is the empty vector.
type Vector struct {
	Terms   []string
	Weights []float64
}

// Len is the number of non-zero terms.
func (v Vector) Len() int { return len(v.Terms) }

// Weight returns the weight of term, 0 when absent.
func (v Vector) Weight(term string) float64 {
	i, ok := slices.BinarySearch(v.Terms, term)
	if !ok {
		return 0
	}
	return v.Weights[i]
}

// Norm is the Euclidean length of v.
func (v Vector) Norm() float64 {
	s := 0.0
	for _, w := range v.Weights {
		s += w * w
	}
	return math.Sqrt(s)
}

// Normalize returns v scaled to unit length (v itself when it is empty or
// all zero).
func (v Vector) Normalize() Vector {
	n := v.Norm()
	if n == 0 {
		return v
	}
	out := Vector{Terms: v.Terms, Weights: make([]float64, len(v.Weights))}
	for i, w := range v.Weights {
		out.Weights[i] = w / n
	}
	return out
}

// FromMap builds a vector from term weights, dropping zero weights.
func FromMap(m map[string]float64) Vector {
	v := Vector{Terms: make([]string, 0, len(m))}
	for t, w := range m {
		if w != 0 {
			v.Terms = append(v.Terms, t)
		}
	}
	slices.Sort(v.Terms)
	v.Weights = make([]float64, len(v.Terms))
	for i, t := range v.Terms {
		v.Weights[i] = m[t]
	}
	return v
}

// Map returns the vector's weights as a map.
func (v Vector) Map() map[string]float64 {
	m := make(map[string]float64, len(v.Terms))
	for i, t := range v.Terms {
		m[t] = v.Weights[i]
	}
	return m
}

// Add returns a + k·b.
func Add(a Vector, k float64, b Vector) Vector {
	out := Vector{Terms: make([]string, 0, len(a.Terms)+len(b.Terms)), Weights: make([]float64, 0, len(a.Terms)+len(b.Terms))}
	merge(a, b, func(t string, x, y float64) {
		if w := x + k*y; w != 0 {
			out.Terms = append(out.Terms, t)
			out.Weights = append(out.Weights, w)
		}
	})
	return out
}

// merge calls f for every term of the union of a and b, in term order,
// with the weights of both (0 where absent).
func merge(a, b Vector, f func(term string, x, y float64)) {
	i, j := 0, 0
	for i < len(a.Terms) && j < len(b.Terms) {
		switch c := strings.Compare(a.Terms[i], b.Terms[j]); {
		case c == 0:
			f(a.Terms[i], a.Weights[i], b.Weights[j])
			i++
			j++
		case c < 0:
			f(a.Terms[i], a.Weights[i], 0)
			i++
		default:
			f(b.Terms[j], 0, b.Weights[j])
			j++
		}
	}
	for ; i < len(a.Terms); i++ {
		f(a.Terms[i], a.Weights[i], 0)
	}
	for ; j < len(b.Terms); j++ {
		f(b.Terms[j], 0, b.Weights[j])
	}
}

// Dot is the inner product of a and b.
func Dot(a, b Vector) float64 {
	s := 0.0
	i, j := 0, 0
	for i < len(a.Terms) && j < len(b.Terms) {
		switch c := strings.Compare(a.Terms[i], b.Terms[j]); {
		case c == 0:
			s += a.Weights[i] * b.Weights[j]
			i++
			j++
		case c < 0:
			i++
		default:
			j++
		}
	}
	return s
}

// Cosine is the cosine of the angle between a and b: sim(a, b) of the
// papers. It is 0 when either vector is empty; with non-negative weights
// (TF-IDF) it lies in [0, 1].
func Cosine(a, b Vector) float64 {
	na, nb := a.Norm(), b.Norm()
	if na == 0 || nb == 0 {
		return 0
	}
	return clamp(Dot(a, b)/(na*nb), -1, 1)
}

// Pearson is the Pearson correlation coefficient of a and b taken as two
// samples over the union of their terms (a term absent from one vector is
// a 0 in it), in [-1, 1]. It is 0 when either sample has no variance,
// including when the union has fewer than two terms.
func Pearson(a, b Vector) float64 {
	var n, sx, sy, sxx, syy, sxy float64
	merge(a, b, func(_ string, x, y float64) {
		n++
		sx += x
		sy += y
		sxx += x * x
		syy += y * y
		sxy += x * y
	})
	if n < 2 {
		return 0
	}
	vx := n*sxx - sx*sx
	vy := n*syy - sy*sy
	if vx <= 0 || vy <= 0 {
		return 0
	}
	return clamp((n*sxy-sx*sy)/math.Sqrt(vx*vy), -1, 1)
}

// Euclidean is the Euclidean distance between a and b. Seed 004 compares
// unit-length TF-IDF vectors with it (Normalize first), which puts it in
// [0, 2] and makes it a function of the cosine: d² = 2 − 2·cos.
func Euclidean(a, b Vector) float64 {
	s := 0.0
	merge(a, b, func(_ string, x, y float64) {
		d := x - y
		s += d * d
	})
	return math.Sqrt(s)
}

func clamp(x, lo, hi float64) float64 {
	switch {
	case x < lo:
		return lo
	case x > hi:
		return hi
	}
	return x
}
