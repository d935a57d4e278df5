package scoring

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/cespare/xxhash/v2"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// LearnOptions are the parameters of the learned link model.
type LearnOptions struct {
	// Weight is α, the model's share of a link's priority once it has
	// learnt enough: priority = (1−w)·base + w·q, w = α·n/(n+Warmup) after
	// n labelled pages. learned alone uses α = 1 and base = 0.5.
	Weight, Warmup float64
	// Rate is AdaGrad's learning rate.
	Rate float64
	// Remember bounds the links whose features are kept until their page
	// comes back.
	Remember int
}

// DefaultLearnOptions are the defaults of the flags.
func DefaultLearnOptions() LearnOptions {
	return LearnOptions{Weight: 0.5, Warmup: 20, Rate: 0.2, Remember: 500_000}
}

// Params lists α, the warm-up, the rate and how many links are kept.
func (o *LearnOptions) Params() []Param {
	return []Param{
		{Name: "learn-weight", Usage: "α, the link model's share of a priority once trained", Value: unitParam(&o.Weight)},
		{Name: "learn-warmup", Usage: "pages after which the model has half its share", Value: nonNegativeParam(&o.Warmup)},
		{Name: "learn-rate", Usage: "AdaGrad learning rate", Value: positiveParam(&o.Rate)},
		{Name: "learn-remember", Usage: "links whose features are kept until their page comes back", Value: intValue{&o.Remember, 0}},
	}
}

// LearnedOptions are the options of the learned model alone: its
// priority is the model's estimate, so α is 1 and not a parameter.
type LearnedOptions struct {
	LearnOptions
}

// Params lists LearnOptions' parameters but α.
func (o *LearnedOptions) Params() []Param {
	ps := o.LearnOptions.Params()
	return slices.DeleteFunc(ps, func(p Param) bool { return p.Name == "learn-weight" })
}

// learnBits is the size of the hashed feature space: 2^20 weights.
const learnBits = 20

// feature is one hashed feature with its value.
type feature struct {
	i uint32
	v float32
}

// pending is what the model remembers of a link until its page comes back.
type pending struct {
	feats    []feature
	priority float64
}

// learner is an online logistic regression over hashed link features,
// trained with AdaGrad on the page scores of the pages links led to. Its
// state is a function of the order of the docs it saw.
type learner struct {
	opt  LearnOptions
	mu   sync.Mutex
	w, g []float64
	n    int
	// links maps the normalised target of a link scored but not yet
	// crawled to its features at discovery.
	links map[string]pending
}

func newLearner(opt LearnOptions) *learner {
	return &learner{opt: opt, w: make([]float64, 1<<learnBits), g: make([]float64, 1<<learnBits),
		links: map[string]pending{}}
}

// linkFeatures describes a link at discovery: the target's host, URL
// classes and path words; the anchor's and context's words; the block
// kind; the parent page's score and whether the link leaves its host.
// Each group of words shares a unit of weight (1/√count each).
type linkFeatures struct {
	target, anchor, context, block string
	anchorTokens, contextTokens    []string
	parentScore                    float64
	parentHost                     string
}

func (lf *linkFeatures) vector(tok Tokenizer) []feature {
	host := urlx.Host(lf.target)
	fs := make([]feature, 0, 48)
	add := func(prefix, s string, v float64) {
		fs = append(fs, feature{uint32(xxhash.Sum64String(prefix+s) & (1<<learnBits - 1)), float32(v)})
	}
	group := func(prefix string, words []string) {
		if len(words) > 30 {
			words = words[:30]
		}
		v := 1 / math.Sqrt(float64(max(1, len(words))))
		for _, w := range words {
			add(prefix, w, v)
		}
	}
	add("bias", "", 1)
	add("h|", host, 1)
	if chain, err := urlx.ClassChain(lf.target); err == nil {
		for i, c := range chain {
			chain[i] = host + c
		}
		group("c|", chain)
	}
	group("p|", urlx.PathWords(lf.target))
	if lf.anchorTokens == nil && lf.anchor != "" {
		lf.anchorTokens = tok.Tokens(lf.anchor)
	}
	group("a|", lf.anchorTokens)
	if lf.contextTokens == nil && lf.context != "" {
		lf.contextTokens = tok.Tokens(lf.context)
	}
	group("x|", lf.contextTokens)
	if lf.block != "" {
		add("b|", lf.block, 1)
	}
	add("s", "", lf.parentScore)
	add("sb|", string(rune('0'+int(math.Min(4, lf.parentScore*5)))), 1)
	if lf.parentHost != "" && lf.parentHost != host {
		add("out", "", 1)
	}
	return fs
}

// predict is q = σ(w·x).
func (l *learner) predict(fs []feature) float64 {
	z := 0.0
	for _, f := range fs {
		z += l.w[f.i] * float64(f.v)
	}
	return 1 / (1 + math.Exp(-z))
}

// train takes one example: a link's features and the score of its page.
func (l *learner) train(fs []feature, y float64) {
	g := l.predict(fs) - y
	for _, f := range fs {
		gi := g * float64(f.v)
		if gi == 0 {
			continue
		}
		l.g[f.i] += gi * gi
		l.w[f.i] -= l.opt.Rate * gi / math.Sqrt(l.g[f.i])
	}
	l.n++
}

// share is w = α·n/(n+Warmup), the model's share of a priority.
func (l *learner) share(alpha float64) float64 {
	return alpha * float64(l.n) / (float64(l.n) + l.opt.Warmup)
}

// learned is the learned link model as a strategy: alone (base nil: every
// link starts at 0.5, the model's share is 1) or blended into the
// priorities of a per-doc base strategy ("shark+learned").
type learned struct {
	env  strategyEnv
	base docStrategy
	l    *learner
}

func newLearned(env strategyEnv, base docStrategy, o LearnOptions) *learned {
	return &learned{env: env, base: base, l: newLearner(o)}
}

func (s *learned) rank(pv *pageView, links []record.ScoredLink) {
	if s.base != nil {
		s.base.rank(pv, links)
	}
	s.blend(pv, links)
}

// An observer is told of every doc scored, failed ones too, before the
// doc's links are ranked.
type observer interface {
	observe(ctx context.Context, sp scoredPage) error
}

// observe trains the model on the doc that came back: the features of the
// link that led to it (as remembered at discovery, else from its lineage:
// URL, anchor, the parent's score) and its page score as the label (0 for
// a failed page). Seeds (no parent) teach nothing.
func (s *learned) observe(ctx context.Context, sp scoredPage) error {
	l := s.l
	d := sp.doc
	if d.Parent == "" {
		return nil
	}
	y := sp.score
	if d.Error != "" {
		y = 0
	}
	l.mu.Lock()
	p, ok := l.links[d.URL]
	delete(l.links, d.URL)
	l.mu.Unlock()
	if !ok {
		lf := linkFeatures{target: d.URL, anchor: d.Anchor, parentHost: urlx.Host(d.Parent)}
		known := map[string]float64{}
		if s.env.store != nil {
			m, err := s.env.store.PageScores(ctx, []string{d.Parent})
			if err != nil {
				return fmt.Errorf("frontier page scores: %w", err)
			}
			known = m
		} else {
			s.env.seen.lookup([]string{d.Parent}, known)
		}
		lf.parentScore = known[d.Parent]
		p.feats = lf.vector(s.env.m.Tok)
	}
	l.mu.Lock()
	l.train(p.feats, y)
	l.mu.Unlock()
	return nil
}

// blend mixes the model's estimate into the priorities the base
// strategy gave pv's links, and remembers their features.
func (s *learned) blend(pv *pageView, links []record.ScoredLink) {
	l := s.l
	alpha := l.opt.Weight
	alone := s.base == nil
	if alone {
		alpha = 1
	}
	parentHost := urlx.Host(pv.doc.URL)
	ctxTokens := map[string][]string{}
	type scoredFeats struct {
		key string
		pending
	}
	keep := make([]scoredFeats, 0, len(links))
	l.mu.Lock()
	w := l.share(alpha)
	l.mu.Unlock()
	for i := range links {
		lk := &links[i]
		lf := linkFeatures{target: lk.URL, anchor: lk.Anchor, anchorTokens: lk.Tokens, context: lk.Context,
			block: pv.kinds[lk.Block], parentScore: pv.score, parentHost: parentHost}
		if t, ok := ctxTokens[lk.Context]; ok {
			lf.contextTokens = t
		} else if lk.Context != "" {
			lf.contextTokens = s.env.m.Tok.Tokens(lk.Context)
			ctxTokens[lk.Context] = lf.contextTokens
		}
		fs := lf.vector(s.env.m.Tok)
		l.mu.Lock()
		q := l.predict(fs)
		l.mu.Unlock()
		base := lk.Priority
		if alone {
			base = 0.5
		}
		lk.Priority = record.ClampUnit((1-w)*base + w*q)
		if key, err := urlx.Normalize(lk.URL); err == nil {
			keep = append(keep, scoredFeats{key, pending{fs, lk.Priority}})
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keep {
		old, ok := l.links[k.key]
		switch {
		case ok && old.priority >= k.priority:
		case ok || len(l.links) < l.opt.Remember:
			l.links[k.key] = k.pending
		}
	}
}

// Replayer is a Store that can hand out the pages crawled so far, in the
// order they were fetched, so a resumed crawl's model starts where the
// last run's ended (less what the frontier does not keep: block kinds).
type Replayer interface {
	Replay(ctx context.Context, fn func(record.Replay) error) error
}

// replay trains the model on the pages the store replays, in the order
// they were fetched; it returns how many it took.
func (s *learned) replay(ctx context.Context, rp Replayer) (int, error) {
	l := s.l
	n := 0
	err := rp.Replay(ctx, func(r record.Replay) error {
		if r.Parent == "" {
			return nil
		}
		lf := linkFeatures{target: r.URL, anchor: r.Anchor, context: r.Context, parentScore: r.ParentScore,
			parentHost: urlx.Host(r.Parent)}
		y := r.Score
		if r.Failed {
			y = 0
		}
		fs := lf.vector(s.env.m.Tok)
		l.mu.Lock()
		l.train(fs, y)
		l.mu.Unlock()
		n++
		return nil
	})
	return n, err
}
