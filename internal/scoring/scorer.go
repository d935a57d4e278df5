package scoring

import (
	"context"
	"fmt"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// Config configures a Scorer.
type Config struct {
	Page  PageOptions
	Links LinkOptions
	// DropPruned leaves out links under thresholds.link instead of
	// marking them pruned.
	DropPruned bool
	// Remember is how many page scores a streaming run keeps for
	// block-shark's siblings when there is no store.
	Remember int
}

// Scorer scores docs: page relevance, then link priorities by the link
// strategy, which keeps its own state.
type Scorer struct {
	m        *Model
	cfg      Config
	store    Store
	seen     *seenScores
	strategy built
}

// NewScorer returns a Scorer for the model. store may be nil. The error
// is an unknown strategy, or options of another strategy's type.
func NewScorer(m *Model, cfg Config, store Store) (*Scorer, error) {
	if cfg.Remember <= 0 {
		cfg.Remember = 1_000_000
	}
	s := &Scorer{m: m, cfg: cfg, store: store, seen: newSeenScores(cfg.Remember)}
	var err error
	s.strategy, err = cfg.Links.build(strategyEnv{m: m, store: store, seen: s.seen})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// scoredPage is a doc with its page score, before its links are ranked.
type scoredPage struct {
	doc    *record.Doc
	vec    vsm.Vector
	score  float64
	scores map[string]float64
	// relevant is score ≥ thresholds.page.
	relevant bool
}

func (s *Scorer) page(d *record.Doc) scoredPage {
	if d.Error != "" {
		return scoredPage{doc: d}
	}
	vec := s.m.DocVector(d)
	score, scores := s.m.PageScore(d, vec, s.cfg.Page)
	return scoredPage{doc: d, vec: vec, score: score, scores: scores, relevant: score >= s.m.PageThreshold()}
}

// known returns the page scores of the links of d that were crawled, from
// batch (may be nil), the store, or the docs seen so far.
func (s *Scorer) known(ctx context.Context, d *record.Doc, batch map[string]float64) (map[string]float64, error) {
	out := map[string]float64{}
	if len(d.Links) == 0 {
		return out, nil
	}
	urls := make([]string, len(d.Links))
	for i, l := range d.Links {
		urls[i] = l.URL
	}
	if s.store != nil {
		m, err := s.store.PageScores(ctx, urls)
		if err != nil {
			return nil, fmt.Errorf("frontier page scores: %w", err)
		}
		for u, v := range m {
			out[u] = v
		}
	} else {
		s.seen.lookup(urls, out)
	}
	for _, u := range urls {
		if v, ok := batch[u]; ok {
			out[u] = v
		}
	}
	return out, nil
}

// Score scores one doc as it arrives, with a per-doc strategy (every one
// but the graph strategies). A doc with an error passes through with
// score 0. The error is the store's.
func (s *Scorer) Score(ctx context.Context, d *record.Doc) (record.ScoredDoc, error) {
	if s.strategy.graph != nil {
		return record.ScoredDoc{}, fmt.Errorf("%s needs a batch or the store: use ScoreBatch", s.cfg.Links.Strategy)
	}
	sp := s.page(d)
	if d.Error == "" {
		s.seen.put(d.URL, sp.score)
	}
	return s.rank(ctx, sp, nil)
}

func (s *Scorer) rank(ctx context.Context, sp scoredPage, batch map[string]float64) (record.ScoredDoc, error) {
	d := sp.doc
	out := newScored(sp)
	if ob, ok := s.strategy.doc.(observer); ok {
		if err := ob.observe(ctx, sp); err != nil {
			return out, err
		}
	}
	if d.Error != "" {
		return out, nil
	}
	known, err := s.known(ctx, d, batch)
	if err != nil {
		return out, err
	}
	pv := newPageView(s.m, d, sp.score, s.m.PageThreshold(), known)
	s.strategy.doc.rank(pv, out.Links)
	s.prune(&out)
	return out, nil
}

func newScored(sp scoredPage) record.ScoredDoc {
	d := sp.doc
	out := record.ScoredDoc{Doc: *d, Score: sp.score, Scores: sp.scores}
	out.Doc.Links = nil
	out.Relevant = sp.relevant
	if len(d.Links) > 0 {
		out.Links = make([]record.ScoredLink, len(d.Links))
		for i, l := range d.Links {
			out.Links[i].Link = l
		}
	}
	return out
}

// prune marks (or drops) the links under thresholds.link. bfs, the
// unfocused baseline, never prunes.
func (s *Scorer) prune(out *record.ScoredDoc) {
	if !s.strategy.prunes {
		return
	}
	limit := s.m.Profile.Thresholds.Link
	kept := out.Links[:0]
	for _, l := range out.Links {
		if l.Priority < limit {
			if s.cfg.DropPruned {
				continue
			}
			l.Pruned = true
		}
		kept = append(kept, l)
	}
	out.Links = kept
	if len(out.Links) == 0 {
		out.Links = nil
	}
}

// ReplayCrawl trains a learning strategy on the pages crawled before this
// run, when the store offers them (Replayer); it returns how many it
// took.
func (s *Scorer) ReplayCrawl(ctx context.Context) (int, error) {
	r, ok := s.strategy.doc.(*learned)
	rp, canReplay := s.store.(Replayer)
	if !ok || !canReplay {
		return 0, nil
	}
	return r.replay(ctx, rp)
}

// Model is the topic model the scorer judges pages with.
func (s *Scorer) Model() *Model { return s.m }
