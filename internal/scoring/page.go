package scoring

import (
	"math"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// The page methods.
const (
	PageVSM     = "vsm"
	PagePearson = "pearson"
	PageRules   = "rules"
	PageCombo   = "combo"
)

// PageMethods lists the page methods.
var PageMethods = []string{PageVSM, PagePearson, PageRules, PageCombo}

// PageOptions configure the page methods.
type PageOptions struct {
	// Method is one of PageMethods.
	Method string
	// Combo weighs vsm, pearson and rules for combo (any positive sum).
	Combo map[string]float64
	// KeywordShare κ is the part of vsm and pearson given to keyword
	// cover: (1−κ)·similarity + κ·cover. It counts only when the profile
	// has keywords.
	KeywordShare float64
	// KeywordCover is the share of the keyword weight a page must hold for
	// full cover.
	KeywordCover float64
	// RulesOnHTML applies the rules to the raw HTML as well (when the doc
	// kept it: segment --keep-html).
	RulesOnHTML bool
	// SimScale τ calibrates the similarity of vsm and pearson before the
	// keyword blend: 1 − e^(−sim/τ); 0 keeps the raw value. A TF-IDF
	// cosine of a whole page against a topic stays under ~0.3 even on
	// topic, far from thresholds.page (0.7 by default, the sweet spot of
	// paper 0's (docs/algorithms.md §1) rule score); the map keeps the order of the pages and
	// puts a cosine of τ at 0.63 and of 2τ at 0.86.
	SimScale float64
}

// DefaultPageOptions are the defaults of the flags.
func DefaultPageOptions() PageOptions {
	return PageOptions{Method: PageVSM, Combo: map[string]float64{PageVSM: 0.5, PageRules: 0.5}, KeywordShare: 0.3, KeywordCover: 0.5, SimScale: 0.1}
}

// ParseCombo reads "vsm=0.5,rules=0.5".
func ParseCombo(s string) (map[string]float64, error) {
	return parseWeights(s, "METHOD", false, PageVSM, PagePearson, PageRules)
}

// pageInput is what the page methods look at in one doc.
type pageInput struct {
	vec  vsm.Vector
	text string // title and content (and HTML with RulesOnHTML)
}

// DocVector returns the TF-IDF vector of a doc: its tokens, or when it has
// none, the tokens of its title, description and content cut here.
func (m *Model) DocVector(d *record.Doc) vsm.Vector {
	if len(d.Tokens) > 0 {
		return m.IDF.Vector(d.Tokens)
	}
	return m.IDF.Vector(m.Tok.Tokens(d.Title + "\n" + d.Description + "\n" + d.Content))
}

// PageScore scores one doc: by the page model when one is in use
// (UsePageModel), its probability, with the profile's score by the
// model's prior options in scores too; else by o.Method. scores holds the
// score of every method that was computed (all three for combo).
func (m *Model) PageScore(d *record.Doc, vec vsm.Vector, o PageOptions) (score float64, scores map[string]float64) {
	if m.page == nil {
		return m.ProfileScore(d, vec, o)
	}
	prior, scores := m.ProfileScore(d, vec, PriorOptions(m.page.Prior))
	p := m.ModelPage(d, vec, prior)
	score = m.page.Prob(&p)
	scores[PageMethodModel] = score
	return score, scores
}

// ProfileScore scores one doc by the profile alone, by o.Method.
func (m *Model) ProfileScore(d *record.Doc, vec vsm.Vector, o PageOptions) (score float64, scores map[string]float64) {
	in := pageInput{vec: vec}
	scores = map[string]float64{}
	want := func(method string) bool {
		return o.Method == method || (o.Method == PageCombo && o.Combo[method] > 0)
	}
	if want(PageRules) {
		in.text = d.Title + "\n" + d.Content
		if o.RulesOnHTML && d.HTML != "" {
			in.text += "\n" + d.HTML
		}
		scores[PageRules], _ = m.Profile.RuleScore(in.text)
	}
	cover := m.keywordCover(vec, d.Title+"\n"+d.Content, o.KeywordCover)
	blend := func(sim float64) float64 {
		if o.SimScale > 0 {
			sim = 1 - math.Exp(-sim/o.SimScale)
		}
		if !m.HasKeywords() {
			return sim
		}
		return (1-o.KeywordShare)*sim + o.KeywordShare*cover
	}
	if want(PageVSM) {
		scores[PageVSM] = blend(m.Cosine(vec))
	}
	if want(PagePearson) {
		// Over the IDF table's vocabulary, not the union of the two
		// vectors' terms: on the union, on-topic pages are anti-correlated
		// with the topic and nothing reaches the profile's page threshold
		// (vsm.PearsonOver).
		scores[PagePearson] = blend(math.Max(0, vsm.PearsonOver(vec, m.unit, m.IDF.Len())))
	}
	if o.Method != PageCombo {
		return record.ClampUnit(scores[o.Method]), scores
	}
	sum, total := 0.0, 0.0
	for method, w := range o.Combo {
		if w > 0 {
			sum += w * scores[method]
			total += w
		}
	}
	if total == 0 {
		return 0, scores
	}
	scores[PageCombo] = record.ClampUnit(sum / total)
	return scores[PageCombo], scores
}
