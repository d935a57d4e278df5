package pagemodel

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Example is a labelled page.
type Example struct {
	Page     Page
	Relevant bool
}

// Options configure Train.
type Options struct {
	FitOptions
	// Topic and Tokenization are recorded in the model.
	Topic        string
	Tokenization Tokenization
	// Prior says how the pages' Prior was computed; its Center is the
	// profile's page threshold (Weight, Mean and Sigma are set here).
	Prior Prior
	// Threshold is the probability at or above which a page is relevant
	// (0: 0.5).
	Threshold float64
	// Rounds is the most self-training rounds (0: none); PseudoWeight a
	// pseudo-label's weight against a label's; MaxPseudoShare the largest
	// share of the pool labelled in the last round.
	Rounds         int
	PseudoWeight   float64
	MaxPseudoShare float64
	// Sources are recorded in the model.
	Sources []string
}

// DefaultOptions are score train's defaults (docs/score.md, "Page
// models", says how they were chosen).
func DefaultOptions() Options {
	return Options{
		FitOptions: FitOptions{Lambda: 0.1, PriorMean: 4, PriorSigma: 2, BiasSigma: 4},
		Threshold:  0.5, Rounds: 4, PseudoWeight: 0.2, MaxPseudoShare: 0.8,
	}
}

// ErrOneClass says the labelled pages are all of one kind.
var ErrOneClass = errors.New("a page model needs relevant and irrelevant examples")

// Trainer is a training set made ready: its pages numbered over one
// vocabulary, so that cross-validation and self-training refit without
// building the features again.
type Trainer struct {
	o       Options
	v       *vocab
	labeled []row
	y       []float64
	pool    []row
	pos     int
}

// NewTrainer prepares the labelled examples and the unlabelled pool.
func NewTrainer(labelled []Example, unlabelled []Page, o Options) (*Trainer, error) {
	if o.Threshold == 0 {
		o.Threshold = 0.5
	}
	t := &Trainer{o: o, v: newVocab()}
	var buf []feature
	for i := range labelled {
		var r row
		r, buf = t.v.add(&labelled[i].Page, o.Prior.Center, buf)
		t.labeled = append(t.labeled, r)
		y := 0.0
		if labelled[i].Relevant {
			y = 1
			t.pos++
		}
		t.y = append(t.y, y)
	}
	if t.pos == 0 || t.pos == len(labelled) {
		return nil, fmt.Errorf("%w: %d relevant, %d irrelevant", ErrOneClass, t.pos, len(labelled)-t.pos)
	}
	for i := range unlabelled {
		var r row
		r, buf = t.v.add(&unlabelled[i], o.Prior.Center, buf)
		t.pool = append(t.pool, r)
	}
	return t, nil
}

// dim is the number of parameters: bias, prior, one per feature.
func (t *Trainer) dim() int { return len(t.v.terms) + 2 }

// fitLabelled fits the labelled rows whose mask is true, plus pseudo.
func (t *Trainer) fitRows(rows []row, y, c []float64, start []float64) ([]float64, error) {
	return fit(rows, y, c, t.dim(), t.o.FitOptions, start)
}

// Train fits the model: the labelled pages, then self-training rounds on
// the pool, then a cross-validation of the labelled pages.
func (t *Trainer) Train() (*Model, error) {
	ones := make([]float64, len(t.labeled))
	for i := range ones {
		ones[i] = 1
	}
	x, err := t.fitRows(t.labeled, t.y, ones, nil)
	if err != nil {
		return nil, err
	}
	tr := Training{Positive: t.pos, Negative: len(t.labeled) - t.pos, Unlabelled: len(t.pool),
		Lambda: t.o.Lambda, PseudoWeight: t.o.PseudoWeight, Sources: t.o.Sources}
	if len(t.pool) > 0 && t.o.Rounds > 0 {
		x, tr.Rounds, tr.Pseudo, tr.Stop = t.selfTrain(x, ones)
	}
	m := t.model(x, tr)
	m.Training.CV = t.crossValidate()
	return m, nil
}

// selfTrain runs the self-training rounds from the labelled fit x0. Each
// round scores the pool, estimates the relevant share π of the pool as the
// mean probability, labels the share k·π of the pool with the highest
// probabilities relevant and k·(1−π) with the lowest irrelevant (k grows
// round by round up to MaxPseudoShare, so the surest pages teach first),
// and refits the labels with those pseudo-labels at PseudoWeight each,
// from the last round's fit. A round after which a labelled page would be
// misjudged that the labelled fit judged right is drift: it is dropped and
// self-training stops there.
func (t *Trainer) selfTrain(x0, ones []float64) (x []float64, rounds int, pseudo [2]int, stop string) {
	x = x0
	right := t.judgedRight(x0)
	probs := make([]float64, len(t.pool))
	order := make([]int, len(t.pool))
	for round := 1; round <= t.o.Rounds; round++ {
		mean := 0.0
		for i := range t.pool {
			probs[i] = sigmoid(t.zAt(x, &t.pool[i]))
			mean += probs[i]
			order[i] = i
		}
		pi := math.Min(0.95, math.Max(0.05, mean/float64(len(t.pool))))
		sort.SliceStable(order, func(a, b int) bool { return probs[order[a]] > probs[order[b]] })
		k := t.o.MaxPseudoShare * float64(round) / float64(t.o.Rounds)
		nPos := int(math.Round(k * pi * float64(len(t.pool))))
		nNeg := int(math.Round(k * (1 - pi) * float64(len(t.pool))))
		rows := append([]row(nil), t.labeled...)
		y := append([]float64(nil), t.y...)
		c := append([]float64(nil), ones...)
		var np, nn int
		for _, i := range order[:nPos] {
			if probs[i] >= t.o.Threshold {
				rows, y, c = append(rows, t.pool[i]), append(y, 1), append(c, t.o.PseudoWeight)
				np++
			}
		}
		for j := len(order) - 1; j >= len(order)-nNeg; j-- {
			if i := order[j]; probs[i] < t.o.Threshold {
				rows, y, c = append(rows, t.pool[i]), append(y, 0), append(c, t.o.PseudoWeight)
				nn++
			}
		}
		next, err := t.fitRows(rows, y, c, x)
		if err != nil {
			return x, rounds, pseudo, "fit failed: " + err.Error()
		}
		if !subset(right, t.judgedRight(next)) {
			return x, rounds, pseudo, fmt.Sprintf("round %d would misjudge a labelled page (drift): kept round %d", round, round-1)
		}
		x, rounds, pseudo = next, round, [2]int{np, nn}
	}
	return x, rounds, pseudo, "all rounds"
}

// zAt is a row's logit at x.
func (t *Trainer) zAt(x []float64, r *row) float64 {
	z := x[0] + x[1]*r.prior
	for k, i := range r.idx {
		z += x[i] * r.val[k]
	}
	return z
}

// judgedRight lists which labelled pages x judges right.
func (t *Trainer) judgedRight(x []float64) []bool {
	out := make([]bool, len(t.labeled))
	for i := range t.labeled {
		p := sigmoid(t.zAt(x, &t.labeled[i]))
		out[i] = (p >= t.o.Threshold) == (t.y[i] == 1)
	}
	return out
}

// subset reports whether every true of a is true in b.
func subset(a, b []bool) bool {
	for i := range a {
		if a[i] && !b[i] {
			return false
		}
	}
	return true
}

// model makes the Model of parameters x.
func (t *Trainer) model(x []float64, tr Training) *Model {
	m := &Model{Format: Format, Version: Version, Topic: t.o.Topic, Tokenization: t.o.Tokenization,
		Threshold: t.o.Threshold, Bias: x[0], Prior: t.o.Prior, Weights: map[string]map[string]float64{}}
	m.Prior.Weight, m.Prior.Mean, m.Prior.Sigma = x[1], t.o.PriorMean, t.o.PriorSigma
	for i, w := range x[2:] {
		if math.Abs(w) < 1e-6 {
			continue
		}
		f := t.v.terms[i]
		if m.Weights[f.Group] == nil {
			m.Weights[f.Group] = map[string]float64{}
		}
		m.Weights[f.Group][f.Term] = round6(w)
		tr.Features++
	}
	m.Training = tr
	if err := m.index(); err != nil {
		panic(err) // the groups are Groups' own
	}
	return m
}

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// crossValidate judges each labelled page by a model fitted without it
// (leave-one-out up to 30 pages, else 5 folds by a fixed stride), on the
// labels alone.
func (t *Trainer) crossValidate() CV {
	n := len(t.labeled)
	folds, method := n, "leave-one-out"
	if n > 30 {
		folds, method = 5, "5-fold"
	}
	probs := make([]float64, n)
	priors := make([]float64, n)
	// Folds by stride over the pages sorted by label, so every fold
	// holds both kinds in their proportion.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return t.y[order[a]] > t.y[order[b]] })
	fold := make([]int, n)
	for k, i := range order {
		fold[i] = k % folds
	}
	for f := 0; f < folds; f++ {
		var rows []row
		var y, c []float64
		for i := range t.labeled {
			if fold[i] != f {
				rows, y, c = append(rows, t.labeled[i]), append(y, t.y[i]), append(c, 1)
			}
		}
		x, err := t.fitRows(rows, y, c, nil)
		for i := range t.labeled {
			if fold[i] != f {
				continue
			}
			priors[i] = t.labeled[i].prior
			if err != nil || !hasBoth(y) {
				probs[i] = sigmoid(t.o.PriorMean * t.labeled[i].prior)
				continue
			}
			probs[i] = sigmoid(t.zAt(x, &t.labeled[i]))
		}
	}
	cv := CV{Method: method, Folds: folds, AUC: AUC(probs, t.y), PriorAUC: AUC(priors, t.y)}
	var tp, fp, fn, right int
	for i, p := range probs {
		rel, truth := p >= t.o.Threshold, t.y[i] == 1
		switch {
		case rel && truth:
			tp++
		case rel:
			fp++
		case truth:
			fn++
		}
		if rel == truth {
			right++
		}
	}
	cv.Accuracy = float64(right) / float64(n)
	if tp+fp > 0 {
		cv.Precision = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		cv.Recall = float64(tp) / float64(tp+fn)
	}
	return cv
}

func hasBoth(y []float64) bool {
	var pos, neg bool
	for _, v := range y {
		pos, neg = pos || v == 1, neg || v == 0
	}
	return pos && neg
}

// AUC is the probability that a relevant item scores above an irrelevant
// one (ties count one half): the Mann–Whitney statistic over ranks.
func AUC(scores, y []float64) float64 {
	n := len(scores)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return scores[idx[a]] < scores[idx[b]] })
	rankSum, pos := 0.0, 0
	for i := 0; i < n; {
		j := i
		for j < n && scores[idx[j]] == scores[idx[i]] {
			j++
		}
		mid := float64(i+j+1) / 2 // ranks i+1 … j, their mean
		for k := i; k < j; k++ {
			if y[idx[k]] == 1 {
				rankSum += mid
				pos++
			}
		}
		i = j
	}
	neg := n - pos
	if pos == 0 || neg == 0 {
		return math.NaN()
	}
	return (rankSum - float64(pos*(pos+1))/2) / float64(pos*neg)
}
