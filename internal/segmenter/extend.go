package segmenter

import (
	"strings"

	"golang.org/x/net/html/atom"
)

// Tuning holds the thresholds of the content-region rules that were
// chosen on the development sets (docs/segment.md gives the
// leave-one-set-out figures). The zero value means the defaults.
type Tuning struct {
	// ExtendProse is the share of the text an ancestor adds to the
	// content region (outside pruned noise, CJK weighted) that must be
	// prose for the region to grow into it (default 0.5).
	ExtendProse float64
	// ExtendLinkDensity is the highest link density of the added text
	// (default 0.1).
	ExtendLinkDensity float64
	// ExtendLoose counts all prose after the region; by default only
	// siblings of the same tag and class (more chunks of the article)
	// count there, since comments, notices and "about us" paragraphs
	// follow articles too.
	ExtendLoose bool
	// NoExtend turns the growing off (for measuring it).
	NoExtend bool
	// FallbackThin is the weighted length (CJK characters count three)
	// under which the content is thin and the second opinion is asked
	// for (default 750).
	FallbackThin float64
	// FallbackRatio is how many times longer the second opinion must be
	// to be kept (default 2).
	FallbackRatio float64
	// NoFallback turns the second opinion off (for measuring it).
	NoFallback bool
	// NoiseCandidates lets a candidate inside a subtree of noise (a
	// comment thread, a sidebar) be the content even when one outside
	// is left (the rule off, for measuring it).
	NoiseCandidates bool
	// NoKin turns off adding the article's other parts, the prose
	// paragraphs outside the region written with the same markup as
	// the ones it keeps (for measuring it).
	NoKin bool
}

func (t Tuning) withDefaults() Tuning {
	if t.ExtendProse == 0 {
		t.ExtendProse = 0.5
	}
	if t.ExtendLinkDensity == 0 {
		t.ExtendLinkDensity = 0.1
	}
	if t.FallbackThin == 0 {
		t.FallbackThin = defaultFallbackThin
	}
	if t.FallbackRatio == 0 {
		t.FallbackRatio = defaultFallbackRatio
	}
	return t
}

// extendLevels bounds how far the region climbs: an article is rarely
// wrapped in more than a few containers of its own.
const extendLevels = 6

// extend grows the chosen node into the ancestors whose extra text reads
// as more of the same article: an article split into chunks by ads, a
// lead paragraph in a wrapper of its own, text in the cells of a layout
// table. An ancestor is taken when most of what it adds (after the noise
// the pruner would drop anyway) is prose, that is runs of at least 25
// weighted characters with few links, and the added text has a low link
// density. The climb stops at the first ancestor that adds mostly short
// lines or links, at structural tags and at the body.
func (s *scorer) extend(top *node, t Tuning) *node {
	if top == nil || t.NoExtend {
		return top
	}
	cur := top
	for level := 0; level < extendLevels; level++ {
		a := cur.parent
		if a == nil || a.el == nil || a.tag == atom.Body || a.tag == atom.Html || neverContent[a.tag] {
			break
		}
		if a.anyHint(hintPruned) && !a.anyHint(hintPos) {
			break
		}
		pr := &pruner{regionChars: a.chars}
		var add addedText
		after := false
		for _, k := range a.kids {
			if k == cur {
				after = true
				continue
			}
			if after && !t.ExtendLoose && !sameKind(k, cur) {
				// After the article, only more parts of the same kind
				// count as prose: comments, notices and "about us"
				// paragraphs follow articles too.
				var tail addedText
				s.measureAdded(k, pr, &tail)
				add.total += tail.total
				continue
			}
			s.measureAdded(k, pr, &add)
		}
		// The link density of everything added, pruned noise included.
		addChars, addLinks := a.chars-cur.chars, a.linkChars-cur.linkChars
		if addChars == 0 {
			cur = a // a wrapper that adds nothing
			continue
		}
		if add.prose < t.ExtendProse*add.total || float64(addLinks) > t.ExtendLinkDensity*float64(addChars) ||
			introducesRelatedAny(a, cur) {
			break
		}
		cur = a
	}
	return cur
}

// addedText sums what a subtree would add to the content region.
type addedText struct {
	total, prose float64 // weighted characters outside links
}

// measureAdded adds n's unpruned text to add, prose apart.
func (s *scorer) measureAdded(n *node, pr *pruner, add *addedText) {
	if n.isText() || n.chars == 0 {
		return
	}
	if neverContent[n.tag] || pr.skip(n) {
		return
	}
	if r := s.runs[n]; r != nil {
		wl := r.weightedLen()
		add.total += wl
		if wl >= 25 && float64(r.linkChars) < 0.3*float64(r.chars) {
			add.prose += wl
		}
	}
	for _, k := range n.kids {
		s.measureAdded(k, pr, add)
	}
}

// introducesRelatedAny: one of a's children other than cur opens a
// related-stories section.
func introducesRelatedAny(a, cur *node) bool {
	for _, k := range a.kids {
		if k != cur && !k.isText() && k.chars > 0 && introducesRelated(k) {
			return true
		}
	}
	return false
}

// sameKind: the same tag, and a class word in common (or no class on
// either): "articleBodyText" and "articleBodyText first" are parts of
// one article.
func sameKind(a, b *node) bool {
	if a.tag != b.tag {
		return false
	}
	if a.class == "" || b.class == "" {
		return a.class == b.class
	}
	for _, w := range strings.Fields(a.class) {
		if containsWord(b.class, w) {
			return true
		}
	}
	return false
}
