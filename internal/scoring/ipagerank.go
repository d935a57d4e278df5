package scoring

import (
	"math"
)

// Graph is a weighted link graph over interned URLs, kept as parallel
// edge arrays so that 100,000 pages with millions of links fit in tens of
// megabytes.
type Graph struct {
	ids  map[string]int32
	URLs []string
	From []int32
	To   []int32
	W    []float64
	// Interest is, per node, the share of its rank a node passes on
	// through its links (missing: 1); see IPageRank.
	Interest []float64
}

// NewGraph returns an empty graph.
func NewGraph() *Graph { return &Graph{ids: map[string]int32{}} }

// Node returns the id of url, adding it when new.
func (g *Graph) Node(url string) int32 {
	if id, ok := g.ids[url]; ok {
		return id
	}
	id := int32(len(g.URLs))
	g.ids[url] = id
	g.URLs = append(g.URLs, url)
	return id
}

// ID returns the id of a URL already in the graph.
func (g *Graph) ID(url string) (int32, bool) {
	id, ok := g.ids[url]
	return id, ok
}

// AddEdge adds a link from → to of weight w (RW of the link).
func (g *Graph) AddEdge(from, to string, w float64) {
	f, t := g.Node(from), g.Node(to)
	g.From = append(g.From, f)
	g.To = append(g.To, t)
	g.W = append(g.W, w)
}

// SetInterest sets the share of its rank that url passes on (0–1).
func (g *Graph) SetInterest(url string, v float64) {
	id := g.Node(url)
	for len(g.Interest) <= int(id) {
		g.Interest = append(g.Interest, 1)
	}
	g.Interest[id] = v
}

// Len is the number of nodes.
func (g *Graph) Len() int { return len(g.URLs) }

// IPageRank computes paper 2's (docs/algorithms.md §3) IPageRank over g:
//
//	IPR(A) = (1 − d) + d · Σ_{T→A} IPR(T) · W(T→A) / Σ_{l out of T} W(l)
//
// a random surfer who follows each link with probability proportional to
// its topic relevance. It iterates from start (nil: all ones) until the
// mean absolute change per node falls under tol, or maxIter rounds, and
// returns the scores and the rounds run. The map is a contraction (factor
// d < 1), so every start vector reaches the same fixed point.
//
// With g.Interest set, a node T passes on only Interest(T) of its rank:
// Σ_{T→A} IPR(T)·Interest(T)·W(T→A)/Σ W; the rest is lost to the random
// jump. The surfer who is not interested in a page does not follow its
// links, so an off-topic page does not hand its rank on evenly.
func IPageRank(g *Graph, d, tol float64, maxIter int, start []float64) ([]float64, int) {
	n := g.Len()
	if n == 0 {
		return nil, 0
	}
	out := make([]float64, n)
	for i, f := range g.From {
		out[f] += g.W[i]
	}
	for i, v := range g.Interest {
		if out[i] > 0 {
			out[i] /= v // a share v of the rank passes: divide by Σ W / v (v = 0: +Inf, nothing passes)
		}
	}
	x := make([]float64, n)
	if len(start) == n {
		copy(x, start)
	} else {
		for i := range x {
			x[i] = 1
		}
	}
	next := make([]float64, n)
	iter := 0
	for iter < maxIter {
		iter++
		for i := range next {
			next[i] = 1 - d
		}
		for i, f := range g.From {
			if out[f] > 0 {
				next[g.To[i]] += d * x[f] * g.W[i] / out[f]
			}
		}
		delta := 0.0
		for i := range x {
			delta += math.Abs(next[i] - x[i])
		}
		x, next = next, x
		if delta/float64(n) < tol {
			break
		}
	}
	return x, iter
}
