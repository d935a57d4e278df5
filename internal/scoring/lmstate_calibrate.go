package scoring

import (
	"math"
	"sort"
)

// Turning a candidate's x into a priority: its percentile z and the Platt
// fit of σ(a·z + b) to the crawl's verdicts.

// z is candidate id's x as a percentile among the built model's
// candidates (ties at their middle), in [0, 1]. x itself is concentrated
// near 0 with a few large values (the seeds' neighbours), so a map of x
// or x/max|x| squeezes almost every candidate together; percentiles keep
// the model's order and spread it evenly, the same way from window to
// window.
func (st *lmState) z(id int) float64 {
	n := len(st.sorted)
	if n == 0 {
		return 0.5
	}
	v := st.xOf(id)
	lo := sort.SearchFloat64s(st.sorted, v)
	hi := lo + sort.Search(n-lo, func(i int) bool { return st.sorted[lo+i] > v })
	return (float64(lo) + float64(hi-lo)/2) / float64(n)
}

// calibrate fits the priority σ(a·z + b) to the crawl's verdicts (Platt
// scaling), z the candidate's percentile: the crawled candidates,
// labelled by their page's relevance, plus two pseudo-pages, a relevant
// one at z = 1 and an irrelevant one at z = 0, so that before the crawl has verdicts of both kinds the
// priority still rises with x; a ridge on a keeps the fit finite when the
// verdicts separate. The priority is then the estimated chance that the
// target is relevant: thresholds.link means the same as for the other
// strategies (a link under it is a poor bet), and the frontier orders
// links by it. x alone squeezes around 0.5 — (1 + x/max|x|)/2 put
// relevant targets at 0.514 and others at 0.500 on simweb.
func (st *lmState) calibrate() {
	zs := []float64{1, 0}
	ys := []float64{1, 0}
	for u, rel := range st.crawled {
		id, ok := st.ids[u]
		if !ok {
			continue
		}
		zs = append(zs, st.z(id))
		if rel {
			ys = append(ys, 1)
		} else {
			ys = append(ys, 0)
		}
	}
	st.a, st.b = plattFit(zs, ys, 1)
}

// plattFit fits p = σ(a·z + b) to labels y ∈ {0,1} by Newton's method on
// the log loss plus ridge·a²/2.
func plattFit(zs, ys []float64, ridge float64) (a, b float64) {
	a, b = 1, 0
	for iter := 0; iter < 50; iter++ {
		var ga, gb, haa, hab, hbb float64
		for i, z := range zs {
			p := sigmoid(a*z + b)
			r := p - ys[i]
			w := math.Max(p*(1-p), 1e-9)
			ga += r * z
			gb += r
			haa += w * z * z
			hab += w * z
			hbb += w
		}
		ga += ridge * a
		haa += ridge
		hbb += 1e-9
		det := haa*hbb - hab*hab
		if det <= 0 {
			break
		}
		da := (hbb*ga - hab*gb) / det
		db := (haa*gb - hab*ga) / det
		a -= da
		b -= db
		if math.Abs(da)+math.Abs(db) < 1e-9 {
			break
		}
	}
	return a, b
}

func sigmoid(v float64) float64 { return 1 / (1 + math.Exp(-v)) }
