package scoring

import (
	"net/url"
	"strings"
	"unicode"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// HeuristicOptions are the heuristic strategy's parameters: the weights
// of UH, TeH, TiH and RW (any positive sum), and c, the least Θ that RW
// counts (RW is 0 below it).
type HeuristicOptions struct {
	Weights map[string]float64
	RWMin   float64
}

// DefaultHeuristicOptions are paper 2's weights as the simweb crawls
// tuned them (docs/score.md).
func DefaultHeuristicOptions() HeuristicOptions {
	return HeuristicOptions{Weights: map[string]float64{"uh": 0.2, "teh": 0.3, "tih": 0.1, "rw": 0.4}, RWMin: 0.5}
}

// Params lists the weights and c.
func (o *HeuristicOptions) Params() []Param {
	return []Param{heuristicWeights(&o.Weights), rwMinParam(&o.RWMin)}
}

// heuristicWeights is the parameter of the heuristics' weights.
func heuristicWeights(p *map[string]float64) Param {
	return Param{Name: "heuristic", Usage: "weights of UH, TeH, TiH and RW",
		Value: weightsValue{p, heuristicNames, ParseHeuristic}}
}

// rwMinParam is the parameter of c, the least Θ that RW counts.
func rwMinParam(p *float64) Param {
	return Param{Name: "rw-min", Usage: "c, the least Θ that RW counts", Value: unitParam(p)}
}

var heuristicNames = []string{"uh", "teh", "tih", "rw"}

// ParseHeuristic reads "uh=0.2,teh=0.3,tih=0.1,rw=0.4".
func ParseHeuristic(s string) (map[string]float64, error) {
	return parseWeights(s, "NAME", true, heuristicNames...)
}

// heuristic ranks links by paper 2's URL relevance heuristics.
type heuristic struct{ o HeuristicOptions }

func (h heuristic) rank(pv *pageView, links []record.ScoredLink) { rankHeuristic(pv, links, &h.o) }

// words is a text prepared for topic-word tests: lower-cased, with its
// Latin words as a set, so "forest" matches the word and not "forestry",
// while CJK topic words match as substrings (Chinese has no spaces).
type words struct {
	lc    string
	latin map[string]bool
}

func newWords(s string) words {
	w := words{lc: strings.ToLower(s), latin: map[string]bool{}}
	for _, f := range strings.FieldsFunc(w.lc, notAlnum) {
		w.latin[f] = true
	}
	return w
}

func notAlnum(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// has tells whether the text holds topic word t (lower-case).
func (w words) has(t string) bool {
	if vsm.HasCJK(t) {
		return strings.Contains(w.lc, t)
	}
	parts := strings.FieldsFunc(t, notAlnum)
	if len(parts) == 0 {
		return false
	}
	for _, p := range parts {
		if !w.latin[p] {
			return false
		}
	}
	return len(parts) == 1 || strings.Contains(w.lc, t)
}

// anyTopicWord tells whether w holds one of the model's topic words.
func (m *Model) anyTopicWord(w words) bool {
	for _, t := range m.topicWords {
		if w.has(t) {
			return true
		}
	}
	return false
}

// maxTheta is max Θ(t) over the topic words t found in any of ws.
func (m *Model) maxTheta(ws ...words) float64 {
	best := 0.0
	for _, t := range m.topicWords {
		th := m.theta[t]
		if th <= best {
			continue
		}
		for _, w := range ws {
			if w.has(t) {
				best = th
				break
			}
		}
	}
	return best
}

// urlWords are the words of a URL, percent-decoded.
func urlWords(raw string) words {
	if s, err := url.PathUnescape(raw); err == nil {
		raw = s
	}
	return newWords(raw)
}

// rw is RW(url) of paper 2 (docs/algorithms.md §3): the largest Θ of a topic word in the link's
// metadata M(url) — its URL words, anchor (with image alt) and the text
// around it — when at least c, else 0. The page's own title is TiH's
// business: counting it here would give every link of a page one RW.
func (pv *pageView) rw(i int, c float64) float64 {
	l := &pv.doc.Links[i]
	th := pv.m.maxTheta(urlWords(l.URL), newWords(l.Anchor), newWords(l.Context))
	if th < c {
		return 0
	}
	return th
}

// rankHeuristic is paper 2's URL relevance heuristics combined as a
// weighted mean: UH (a topic word in the URL), TeH (in the anchor text),
// TiH (in the title of the page holding the link) and RW. A 1 is reliable
// and a 0 says little, so a link that no heuristic recognises gets a low
// priority but is not pruned out of hand when the others are weighty.
func rankHeuristic(pv *pageView, links []record.ScoredLink, o *HeuristicOptions) {
	w := o.Weights
	total := w["uh"] + w["teh"] + w["tih"] + w["rw"]
	if total <= 0 {
		return
	}
	tih := 0.0
	if pv.m.anyTopicWord(newWords(pv.doc.Title)) {
		tih = 1
	}
	for i := range links {
		l := &pv.doc.Links[i]
		var uh, teh float64
		if w["uh"] > 0 && pv.m.anyTopicWord(urlWords(l.URL)) {
			uh = 1
		}
		if w["teh"] > 0 && pv.m.anyTopicWord(newWords(l.Anchor)) {
			teh = 1
		}
		rw := 0.0
		if w["rw"] > 0 {
			rw = pv.rw(i, o.RWMin)
		}
		links[i].Priority = record.ClampUnit((w["uh"]*uh + w["teh"]*teh + w["tih"]*tih + w["rw"]*rw) / total)
	}
}
