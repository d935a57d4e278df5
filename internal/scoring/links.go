package scoring

import (
	"net/url"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

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
func (pv *pageView) potential(i int, o *SharkOptions) float64 {
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
