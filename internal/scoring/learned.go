package scoring

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/cespare/xxhash/v2"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// LinksLearned is the strategy that learns from the crawl: alone, or
// after a per-doc strategy as "shark+learned".
const LinksLearned = "learned"

// learnSuffix marks a strategy blended with the learned model.
const learnSuffix = "+" + LinksLearned

// ParseStrategy reads a --links value: a strategy of LinkStrategies, or a
// per-doc one followed by "+learned". It returns the base strategy and
// whether the learned model is on; "learned" alone has base LinksLearned.
func ParseStrategy(s string) (base string, learn bool, err error) {
	base, learn = strings.CutSuffix(s, learnSuffix)
	if s == LinksLearned {
		return LinksLearned, true, nil
	}
	ok := false
	for _, x := range LinkStrategies {
		ok = ok || (x == base && x != LinksLearned)
	}
	switch {
	case !ok:
		return "", false, fmt.Errorf("%q: want one of %s, or a per-doc one followed by %s", s, strings.Join(LinkStrategies, ", "), learnSuffix)
	case learn && NeedsGraph(base):
		return "", false, fmt.Errorf("%q: %s scores in batches; %s follows only the per-doc strategies", s, base, learnSuffix)
	}
	return base, learn, nil
}

// LearnOptions are the parameters of the learned link model.
type LearnOptions struct {
	// On turns the model on (learned, or a strategy followed by +learned).
	On bool
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

// observe trains the model on the doc that came back: the features of the
// link that led to it (as remembered at discovery, else from its lineage:
// URL, anchor, the parent's score) and its page score as the label (0 for
// a failed page). Seeds (no parent) teach nothing.
func (s *Scorer) observe(ctx context.Context, sp scoredPage) error {
	l := s.learned
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
		if s.store != nil {
			m, err := s.store.PageScores(ctx, []string{d.Parent})
			if err != nil {
				return fmt.Errorf("frontier page scores: %w", err)
			}
			known = m
		} else {
			s.seen.lookup([]string{d.Parent}, known)
		}
		lf.parentScore = known[d.Parent]
		p.feats = lf.vector(s.m.Tok)
	}
	l.mu.Lock()
	l.train(p.feats, y)
	l.mu.Unlock()
	return nil
}

// blendLearned mixes the model's estimate into the priorities the base
// strategy gave pv's links, and remembers their features.
func (s *Scorer) blendLearned(pv *pageView, links []record.ScoredLink) {
	l := s.learned
	alpha := l.opt.Weight
	alone := s.cfg.Links.Strategy == LinksLearned
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
			lf.contextTokens = s.m.Tok.Tokens(lk.Context)
			ctxTokens[lk.Context] = lf.contextTokens
		}
		fs := lf.vector(s.m.Tok)
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

// ReplayCrawl trains the learned model on the pages crawled before this
// run, when the store offers them; it returns how many it took.
func (s *Scorer) ReplayCrawl(ctx context.Context) (int, error) {
	rp, ok := s.store.(Replayer)
	if s.learned == nil || !ok {
		return 0, nil
	}
	l := s.learned
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
		fs := lf.vector(s.m.Tok)
		l.mu.Lock()
		l.train(fs, y)
		l.mu.Unlock()
		n++
		return nil
	})
	return n, err
}
