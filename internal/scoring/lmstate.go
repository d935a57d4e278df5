package scoring

import (
	"context"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// lmState is linkmodel's state between the windows of a run: the
// candidates (link targets) with their texts and vectors, the crawled
// pages' vectors and verdicts, and the last solved model. A window adds
// its docs' links and pages and tokenises only the candidates whose text
// changed. The model (U, V, the solve) is rebuilt only when the
// candidates grew by a quarter since the last build, so rebuilds cost
// O(N) in all over a crawl; between rebuilds a new or changed candidate
// is folded in: its row of U and V against the built model's candidates,
// x = (1−γ)·U·X_s + γ·V·X_t, one step of the iteration with X_t held.
type lmState struct {
	mu     sync.Mutex
	loaded bool
	ids    map[string]int
	texts  [][]string
	// toks are the tokens of each candidate's texts, appended as a text
	// joins: a candidate is never tokenised again, only weighted again.
	toks [][]string
	// pieceToks remembers the tokens of the texts seen (anchors and
	// contexts repeat from page to page: menus, footers), up to
	// lmPieceCacheMax texts.
	pieceToks map[string][]string
	vecs      []vsm.Vector
	// stale marks the vectors to compute again (their text changed).
	stale []bool
	// changed marks built candidates whose text changed since the build.
	changed map[int]bool
	docVec  map[string]vsm.Vector
	// crawled maps crawled candidates to their page verdict: the labels
	// that calibrate the priorities.
	crawled map[string]bool

	lm *LinkModel
	ix *lmIndex
	// nearCols and nearVals are each built candidate's row of V before
	// normalisation, kept from build to build: a build finds the rows of
	// the new and changed candidates only, and offers each of them to the
	// rows of the candidates it is similar to.
	nearCols [][]int32
	nearVals [][]float64
	// nearMin is the least of nearVals in a full row: most offers stop
	// there.
	nearMin []float64
	// seedSims are each built candidate's similarities to the seeds (a row
	// of U before normalisation), found again for all when the seeds
	// change.
	seedSims  [][]float64
	seedsSeen []vsm.Vector
	x         []float64
	built     int
	// fold caches the folded-in x of candidates since the build (valid
	// until the next build or until the candidate's text changes).
	fold map[int]float64
	// folded keeps what a fold-in found of a candidate's row against the
	// built candidates, for the next build to complete with the
	// candidates new or changed since (instead of finding it again).
	folded map[int]*foldedRow
	// posNorm and negNorm are the sums that Solve's last round divided
	// the positive and negative x by: fold-ins are divided by them too.
	posNorm, negNorm float64
	// sorted is the built model's x, sorted: z's percentiles.
	sorted []float64
	// a, b are the calibration σ(a·z + b) of z.
	a, b float64
}

// lmRebuildGrowth is the growth of the candidate set that triggers a
// rebuild of the model.
const lmRebuildGrowth = 0.25

// lmPageTerms is how many of a crawled page's terms join its candidate's
// description: its heaviest. A page has hundreds of terms, a candidate's
// anchors and contexts a few dozen; finding a row of V costs a posting
// list per term, so the whole page made crawled candidates the bulk of
// the model's cost, for terms too light to change which candidates are
// nearest.
const lmPageTerms = 48

// lmPieceCacheMax bounds lmState.pieceToks; past it the cache starts
// afresh.
const lmPieceCacheMax = 200_000

func (st *lmState) add(m *Model, to, anchor, context string) {
	id, ok := st.ids[to]
	if !ok {
		id = len(st.texts)
		st.ids[to] = id
		st.texts = append(st.texts, nil)
		st.toks = append(st.toks, nil)
		st.vecs = append(st.vecs, vsm.Vector{})
		st.stale = append(st.stale, true)
	}
	for _, t := range []string{anchor, context} {
		if t = strings.TrimSpace(t); t != "" && !containsString(st.texts[id], t) && len(st.texts[id]) < 16 {
			st.texts[id] = append(st.texts[id], t)
			st.toks[id] = append(st.toks[id], st.tokens(m, t)...)
			st.stale[id] = true
			if id < st.built {
				st.changed[id] = true
			}
		}
	}
}

// tokens are the tokens of one text of a candidate, remembered.
func (st *lmState) tokens(m *Model, t string) []string {
	if ts, ok := st.pieceToks[t]; ok {
		return ts
	}
	ts := m.Tok.Tokens(t)
	if len(st.pieceToks) >= lmPieceCacheMax {
		st.pieceToks = map[string][]string{}
	}
	st.pieceToks[t] = ts
	return ts
}

// linkmodel runs seed 003's model over the crawl's candidates: each link
// target, described by the anchors and contexts of the links to it (and
// its own page's text once crawled); the seeds are the profile's examples
// plus the topic vector as a positive seed. Priorities are calibrated
// (calibrate).
func (s *Scorer) linkmodel(ctx context.Context, pages []scoredPage) (func(string) float64, error) {
	s.lmOnce.Do(func() {
		s.lm = &lmState{ids: map[string]int{}, pieceToks: map[string][]string{}, changed: map[int]bool{}, docVec: map[string]vsm.Vector{},
			crawled: map[string]bool{}, fold: map[int]float64{}, folded: map[int]*foldedRow{}}
	})
	st := s.lm
	st.mu.Lock()
	defer st.mu.Unlock()
	o := &s.cfg.Links
	if s.store != nil && !st.loaded {
		err := s.store.Edges(ctx, func(e record.Edge) error {
			st.add(s.m, e.To, e.Anchor, e.Context)
			return ctx.Err()
		})
		if err != nil {
			return nil, err
		}
	}
	st.loaded = true
	for _, sp := range pages {
		if sp.doc.Error != "" {
			continue
		}
		st.docVec[sp.doc.URL] = sp.vec
		st.crawled[sp.doc.URL] = sp.relevant
		if id, ok := st.ids[sp.doc.URL]; ok {
			st.stale[id] = true
			if id < st.built {
				st.changed[id] = true
			}
		}
		for _, l := range sp.doc.Links {
			st.add(s.m, l.URL, l.Anchor, l.Context)
		}
	}
	for u, id := range st.ids {
		if st.stale[id] {
			st.stale[id] = false
			delete(st.fold, id)
			delete(st.folded, id)
			v := s.m.IDF.Vector(st.toks[id])
			if dv, ok := st.docVec[u]; ok {
				v = vsm.Add(v.Normalize(), 1, heaviest(dv, lmPageTerms).Normalize())
			}
			st.vecs[id] = v
		}
	}
	if st.lm == nil || float64(len(st.vecs)) >= float64(st.built)*(1+lmRebuildGrowth) {
		seeds, labels := s.seeds(st.ids, st.vecs, st.docVec)
		st.rebuild(seeds, labels, o)
		start := make([]float64, len(st.vecs)) // the last solution, new candidates at 0
		copy(start, st.x)
		st.x, _ = st.lm.Solve(start, o.Tolerance, o.MaxIter)
		st.posNorm, st.negNorm = st.lm.norms(st.x)
		st.sorted = append(st.sorted[:0], st.x...)
		sort.Float64s(st.sorted)
		st.built = len(st.vecs)
		st.changed = map[int]bool{}
		st.fold = map[int]float64{}
		st.folded = map[int]*foldedRow{}
	}
	st.calibrate()
	return func(u string) float64 {
		id, ok := st.ids[u]
		if !ok {
			return sigmoid(st.b)
		}
		return sigmoid(st.a*st.z(id) + st.b)
	}, ctx.Err()
}

// rebuild builds the model over every candidate: the rows of V of the
// candidates new or changed since the last build are found afresh (the
// changed ones indexed again), and each of them enters the kept rows of
// the others it is similar to, in place of their least similar
// neighbour. A kept row is thus the same as one found afresh, except
// that a changed candidate's similarity is updated only in the rows it
// still touches, and a term that grew past maxPosting candidates still
// counts in the rows found before. U is found afresh (the seeds can
// change: an example page crawled), and every row normalised.
func (st *lmState) rebuild(seeds []vsm.Vector, labels []float64, o *LinkOptions) {
	n := len(st.vecs)
	if st.ix == nil {
		st.ix = newLMIndex(nil, seeds, o.TopK, o.MaxPosting)
	}
	seedsChanged := !sameVectors(seeds, st.seedsSeen)
	if seedsChanged {
		st.seedsSeen = seeds
		st.ix.seedUnits = st.ix.seedUnits[:0]
		for _, sd := range seeds {
			st.ix.seedUnits = append(st.ix.seedUnits, sd.Normalize())
		}
	}
	dirty := make([]bool, n)
	var order []int32
	for id := range st.changed {
		order = append(order, int32(id))
	}
	slices.Sort(order) // map order would make the rows depend on the run
	for id := st.built; id < n; id++ {
		order = append(order, int32(id))
	}
	for _, id := range order {
		dirty[id] = true
		st.ix.set(id, st.vecs[id].Normalize())
	}
	for len(st.nearCols) < n {
		st.nearCols = append(st.nearCols, nil)
		st.nearVals = append(st.nearVals, nil)
		st.nearMin = append(st.nearMin, 0)
		st.seedSims = append(st.seedSims, nil)
	}
	// The new and changed candidates alone, for completing the rows
	// folded in since the last build.
	delta := &lmIndex{index: map[string][]posting{}, topK: o.TopK, maxPosting: o.MaxPosting, acc: st.ix.acc, full: st.ix}
	for _, id := range order {
		u := st.ix.units[id]
		for k, t := range u.Terms {
			delta.index[t] = append(delta.index[t], posting{id, u.Weights[k]})
		}
	}
	for _, c := range order {
		known := int(c) < st.built // may sit in the kept rows already
		if fr := st.folded[int(c)]; fr != nil {
			st.nearCols[c], st.nearVals[c] = fr.complete(delta, st.ix.units[c], c, dirty, o.TopK)
			for _, of := range fr.offers {
				if !dirty[of.j] {
					st.offer(of.j, c, of.v, known, o.TopK)
				}
			}
		} else {
			st.nearCols[c], st.nearVals[c] = st.ix.nearest(st.ix.units[c], c, func(j int32, v float64) {
				if !dirty[j] {
					st.offer(j, c, v, known, o.TopK)
				}
			})
		}
		st.nearMin[c] = minOf(st.nearVals[c])
	}
	if len(st.changed) > 0 {
		st.refresh(dirty)
	}
	lm := &LinkModel{U: make([][]float64, n), VCols: make([][]int32, n), VVals: make([][]float64, n),
		Gamma: o.LinkGamma, Xs: normaliseSigned(labels)}
	for i := range n {
		if seedsChanged || dirty[i] {
			st.seedSims[i] = st.ix.seedRow(st.ix.units[i])
		}
		lm.U[i] = append([]float64(nil), st.seedSims[i]...)
		lm.VCols[i] = st.nearCols[i]
		lm.VVals[i] = append([]float64(nil), st.nearVals[i]...)
		normaliseRow(lm.U[i], lm.VVals[i])
	}
	st.lm = lm
}

// foldedRow is what a fold-in found of a candidate's row against the
// built candidates: its nearest, and the kept rows it may enter.
type foldedRow struct {
	cols   []int32
	vals   []float64
	offers []nearOffer
}

type nearOffer struct {
	j int32
	v float64
}

// complete is the candidate's row over every candidate: the folded-in
// nearest among the built ones (less those changed since), merged with
// its nearest among the new and changed ones (delta). Only approximate
// when a changed candidate pushed out of the folded-in nearest one that
// would now be kept.
func (fr *foldedRow) complete(delta *lmIndex, u vsm.Vector, self int32, dirty []bool, topK int) ([]int32, []float64) {
	dc, dv := delta.nearest(u, self, nil)
	type kept struct {
		col int32
		val float64
	}
	all := make([]kept, 0, len(fr.cols)+len(dc))
	for k, c := range fr.cols {
		if !dirty[c] {
			all = append(all, kept{c, fr.vals[k]})
		}
	}
	for k, c := range dc {
		all = append(all, kept{c, dv[k]})
	}
	slices.SortFunc(all, func(a, b kept) int {
		switch {
		case a.val > b.val:
			return -1
		case a.val < b.val:
			return 1
		}
		return int(a.col - b.col)
	})
	all = all[:min(len(all), max(topK, 0))]
	cols := make([]int32, len(all))
	vals := make([]float64, len(all))
	for k, e := range all {
		cols[k], vals[k] = e.col, e.val
	}
	return cols, vals
}

// refresh sets again, in the kept rows, the similarity of every changed
// candidate (dirty and built before) to the row's own candidate: those
// the changed candidate no longer touches were not offered it. A
// similarity that fell to 0 leaves the row.
func (st *lmState) refresh(dirty []bool) {
	for j := range st.nearCols {
		if dirty[j] {
			continue
		}
		cols, vals := st.nearCols[j], st.nearVals[j]
		touched := false
		for k := 0; k < len(cols); k++ {
			if c := cols[k]; int(c) < st.built && dirty[c] {
				vals[k] = st.ix.sim(st.ix.units[c], st.ix.units[j])
				touched = true
			}
		}
		if !touched {
			continue
		}
		kept := 0
		for k := range cols {
			if vals[k] > 0 {
				cols[kept], vals[kept] = cols[k], vals[k]
				kept++
			}
		}
		st.nearCols[j], st.nearVals[j] = cols[:kept], vals[:kept]
		st.nearMin[j] = minOf(st.nearVals[j])
	}
}

// offer puts candidate c, of similarity v, in the kept row of j when it
// is among j's topK nearest: its value updated when it is there already
// (known: c may be), else in place of the least similar.
func (st *lmState) offer(j, c int32, v float64, known bool, topK int) {
	cols, vals := st.nearCols[j], st.nearVals[j]
	if known {
		for k, col := range cols {
			if col == c {
				vals[k] = v
				st.nearMin[j] = minOf(vals)
				return
			}
		}
	}
	switch {
	case topK <= 0:
	case len(cols) < topK:
		st.nearCols[j], st.nearVals[j] = append(cols, c), append(vals, v)
		st.nearMin[j] = minOf(st.nearVals[j])
	case v > st.nearMin[j]:
		least := 0
		for k := range vals {
			if vals[k] < vals[least] {
				least = k
			}
		}
		cols[least], vals[least] = c, v
		st.nearMin[j] = minOf(vals)
	}
}

// minOf is the least of vals (0 for none).
func minOf(vals []float64) float64 {
	if len(vals) == 0 {
		return 0
	}
	m := vals[0]
	for _, v := range vals[1:] {
		m = math.Min(m, v)
	}
	return m
}

// sameVectors reports whether a and b hold the same vectors.
func sameVectors(a, b []vsm.Vector) bool {
	return slices.EqualFunc(a, b, func(x, y vsm.Vector) bool {
		return slices.Equal(x.Terms, y.Terms) && slices.Equal(x.Weights, y.Weights)
	})
}

// xOf is candidate id's x: the solved one, or folded in.
func (st *lmState) xOf(id int) float64 {
	if id < st.built && !st.changed[id] {
		return st.x[id]
	}
	if v, ok := st.fold[id]; ok {
		return v
	}
	self := int32(-1)
	if id < st.built {
		self = int32(id)
	}
	u := st.vecs[id].Normalize()
	fr := &foldedRow{}
	cols, vals := st.ix.nearest(u, self, func(j int32, v float64) {
		if len(st.nearCols[j]) < st.ix.topK || v > st.nearMin[j] {
			fr.offers = append(fr.offers, nearOffer{j, v})
		}
	})
	fr.cols, fr.vals = cols, slices.Clone(vals)
	st.folded[id] = fr
	urow := st.ix.seedRow(u)
	normaliseRow(urow, vals)
	s := 0.0
	for j, u := range urow {
		s += u * st.lm.Xs[j]
	}
	v := (1 - st.lm.Gamma) * s
	for k, c := range cols {
		v += st.lm.Gamma * vals[k] * st.x[c]
	}
	// On the solved x's scale: Solve renormalises each round, positives
	// to sum 1 and negatives −1.
	switch {
	case v > 0 && st.posNorm > 0:
		v /= st.posNorm
	case v < 0 && st.negNorm > 0:
		v /= st.negNorm
	}
	st.fold[id] = v
	return v
}

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

// heaviest is v cut to its n heaviest terms (terms kept in order).
func heaviest(v vsm.Vector, n int) vsm.Vector {
	if v.Len() <= n {
		return v
	}
	idx := make([]int, v.Len())
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return v.Weights[idx[a]] > v.Weights[idx[b]] })
	idx = idx[:n]
	sort.Ints(idx)
	out := vsm.Vector{Terms: make([]string, n), Weights: make([]float64, n)}
	for k, i := range idx {
		out.Terms[k], out.Weights[k] = v.Terms[i], v.Weights[i]
	}
	return out
}
