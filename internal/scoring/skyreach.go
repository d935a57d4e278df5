package scoring

import (
	"context"
	"math"
	"sort"
	"sync"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// IPageRankOptions are ipagerank's parameters: RW of a link as the
// heuristic strategy has it (RWMin, c) with RWFloor the least weight of a
// link in the surfer's choice; the damping d, the tolerance (mean change
// per node) and the iteration cap of the solve.
type IPageRankOptions struct {
	RWMin, RWFloor     float64
	Damping, Tolerance float64
	MaxIter            int
}

// DefaultIPageRankOptions are paper 2's d and a tolerance of 1e-6.
func DefaultIPageRankOptions() IPageRankOptions {
	return IPageRankOptions{RWMin: 0.5, RWFloor: 0.01, Damping: 0.85, Tolerance: 1e-6, MaxIter: 200}
}

// Params lists c, the floor, d, the tolerance and the cap.
func (o *IPageRankOptions) Params() []Param {
	return []Param{
		rwMinParam(&o.RWMin),
		{Name: "damping", Usage: "d", Value: contractionParam(&o.Damping)},
		{Name: "rw-floor", Usage: "least weight of a link in the surfer's choice", Value: unitParam(&o.RWFloor)},
		toleranceParam(&o.Tolerance),
		maxIterParam(&o.MaxIter),
	}
}

// toleranceParam and maxIterParam are the convergence of an iteration.
func toleranceParam(p *float64) Param {
	return Param{Name: "tolerance", Usage: "convergence tolerance", Value: positiveParam(p)}
}

func maxIterParam(p *int) Param {
	return Param{Name: "max-iter", Usage: "most iterations", Value: intValue{p, 1}}
}

// SkyReachOptions are skyreach's parameters: the weights of the URL
// heuristics (h) and of the target's IPageRank (ipr), the heuristics'
// own weights, and IPageRank's parameters (whose RWMin the heuristics'
// RW uses too).
type SkyReachOptions struct {
	Weights   map[string]float64
	Heuristic map[string]float64
	IPageRank IPageRankOptions
}

// DefaultSkyReachOptions weigh the heuristics 0.7 and IPageRank 0.3.
func DefaultSkyReachOptions() SkyReachOptions {
	return SkyReachOptions{Weights: map[string]float64{"h": 0.7, "ipr": 0.3},
		Heuristic: DefaultHeuristicOptions().Weights, IPageRank: DefaultIPageRankOptions()}
}

// Params lists skyreach's weights, the heuristics' and IPageRank's.
func (o *SkyReachOptions) Params() []Param {
	return append([]Param{
		{Name: "skyreach", Usage: "weights of the URL heuristics (as --heuristic weighs them) and of the target's IPageRank",
			Value: weightsValue{&o.Weights, skyReachNames, ParseSkyReach}},
		heuristicWeights(&o.Heuristic),
	}, o.IPageRank.Params()...)
}

var skyReachNames = []string{"h", "ipr"}

// ParseSkyReach reads "h=0.7,ipr=0.3": skyreach's weights of the URL
// heuristics and of IPageRank.
func ParseSkyReach(s string) (map[string]float64, error) {
	return parseWeights(s, "NAME", true, skyReachNames...)
}

// ipagerank ranks each link by the IPageRank of its target over the
// crawl's link graph, grown window by window.
type ipagerank struct {
	env   strategyEnv
	o     IPageRankOptions
	graph *crawlGraph
}

func newIPageRank(env strategyEnv, o IPageRankOptions) *ipagerank {
	return &ipagerank{env: env, o: o, graph: &crawlGraph{g: NewGraph(), from: map[string]bool{}}}
}

func (r *ipagerank) rankGroup(ctx context.Context, pages []scoredPage, out []record.ScoredDoc) error {
	prio, err := r.solve(ctx, pages)
	if err != nil {
		return err
	}
	setPriorities(pages, out, prio)
	return nil
}

// setPriorities gives each link of the pages without an error the
// priority prio gives its target.
func setPriorities(pages []scoredPage, out []record.ScoredDoc, prio func(string) float64) {
	for i, sp := range pages {
		if sp.doc.Error != "" {
			continue
		}
		for j := range out[i].Links {
			out[i].Links[j].Priority = record.ClampUnit(prio(out[i].Links[j].URL))
		}
	}
}

// solve adds the batch to the crawl's RW-weighted graph and returns each
// URL's IPageRank on a [0,1] scale (crawlGraph.solve).
func (r *ipagerank) solve(ctx context.Context, pages []scoredPage) (func(string) float64, error) {
	cg, err := r.grow(ctx, pages)
	if err != nil {
		return nil, err
	}
	defer cg.mu.Unlock()
	return cg.solve(&r.o), nil
}

// crawlGraph is the RW-weighted link graph of the crawl, kept between the
// windows of a run: each window adds the out-links of its docs instead of
// reading every edge of the store again. The store's edges are read once,
// at the first window (a resumed crawl); edges another scorer process adds
// to the store later are not seen by this one.
type crawlGraph struct {
	mu     sync.Mutex
	g      *Graph
	loaded bool
	// from holds the pages whose out-links are in g.
	from map[string]bool
	// rank is the last IPageRank, the next solve's start.
	rank []float64
}

// interest is how much of its rank a crawled page passes on: its page
// score relative to thresholds.page, capped at 1. A relevant page passes
// all of it, an off-topic page little, so rank no longer flows evenly out
// of off-topic regions (docs/score.md).
func (r *ipagerank) interest(score float64) float64 {
	if t := r.env.m.PageThreshold(); t > 0 {
		return math.Min(1, score/t)
	}
	return 1
}

// grow adds the batch's pages (and, the first time, the store's edges
// and page scores) to the crawl's graph and returns it locked; the caller
// unlocks it.
func (r *ipagerank) grow(ctx context.Context, pages []scoredPage) (*crawlGraph, error) {
	cg := r.graph
	cg.mu.Lock()
	o, m, store := &r.o, r.env.m, r.env.store
	inBatch := map[string]bool{}
	for _, sp := range pages {
		if sp.doc.Error == "" {
			inBatch[sp.doc.URL] = true
		}
	}
	if store != nil && !cg.loaded {
		var froms []string
		err := store.Edges(ctx, func(e record.Edge) error {
			if inBatch[e.From] {
				return nil // the batch's own copy of the page wins
			}
			if !cg.from[e.From] {
				cg.from[e.From] = true
				froms = append(froms, e.From)
			}
			th := m.maxTheta(urlWords(e.To), newWords(e.Anchor), newWords(e.Context))
			if th < o.RWMin {
				th = 0
			}
			cg.g.AddEdge(e.From, e.To, math.Max(th, o.RWFloor))
			return ctx.Err()
		})
		if err != nil {
			cg.mu.Unlock()
			return nil, err
		}
		for start := 0; start < len(froms); start += 500 {
			part := froms[start:min(start+500, len(froms))]
			scores, err := store.PageScores(ctx, part)
			if err != nil {
				cg.mu.Unlock()
				return nil, err
			}
			for _, u := range part {
				cg.g.SetInterest(u, r.interest(scores[u]))
			}
		}
		cg.loaded = true
	}
	for _, sp := range pages {
		if sp.doc.Error != "" || cg.from[sp.doc.URL] {
			continue
		}
		cg.from[sp.doc.URL] = true
		pv := newPageView(m, sp.doc, sp.score, m.PageThreshold(), nil)
		for i, l := range sp.doc.Links {
			cg.g.AddEdge(sp.doc.URL, l.URL, math.Max(pv.rw(i, o.RWMin), o.RWFloor))
		}
		cg.g.SetInterest(sp.doc.URL, r.interest(sp.score))
	}
	return cg, nil
}

// solve runs IPageRank over the graph from the last solution (new nodes
// start at 1) and returns each URL's rank as a percentile among the
// graph's URLs (ties at their middle): 0.9 means above nine in ten of the
// URLs the crawl knows of. IPR has no scale of its own (it sums to the
// node count, and is heavy-tailed: IPR/max put almost every URL under
// thresholds.link, and a crawl by it ran dry after 99 pages); as a
// percentile, thresholds.link 0.2 prunes the least-ranked fifth.
func (cg *crawlGraph) solve(o *IPageRankOptions) func(string) float64 {
	start := make([]float64, cg.g.Len())
	for i := range start {
		start[i] = 1
	}
	copy(start, cg.rank)
	ipr, _ := IPageRank(cg.g, o.Damping, o.Tolerance, o.MaxIter, start)
	cg.rank = ipr
	sorted := append([]float64(nil), ipr...)
	sort.Float64s(sorted)
	n := float64(len(sorted))
	return func(u string) float64 {
		id, ok := cg.g.ID(u)
		if !ok || n == 0 {
			return 0
		}
		v := ipr[id]
		lo := sort.SearchFloat64s(sorted, v)
		hi := lo + sort.Search(len(sorted)-lo, func(i int) bool { return sorted[lo+i] > v })
		return (float64(lo) + float64(hi-lo)/2) / n
	}
}

// skyreach is paper 2's (docs/algorithms.md §3) system: the URL
// heuristics (UH, TeH, TiH, RW as the heuristic strategy weighs them) of
// each link combined with the IPageRank of its target over the crawled
// graph, weighted by SkyReachOptions.Weights (h and ipr).
type skyreach struct {
	ipr *ipagerank
	o   SkyReachOptions
}

func newSkyReach(env strategyEnv, o SkyReachOptions) *skyreach {
	return &skyreach{ipr: newIPageRank(env, o.IPageRank), o: o}
}

func (s *skyreach) rankGroup(ctx context.Context, pages []scoredPage, out []record.ScoredDoc) error {
	prio, err := s.ipr.solve(ctx, pages)
	if err != nil {
		return err
	}
	m := s.ipr.env.m
	h := HeuristicOptions{Weights: s.o.Heuristic, RWMin: s.o.IPageRank.RWMin}
	wh, wi := s.o.Weights["h"], s.o.Weights["ipr"]
	total := wh + wi
	for i, sp := range pages {
		if sp.doc.Error != "" {
			continue
		}
		pv := newPageView(m, sp.doc, sp.score, m.PageThreshold(), nil)
		rankHeuristic(pv, out[i].Links, &h)
		for j := range out[i].Links {
			l := &out[i].Links[j]
			l.Priority = record.ClampUnit((wh*l.Priority + wi*prio(l.URL)) / total)
		}
	}
	return nil
}
