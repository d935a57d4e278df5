package scoring

import (
	"context"
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

// LinkModelOptions are linkmodel's parameters: γ, the weight of the
// candidates' own neighbourhood; the k of the top-k rows of V; the
// longest posting list the inverted index follows (terms in more
// candidates say little and cost quadratically); and the tolerance (L1
// change) and iteration cap of the solve.
type LinkModelOptions struct {
	Gamma      float64
	TopK       int
	MaxPosting int
	Tolerance  float64
	MaxIter    int
}

// DefaultLinkModelOptions are paper 3's γ and a top-10 V.
func DefaultLinkModelOptions() LinkModelOptions {
	return LinkModelOptions{Gamma: 0.68, TopK: 10, MaxPosting: 300, Tolerance: 1e-6, MaxIter: 200}
}

// Params lists γ, k, the posting cap, the tolerance and the cap.
func (o *LinkModelOptions) Params() []Param {
	return []Param{
		{Name: "lm-gamma", Usage: "γ", Value: contractionParam(&o.Gamma)},
		{Name: "top-k", Usage: "k, entries kept per row of V", Value: intValue{&o.TopK, 1}},
		{Name: "max-posting", Usage: "skip terms found in more candidates than this", Value: intValue{&o.MaxPosting, 1}},
		toleranceParam(&o.Tolerance),
		maxIterParam(&o.MaxIter),
	}
}

// linkmodel is paper 3's (docs/algorithms.md §4) link model over the
// crawl's candidates, its state grown window by window.
type linkmodel struct {
	env strategyEnv
	o   LinkModelOptions
	st  *lmState
}

func newLinkModel(env strategyEnv, o LinkModelOptions) *linkmodel {
	return &linkmodel{env: env, o: o, st: &lmState{ids: map[string]int{}, pieceToks: map[string][]string{}, changed: map[int]bool{},
		docVec: map[string]vsm.Vector{}, crawled: map[string]bool{}, fold: map[int]float64{}, folded: map[int]*foldedRow{}}}
}

func (lm *linkmodel) rankGroup(ctx context.Context, pages []scoredPage, out []record.ScoredDoc) error {
	prio, err := lm.solve(ctx, pages)
	if err != nil {
		return err
	}
	setPriorities(pages, out, prio)
	return nil
}

// solve runs the model over the crawl's candidates: each link target,
// described by the anchors and contexts of the links to it (and its own
// page's text once crawled); the seeds are the profile's examples plus
// the topic vector as a positive seed. Priorities are calibrated
// (calibrate).
func (lm *linkmodel) solve(ctx context.Context, pages []scoredPage) (func(string) float64, error) {
	st, m, o := lm.st, lm.env.m, &lm.o
	st.mu.Lock()
	defer st.mu.Unlock()
	if lm.env.store != nil && !st.loaded {
		err := lm.env.store.Edges(ctx, func(e record.Edge) error {
			st.add(m, e.To, e.Anchor, e.Context)
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
			st.add(m, l.URL, l.Anchor, l.Context)
		}
	}
	for u, id := range st.ids {
		if st.stale[id] {
			st.stale[id] = false
			delete(st.fold, id)
			delete(st.folded, id)
			v := m.IDF.Vector(st.toks[id])
			if dv, ok := st.docVec[u]; ok {
				v = vsm.Add(v.Normalize(), 1, heaviest(dv, lmPageTerms).Normalize())
			}
			st.vecs[id] = v
		}
	}
	if st.lm == nil || float64(len(st.vecs)) >= float64(st.built)*(1+lmRebuildGrowth) {
		seeds, labels := m.seeds(st.ids, st.vecs, st.docVec)
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
func (st *lmState) rebuild(seeds []vsm.Vector, labels []float64, o *LinkModelOptions) {
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
		Gamma: o.Gamma, Xs: normaliseSigned(labels)}
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

// sameVectors reports whether a and b hold the same vectors.
func sameVectors(a, b []vsm.Vector) bool {
	return slices.EqualFunc(a, b, func(x, y vsm.Vector) bool {
		return slices.Equal(x.Terms, y.Terms) && slices.Equal(x.Weights, y.Weights)
	})
}

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
