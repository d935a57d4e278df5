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
// where n′/n is the share of the doc's crawled children that were relevant
// (0.5 while none is crawled). Noise links (nav, ad and footer blocks,
// link stop words, ad hosts) have λ scaled by NoiseWeight.
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
	share := 0.5
	if n > 0 {
		share = float64(nRel) / float64(n)
	}
	inh := pv.inherited(o.Delta)
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
		links[i].Priority = clamp01(o.Theta*lambda*pv.potential(i, o) + (1-o.Theta)*share)
		links[i].Inherited = inh
	}
}
