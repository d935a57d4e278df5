package pagemodel

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/optimize"
)

// vocab numbers the features seen in training: index 0 is the bias, 1 the
// prior, then one per (group, term).
type vocab struct {
	index [5]map[string]int
	terms []Weighted // by index − 2: group and term
}

func newVocab() *vocab {
	v := &vocab{}
	for i := range v.index {
		v.index[i] = map[string]int{}
	}
	return v
}

// row is one page as sparse features over a vocab, with its prior feature.
type row struct {
	idx   []int32
	val   []float64
	prior float64 // s − c
}

// add returns the page's row, numbering its new features.
func (v *vocab) add(p *Page, center float64, buf []feature) (row, []feature) {
	buf = p.features(buf[:0])
	r := row{idx: make([]int32, 0, len(buf)), val: make([]float64, 0, len(buf)), prior: p.Prior - center}
	for _, f := range buf {
		i, ok := v.index[f.group][f.term]
		if !ok {
			i = len(v.terms) + 2
			v.index[f.group][f.term] = i
			v.terms = append(v.terms, Weighted{Group: Groups[f.group], Term: f.term})
		}
		r.idx = append(r.idx, int32(i))
		r.val = append(r.val, f.value)
	}
	return r, buf
}

// problem is one logistic regression to fit: rows, labels in {0,1} and
// weights, with the regularisation of FitOptions.
type problem struct {
	rows   []row
	y, c   []float64
	dim    int
	lambda float64
	// priorMean and priorVar are a's Gaussian prior, biasVar b's.
	priorMean, priorVar, biasVar float64
}

// FitOptions are the regularisation of a fit.
type FitOptions struct {
	// Lambda is λ, the L2 penalty on the term weights.
	Lambda float64
	// PriorMean and PriorSigma are the Gaussian prior of a, the weight of
	// the profile's score; BiasSigma is the prior's standard deviation of
	// the bias b (centred at 0).
	PriorMean, PriorSigma, BiasSigma float64
}

// z is row i's logit at x.
func (pr *problem) z(x []float64, r *row) float64 {
	z := x[0] + x[1]*r.prior
	for k, i := range r.idx {
		z += x[i] * r.val[k]
	}
	return z
}

// objective returns f(x) and writes ∇f(x) into grad when it is not nil.
func (pr *problem) objective(x, grad []float64) float64 {
	if grad != nil {
		clear(grad)
	}
	f := 0.0
	for n := range pr.rows {
		r := &pr.rows[n]
		z := pr.z(x, r)
		// log(1+e^z) − y·z, stably.
		f += pr.c[n] * (softplus(z) - pr.y[n]*z)
		if grad != nil {
			g := pr.c[n] * (sigmoid(z) - pr.y[n])
			grad[0] += g
			grad[1] += g * r.prior
			for k, i := range r.idx {
				grad[i] += g * r.val[k]
			}
		}
	}
	f += x[0] * x[0] / (2 * pr.biasVar)
	d := x[1] - pr.priorMean
	f += d * d / (2 * pr.priorVar)
	for i := 2; i < pr.dim; i++ {
		f += pr.lambda / 2 * x[i] * x[i]
	}
	if grad != nil {
		grad[0] += x[0] / pr.biasVar
		grad[1] += d / pr.priorVar
		for i := 2; i < pr.dim; i++ {
			grad[i] += pr.lambda * x[i]
		}
	}
	return f
}

func softplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}

// fit minimises the objective with L-BFGS from start (nil: b = 0,
// a = PriorMean, w = 0) and returns x.
func fit(rows []row, y, c []float64, dim int, o FitOptions, start []float64) ([]float64, error) {
	pr := &problem{rows: rows, y: y, c: c, dim: dim, lambda: o.Lambda,
		priorMean: o.PriorMean, priorVar: o.PriorSigma * o.PriorSigma, biasVar: o.BiasSigma * o.BiasSigma}
	x := make([]float64, dim)
	if start != nil {
		copy(x, start)
	} else {
		x[1] = o.PriorMean
	}
	// Func and Grad are asked at the same x in turn: compute both once.
	var lastX, lastG []float64
	var lastF float64
	eval := func(at []float64) {
		if lastX != nil && equal(lastX, at) {
			return
		}
		if lastX == nil {
			lastX, lastG = make([]float64, dim), make([]float64, dim)
		}
		copy(lastX, at)
		lastF = pr.objective(at, lastG)
	}
	p := optimize.Problem{
		Func: func(at []float64) float64 { eval(at); return lastF },
		Grad: func(grad, at []float64) { eval(at); copy(grad, lastG) },
	}
	settings := &optimize.Settings{GradientThreshold: 1e-7, MajorIterations: 1000,
		Converger: &optimize.FunctionConverge{Absolute: 1e-10, Relative: 1e-10, Iterations: 50}}
	res, err := optimize.Minimize(p, x, settings, &optimize.LBFGS{})
	if res == nil {
		return nil, err
	}
	if err != nil && !errors.Is(err, optimize.ErrLinesearcherFailure) && !errors.Is(err, optimize.ErrNoProgress) {
		// A line search that cannot improve any more stands at the
		// minimum as closely as floating point allows.
		return nil, err
	}
	return res.X, nil
}

func equal(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
