package scoring

import (
	"context"
	"math"
	"sort"
	"sync"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// ParseSkyReach reads "h=0.7,ipr=0.3": skyreach's weights of the URL
// heuristics and of IPageRank.
func ParseSkyReach(s string) (map[string]float64, error) {
	return parseWeights(s, "NAME", true, "h", "ipr")
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
func (s *Scorer) interest(score float64) float64 {
	if t := s.m.PageThreshold(); t > 0 {
		return math.Min(1, score/t)
	}
	return 1
}

// crawlGraph adds the batch's pages (and, the first time, the store's
// edges and page scores) to the scorer's graph and returns it locked; the
// caller unlocks it.
func (s *Scorer) growGraph(ctx context.Context, pages []scoredPage) (*crawlGraph, error) {
	s.graphOnce.Do(func() { s.graph = &crawlGraph{g: NewGraph(), from: map[string]bool{}} })
	cg := s.graph
	cg.mu.Lock()
	o := &s.cfg.Links
	inBatch := map[string]bool{}
	for _, sp := range pages {
		if sp.doc.Error == "" {
			inBatch[sp.doc.URL] = true
		}
	}
	if s.store != nil && !cg.loaded {
		var froms []string
		err := s.store.Edges(ctx, func(e record.Edge) error {
			if inBatch[e.From] {
				return nil // the batch's own copy of the page wins
			}
			if !cg.from[e.From] {
				cg.from[e.From] = true
				froms = append(froms, e.From)
			}
			th := s.m.maxTheta(urlWords(e.To), newWords(e.Anchor), newWords(e.Context))
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
			scores, err := s.store.PageScores(ctx, part)
			if err != nil {
				cg.mu.Unlock()
				return nil, err
			}
			for _, u := range part {
				cg.g.SetInterest(u, s.interest(scores[u]))
			}
		}
		cg.loaded = true
	}
	for _, sp := range pages {
		if sp.doc.Error != "" || cg.from[sp.doc.URL] {
			continue
		}
		cg.from[sp.doc.URL] = true
		pv := newPageView(s.m, sp.doc, sp.score, s.m.PageThreshold(), nil)
		for i, l := range sp.doc.Links {
			cg.g.AddEdge(sp.doc.URL, l.URL, math.Max(pv.rw(i, o.RWMin), o.RWFloor))
		}
		cg.g.SetInterest(sp.doc.URL, s.interest(sp.score))
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
func (cg *crawlGraph) solve(o *LinkOptions) func(string) float64 {
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
