package scoring

import "github.com/focuscrawl/focuscrawl/internal/record"

// rankBlockShark is seed 001's block-based Shark-Search, as reconstructed
// in ALGORITHMS.md §2 (the paper lost its formulas in print; the
// parameters are flags with the reconstruction's defaults). For link i in
// block B:
//
//	LB(B)       = Σ_{l in B} anchor(l) / |B|
//	λ(i)        = γ_b·LB(B) + (1−γ_b)·mean score of B's crawled links  (λ = LB(B) when none is crawled)
//	priority(i) = θ·λ(i)·potential(i) + (1−θ)·n′/n
//
// where n′/n is the share of the doc's crawled children that were relevant.
// Noise links (nav, ad and footer blocks, link stop words, ad hosts) have
// λ scaled by NoiseWeight; with BlockNorm λ is relative to the page's best
// block.
//
// The share may be smoothed towards a prior with SharePseudo
// pseudo-children: (n′ + m·prior)/(n + m), the prior alone while n = 0.
// The defaults are the reconstruction's: prior 0.5, m = 0. SharePrior < 0
// takes the page's own score as the prior: in a live crawl the children
// crawled before their parent is scored are mostly its navigation
// targets, and a flat 0.5 for every page without crawled children favours
// fresh, off-topic regions (docs/score.md has the measured harvests).
func rankBlockShark(pv *pageView, links []record.ScoredLink, o *LinkOptions) {
	type blockStat struct {
		anchorSum    float64
		links        int
		siblingSum   float64
		siblingCount int
	}
	blocks := map[int]*blockStat{}
	n, nRel := 0, 0
	for i := range pv.doc.Links {
		l := &pv.doc.Links[i]
		b := blocks[l.Block]
		if b == nil {
			b = &blockStat{}
			blocks[l.Block] = b
		}
		b.anchorSum += pv.anchor(i)
		b.links++
		if s, ok := pv.known[l.URL]; ok {
			b.siblingSum += s
			b.siblingCount++
			n++
			if s >= pv.m.Profile.Thresholds.Page {
				nRel++
			}
		}
	}
	prior := o.SharePrior
	if prior < 0 {
		prior = pv.score
	}
	share := (float64(nRel) + o.SharePseudo*prior) / (float64(n) + o.SharePseudo)
	if n == 0 {
		share = prior
	}
	inh := pv.inherited(o.Delta)
	lambdas := make([]float64, len(links))
	top := 0.0
	for i := range links {
		b := blocks[pv.doc.Links[i].Block]
		lb := b.anchorSum / float64(b.links)
		lambda := lb
		if b.siblingCount > 0 {
			lambda = o.BlockGamma*lb + (1-o.BlockGamma)*b.siblingSum/float64(b.siblingCount)
		}
		if pv.isNoise(i) {
			lambda *= o.NoiseWeight
		}
		lambdas[i] = lambda
		top = max(top, lambda)
	}
	for i := range links {
		lambda := lambdas[i]
		if o.BlockNorm && top > 0 {
			lambda /= top
		}
		links[i].Priority = clamp01(o.Theta*lambda*pv.potential(i, o) + (1-o.Theta)*share)
		links[i].Inherited = inh
	}
}
