package scoring

import (
	"net/url"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// The link strategies.
const (
	LinksBFS        = "bfs"
	LinksBestFirst  = "best-first"
	LinksShark      = "shark"
	LinksBlockShark = "block-shark"
	LinksHeuristic  = "heuristic"
	LinksIPageRank  = "ipagerank"
	LinksLinkModel  = "linkmodel"
	LinksSkyReach   = "skyreach"
)

// LinkStrategies lists the link strategies.
var LinkStrategies = []string{LinksBFS, LinksBestFirst, LinksShark, LinksBlockShark, LinksHeuristic, LinksIPageRank, LinksLinkModel, LinksSkyReach, LinksLearned}

// NeedsGraph tells whether a strategy needs a whole batch or the store.
func NeedsGraph(strategy string) bool {
	return strategy == LinksIPageRank || strategy == LinksLinkModel || strategy == LinksSkyReach
}

// LinkOptions are the parameters of the link strategies; the defaults are
// those of the papers (docs/algorithms.md).
type LinkOptions struct {
	Strategy string
	// Shark-Search: δ (inheritance decay), β (anchor vs context), γ
	// (inherited vs neighbourhood).
	Delta, Beta, Gamma float64
	// Block-shark: γ_b (block relevance vs sibling scores) and θ
	// (λ·potential vs the parent's relevant share n′/n).
	BlockGamma, Theta float64
	// NoiseWeight scales λ for links in nav, ad and footer blocks, links
	// whose anchor holds a link stop word and links to ad hosts: the
	// noise links that paper 1 (docs/algorithms.md §2) separates from relevant link blocks.
	NoiseWeight float64
	// BlockNorm divides λ by the largest λ of the page's blocks, so the
	// best block of a page has λ = 1. LB(B) is a mean of anchor
	// similarities and stays small (a related-links block with a few
	// on-topic anchors among twenty has LB ≈ 0.1), and λ·potential, a
	// product of two small numbers, would put every link of every page
	// under thresholds.link: relative to the page, λ keeps its meaning
	// (which block of this page to follow) at a usable scale.
	BlockNorm bool
	// SharePrior is block-shark's n′/n before any child is crawled; < 0
	// means the page's own score. SharePseudo is the weight of the prior
	// in pseudo-children once some are crawled.
	SharePrior, SharePseudo float64
	// BlockSharkForm picks block-shark's combination of its terms:
	// BlockSharkModulated (the default, docs/score.md) or
	// BlockSharkAdditive (docs/algorithms.md §2's θ·λ·potential + (1−θ)·n′/n).
	BlockSharkForm string
	// Heuristic weighs uh, teh, tih and rw (any positive sum).
	Heuristic map[string]float64
	// SkyReach weighs skyreach's terms: h (the heuristics) and ipr
	// (IPageRank of the target).
	SkyReach map[string]float64
	// RWMin is c: RW is 0 below it.
	RWMin float64
	// IPageRank: damping d, tolerance (L1 change per node) and iteration
	// cap; RWFloor is the least weight of a link in the surfer's choice.
	Damping, Tolerance float64
	MaxIter            int
	RWFloor            float64
	// Linkmodel: γ, the k of the top-k rows of V, the longest posting list
	// the inverted index follows (terms in more candidates say little and
	// cost quadratically).
	LinkGamma  float64
	TopK       int
	MaxPosting int
	// Learn is the learned model (learned.go): on for "learned" and for
	// a per-doc strategy followed by "+learned".
	Learn LearnOptions
}

// DefaultLinkOptions are the defaults of the flags.
func DefaultLinkOptions() LinkOptions {
	return LinkOptions{
		Strategy: LinksBlockShark,
		Delta:    0.5, Beta: 0.8, Gamma: 0.5,
		BlockGamma: 0.5, Theta: 0.5, NoiseWeight: 0.3, SharePrior: 0.5,
		BlockSharkForm: BlockSharkModulated, SharePseudo: DefaultSharePseudo(BlockSharkModulated),
		Heuristic: map[string]float64{"uh": 0.2, "teh": 0.3, "tih": 0.1, "rw": 0.4},
		SkyReach:  map[string]float64{"h": 0.7, "ipr": 0.3},
		RWMin:     0.5,
		Damping:   0.85, Tolerance: 1e-6, MaxIter: 200, RWFloor: 0.01,
		LinkGamma: 0.68, TopK: 10, MaxPosting: 300,
		Learn: DefaultLearnOptions(),
	}
}

// ParseHeuristic reads "uh=0.2,teh=0.3,tih=0.1,rw=0.4".
func ParseHeuristic(s string) (map[string]float64, error) {
	return parseWeights(s, "NAME", true, "uh", "teh", "tih", "rw")
}

// pageView is what the link strategies know of one doc.
type pageView struct {
	doc      *record.Doc
	score    float64
	relevant bool
	// blank: the doc has no text (blank).
	blank bool
	// known maps the doc's link targets that were crawled to their page
	// scores (from the store, the batch, or the docs seen so far).
	known map[string]float64
	// kinds maps block ids to block kinds.
	kinds map[int]string

	m       *Model
	anchors []float64 // anchor(l), -1 until computed
	titleLC string
	// sims memoizes textSim: the links of a block share their context,
	// and menus repeat anchors.
	sims map[string]float64
	// stopLC are the profile's link stop words, lower-cased; nil until
	// isNoise first needs them.
	stopLC []string
}

func newPageView(m *Model, d *record.Doc, score, pageThreshold float64, known map[string]float64) *pageView {
	pv := &pageView{doc: d, score: score, relevant: score >= pageThreshold, blank: blank(d), known: known, m: m,
		kinds: make(map[int]string, len(d.Blocks)), anchors: make([]float64, len(d.Links))}
	for _, b := range d.Blocks {
		pv.kinds[b.ID] = b.Kind
	}
	for i := range pv.anchors {
		pv.anchors[i] = -1
	}
	pv.titleLC = strings.ToLower(d.Title)
	return pv
}

// anchorVec is the TF-IDF vector of link i's anchor text.
func (pv *pageView) anchorVec(i int) vsm.Vector {
	l := &pv.doc.Links[i]
	if len(l.Tokens) > 0 {
		return pv.m.IDF.Vector(l.Tokens)
	}
	return pv.m.Text(l.Anchor)
}

// anchor is anchor(l) = sim(anchor text, topic).
func (pv *pageView) anchor(i int) float64 {
	if pv.anchors[i] < 0 {
		if l := &pv.doc.Links[i]; len(l.Tokens) == 0 {
			pv.anchors[i] = pv.textSim(l.Anchor)
		} else {
			pv.anchors[i] = pv.m.ShortSim(pv.anchorVec(i))
		}
	}
	return pv.anchors[i]
}

// textSim is ShortSim of the text s, tokenised here, computed once per
// distinct text of the page.
func (pv *pageView) textSim(s string) float64 {
	if v, ok := pv.sims[s]; ok {
		return v
	}
	if pv.sims == nil {
		pv.sims = make(map[string]float64, len(pv.doc.Links))
	}
	v := pv.m.TextSim(s)
	pv.sims[s] = v
	return v
}

// context is context(l): 1 when the anchor is on topic, else the
// similarity of the text around the link.
func (pv *pageView) context(i int) float64 {
	if pv.anchor(i) > 0 {
		return 1
	}
	return pv.textSim(pv.doc.Links[i].Context)
}

// blank tells whether d has no text to be judged by: no tokens,
// title, description or content, only links (a language picker, a
// frameset, a list of bare URLs). Its page score of 0 then says nothing
// about the topic, for or against.
func blank(d *record.Doc) bool {
	return len(d.Tokens) == 0 && strings.TrimSpace(d.Title) == "" &&
		strings.TrimSpace(d.Description) == "" && strings.TrimSpace(d.Content) == ""
}

// estimate is the relevance the link strategies take the doc to have:
// its page score, or for a blank doc the priority it was leased at — the
// crawl's estimate of it before it was fetched, which the page could not
// confirm or refute. Without it the estimate of a site whose entry page is
// blank stops there: every link of that page gets the floor and waits
// behind any other page's weakest link (docs/score.md, "Pages without text").
func (pv *pageView) estimate() float64 {
	if pv.blank {
		return max(pv.score, record.ClampUnit(pv.doc.Priority))
	}
	return pv.score
}

// inherited is Shark-Search's inherited score of the doc's children: δ
// times the doc's score when it is relevant, else times its own inherited
// score; a blank doc passes on at least its estimate.
func (pv *pageView) inherited(delta float64) float64 {
	if pv.relevant {
		return delta * pv.score
	}
	inh := record.ClampUnit(pv.doc.Inherited)
	if pv.blank {
		inh = max(inh, pv.estimate())
	}
	return delta * inh
}

// potential is Shark-Search's potential score of link i.
func (pv *pageView) potential(i int, o *LinkOptions) float64 {
	neighbourhood := o.Beta*pv.anchor(i) + (1-o.Beta)*pv.context(i)
	return record.ClampUnit(o.Gamma*pv.inherited(o.Delta) + (1-o.Gamma)*neighbourhood)
}

// isNoise tells whether link i is a noise link: in a nav, ad or footer
// block, with a link stop word in its anchor, or to an ad host.
func (pv *pageView) isNoise(i int) bool {
	l := &pv.doc.Links[i]
	switch pv.kinds[l.Block] {
	case record.BlockNav, record.BlockAd, record.BlockFooter:
		return true
	}
	if pv.stopLC == nil {
		pv.stopLC = make([]string, 0, len(pv.m.Profile.LinkStopwords))
		for _, w := range pv.m.Profile.LinkStopwords {
			if w != "" {
				pv.stopLC = append(pv.stopLC, strings.ToLower(w))
			}
		}
	}
	a := strings.ToLower(strings.TrimSpace(l.Anchor))
	for _, w := range pv.stopLC {
		if strings.Contains(a, w) {
			return true
		}
	}
	if u, err := url.Parse(l.URL); err == nil && u.Host != "" && pv.m.Profile.IsAdHost(u.Host) {
		return true
	}
	return false
}

// rankStream sets the priority of every link of pv by a per-doc strategy.
// It reports false for the graph strategies.
func rankStream(pv *pageView, links []record.ScoredLink, o *LinkOptions) bool {
	switch o.Strategy {
	case LinksBFS:
		// The child is one link deeper than the doc: 1/(depth+1).
		p := 1 / float64(pv.doc.Depth+2)
		for i := range links {
			links[i].Priority = p
		}
	case LinksBestFirst:
		p := pv.estimate()
		for i := range links {
			links[i].Priority = p
		}
	case LinksShark:
		inh := pv.inherited(o.Delta)
		for i := range links {
			links[i].Priority = pv.potential(i, o)
			links[i].Inherited = inh
		}
	case LinksBlockShark:
		if o.BlockSharkForm == BlockSharkAdditive {
			rankBlockShark(pv, links, o)
		} else {
			rankBlockSharkModulated(pv, links, o)
		}
	case LinksHeuristic:
		rankHeuristic(pv, links, o)
	case LinksLearned:
		// The model alone: blendLearned sets every priority.
	default:
		return false
	}
	return true
}
