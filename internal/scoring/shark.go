package scoring

import "github.com/focuscrawl/focuscrawl/internal/record"

// SharkOptions are Shark-Search's parameters (docs/algorithms.md): δ,
// the decay of the inherited score; β, anchor against context in the
// neighbourhood score; γ, inherited against neighbourhood score.
type SharkOptions struct {
	Delta, Beta, Gamma float64
}

// DefaultSharkOptions are the paper's.
func DefaultSharkOptions() SharkOptions { return SharkOptions{Delta: 0.5, Beta: 0.8, Gamma: 0.5} }

// Params lists δ, β and γ.
func (o *SharkOptions) Params() []Param {
	return []Param{
		{Name: "delta", Usage: "δ, decay of the inherited score", Value: unitParam(&o.Delta)},
		{Name: "beta", Usage: "β, anchor vs context in the neighbourhood score", Value: unitParam(&o.Beta)},
		{Name: "gamma", Usage: "γ, inherited vs neighbourhood score", Value: unitParam(&o.Gamma)},
	}
}

// shark is Hersovici's Shark-Search: a link's priority is its potential
// score, and its children inherit the page's score, decayed.
type shark struct{ o SharkOptions }

func (s shark) rank(pv *pageView, links []record.ScoredLink) {
	inh := pv.inherited(s.o.Delta)
	for i := range links {
		links[i].Priority = pv.potential(i, &s.o)
		links[i].Inherited = inh
	}
}

// bfs is the unfocused baseline: the child is one link deeper than the
// doc, 1/(depth+1).
type bfs struct{}

func (bfs) rank(pv *pageView, links []record.ScoredLink) {
	p := 1 / float64(pv.doc.Depth+2)
	for i := range links {
		links[i].Priority = p
	}
}

// bestFirst gives every link the relevance the page is estimated to have.
type bestFirst struct{}

func (bestFirst) rank(pv *pageView, links []record.ScoredLink) {
	p := pv.estimate()
	for i := range links {
		links[i].Priority = p
	}
}
