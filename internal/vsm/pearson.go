package vsm

import "math"

// PearsonOver is the Pearson correlation coefficient of a and b taken as
// two samples over a vocabulary of n terms: every term of the vocabulary
// is one observation, 0 in a vector that lacks it. n smaller than the
// union of the two vectors' terms counts as that union.
//
// Over the vocabulary, the terms absent from both vectors (nearly all of
// them) are shared zeros, and a page that shares the topic's terms
// correlates positively with it, r close to the cosine. Over the union of
// the two vectors' terms alone (Pearson), each vector is zero on most of
// the other's terms and on-topic pages come out anti-correlated: on
// simweb's forestry crawl the median r of relevant pages is −0.41, so
// max(0, r) is 0 for nearly every page and no page threshold can work.
func PearsonOver(a, b Vector, n int) float64 {
	var union, sx, sy, sxx, syy, sxy float64
	merge(a, b, func(_ string, x, y float64) {
		union++
		sx += x
		sy += y
		sxx += x * x
		syy += y * y
		sxy += x * y
	})
	size := math.Max(float64(n), union)
	if size < 2 {
		return 0
	}
	vx := size*sxx - sx*sx
	vy := size*syy - sy*sy
	if vx <= 0 || vy <= 0 {
		return 0
	}
	return clamp((size*sxy-sx*sy)/math.Sqrt(vx*vy), -1, 1)
}
