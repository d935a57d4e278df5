package segmenter

import (
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"golang.org/x/net/html/atom"
)

// The second opinion. The content region (one subtree and its siblings)
// is the first answer; where it is thin, the article may be spread over
// containers the region does not join (how-to steps in wrappers of their
// own, a thread of posts, a table of records), or the region may be a
// notice beside the article. Then a second answer made another way is
// asked for — every prose paragraph of the page, wherever it sits, with
// the short lines between prose (jusText's context rule, Pomikálek 2011)
// — and kept when it is clearly longer, as trafilatura keeps
// readability's or jusText's answer when its own looks too short.

// Defaults of the second opinion (Tuning.FallbackThin, FallbackRatio);
// docs/segment.md gives the grid they were chosen on and the
// leave-one-set-out figures.
const (
	defaultFallbackThin  = 750
	defaultFallbackRatio = 2.0
)

// FallbackStats counts the pages the second opinion was asked for and
// the pages whose content it gave.
type FallbackStats struct {
	Pages, Unsure, Taken int64
}

type fallbackCounter struct{ pages, unsure, taken atomic.Int64 }

// proseUnit is one block-level element's own inline text.
type proseUnit struct {
	n *node
	textCounts
	heading, good, keep bool
}

// proseUnits lists the paragraphs of the page outside the subtrees that
// are never content (nav, header, footer, forms, figures, noise classes),
// in document order.
func proseUnits(body *node) []*proseUnit {
	pr := &pruner{regionChars: body.chars}
	var units []*proseUnit
	var walk func(n *node)
	walk = func(n *node) {
		if n.isText() || n.chars == 0 {
			return
		}
		if n != body && pr.skip(n) {
			return
		}
		if n.isBlockLevel() || n == body {
			u := &proseUnit{n: n}
			u.addOwn(n)
			if u.chars > 0 {
				switch n.tag {
				case atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
					u.heading = true
				}
				units = append(units, u)
			}
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(body)
	return units
}

// Prose thresholds of a paragraph (jusText's are 70 characters and a link
// density of 0.2; CJK characters count three, as everywhere here).
const (
	proseMinWeighted = 70
	proseMaxLinks    = 0.2
	shortMaxLinks    = 0.5
)

// proseText is the second opinion's answer: the prose paragraphs of the
// page and the short lines between two of them (or a heading before
// one); on a page without prose, its lines that are not links.
func proseText(body *node) string {
	units := proseUnits(body)
	anyGood := false
	for _, u := range units {
		u.good = u.weighted() >= proseMinWeighted && u.linkDensity() <= proseMaxLinks
		anyGood = anyGood || u.good
	}
	if !anyGood {
		// A page without a single paragraph of prose (a note, a caption
		// under a picture, a line of a test page): its short lines that
		// are not links are all the text it has.
		for _, u := range units {
			u.good = u.linkDensity() <= shortMaxLinks
		}
	}
	// The nearest paragraph before and after each short one decides it;
	// nextGood[i] is found in one backward pass, so a page of many short
	// lines costs no more than one of a few.
	breaks := func(u *proseUnit) bool {
		return !u.good && (u.weighted() >= proseMinWeighted || u.linkDensity() > shortMaxLinks)
	}
	nextGood := make([]bool, len(units)+1)
	for i := len(units) - 1; i >= 0; i-- {
		switch u := units[i]; {
		case u.good:
			nextGood[i] = true
		case breaks(u):
			nextGood[i] = false
		default:
			nextGood[i] = nextGood[i+1]
		}
	}
	prevGood := false
	for i, u := range units {
		switch {
		case u.good:
			u.keep, prevGood = true, true
		case breaks(u):
			prevGood = false // a long link list or thin paragraph breaks the run
		default:
			u.keep = nextGood[i+1] && (prevGood || u.heading)
		}
	}
	var w textWriter
	for _, u := range units {
		if !u.keep {
			continue
		}
		w.breakLine(2)
		self := u.n
		render(&w, self, func(x *node) bool { return x != self && x.isBlockLevel() })
	}
	return w.String()
}

// weightedText is the weighted length of a text: CJK characters count
// three.
func weightedText(s string) float64 {
	chars, _, cjk := countText(s)
	return float64(chars) + 2*float64(cjk)
}

// weightedUpTo is weightedText(s) when that is under limit, and a value
// at or over limit otherwise: it counts s a piece at a time and stops at
// the limit. Whether the first answer is thin is all the second opinion
// asks of a long one, whose text can be tens of kilobytes.
func weightedUpTo(s string, limit float64) float64 {
	const piece = 512
	w := 0.0
	for s != "" && w < limit {
		end := min(len(s), piece)
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++ // pieces end on a rune boundary, so they count as the whole does
		}
		w += weightedText(s[:end])
		s = s[end:]
	}
	return w
}

// secondOpinion returns the content to keep: first, or the prose of the
// page when first is thin (under t.FallbackThin weighted characters) and
// the prose is at least t.FallbackRatio times as long.
func (sg *Segmenter) secondOpinion(body *node, first string, t Tuning) string {
	sg.fallback.pages.Add(1)
	if t.NoFallback {
		return first
	}
	l1 := weightedUpTo(first, t.FallbackThin)
	if l1 >= t.FallbackThin {
		return first
	}
	sg.fallback.unsure.Add(1)
	second := proseText(body)
	if l2 := weightedText(second); l2 > 0 && l2 >= t.FallbackRatio*l1 {
		sg.fallback.taken.Add(1)
		return strings.TrimSpace(second)
	}
	return first
}

// FallbackStats tells how often the second opinion was asked for and
// taken since the Segmenter was made or the stats last reset.
func (sg *Segmenter) FallbackStats(reset bool) FallbackStats {
	if reset {
		return FallbackStats{sg.fallback.pages.Swap(0), sg.fallback.unsure.Swap(0), sg.fallback.taken.Swap(0)}
	}
	return FallbackStats{sg.fallback.pages.Load(), sg.fallback.unsure.Load(), sg.fallback.taken.Load()}
}
