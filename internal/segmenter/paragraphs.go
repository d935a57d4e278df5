package segmenter

import (
	"math"
	"strings"

	"golang.org/x/net/html/atom"
)

// The paragraph classifier's view of a page. Every paragraph — the
// inline text directly inside one block-level element, as the content
// rules and the error analysis see it — gets a vector of features: where
// the rules put it (kept, pruned and why, beside the region or far from
// it), its shape (heading, list item, table cell, caption, short), its
// text (length, link density, punctuation, jusText's prose test), the
// class/id words and structural tags above it, its position, its
// neighbours and the page (how much of the page's prose the region
// holds). A logistic model over them (paragraphWeights, trained by
// scripts/trainparagraphs on the development sets) says which
// paragraphs are content.

// Feature indexes of a paragraph's vector.
const (
	fBias = iota
	fKept
	fPruned
	fPrunedLinks
	fPrunedClass
	fBeside
	fFar
	fNoRegion
	fHeading
	fH1
	fListItem
	fTableCell
	fCaption
	fShort
	fLogLen
	fLinkDensity
	fProse
	fPunct
	fSentenceEnd
	fPrunedHintAbove
	fPosHintAbove
	fStructAbove
	fCommentAbove
	fFormAbove
	fPosition
	fPrevKept
	fNextKept
	fPrevProse
	fNextProse
	fKeptDistance
	fCoverage
	fThin
	fParentLinks
	fKinOfKept
	fCJKPage
	fKeptProse
	fBesideProse
	fFarProse
	numParagraphFeatures
)

// paragraphFeatureNames name the features, for the trainer's report and
// the weights file.
var paragraphFeatureNames = [numParagraphFeatures]string{
	"bias", "kept", "pruned", "pruned by links", "pruned by class", "beside", "far",
	"no region", "heading", "h1", "list item", "table cell", "caption", "short",
	"log length", "link density", "prose", "punctuation", "sentence end",
	"noise class above", "content class above", "structural tag above", "comment above",
	"form above", "position", "previous kept", "next kept", "previous prose", "next prose",
	"distance to kept", "coverage", "thin region", "parent link density", "kin of kept",
	"cjk page", "kept prose", "beside prose", "far prose",
}

// paragraph is one paragraph of a page and its features.
type paragraph struct {
	n *node
	textCounts
	kept     bool
	prose    bool
	ctx      paraContext
	features *[numParagraphFeatures]float64 // nil unless asked for
}

// textCounts are the counts of a paragraph's own inline text, not that
// of its block-level descendants: characters, those in links, CJK ones
// outside links, commas.
type textCounts struct {
	chars, links, cjk, commas int
}

// weighted is the length of the text outside links, CJK characters
// counting three.
func (t *textCounts) weighted() float64 { return float64(t.chars-t.links) + 2*float64(t.cjk) }

func (t *textCounts) linkDensity() float64 {
	if t.chars == 0 {
		return 0
	}
	return float64(t.links) / float64(t.chars)
}

// addOwn adds the counts of n's inline text, not that of its
// block-level descendants.
func (t *textCounts) addOwn(n *node) {
	for _, k := range n.kids {
		switch {
		case k.isText():
			t.chars += k.chars
			t.links += k.linkChars
			t.commas += k.commas
			if !k.inLink {
				t.cjk += k.cjk
			}
		case !k.isBlockLevel():
			t.addOwn(k)
		}
	}
}

// paraContext is what the walk knows of a node's ancestors.
type paraContext struct {
	inRegion                        bool
	regionChars                     int
	reason                          pruneReason
	beside                          bool
	prunedHint, posHint, structural bool // the hints only withFeatures
	comment, form                   bool
	cell, item, caption             int // levels since the nearest td/th, li/dd/dt, figure
}

// paragraphsOf lists the paragraphs of the page in document order, given
// the first answer's region, with their features when withFeatures (the
// kin rule needs only what the walk knows).
func paragraphsOf(body *node, region []*node, withFeatures bool) []*paragraph {
	in := map[*node]int{}
	total := 0
	for _, n := range region {
		total += n.chars
	}
	for _, n := range region {
		in[n] = total
	}
	up := map[*node]bool{} // the region's parent and grandparent: "beside"
	if withFeatures && len(region) > 0 {
		a := region[0].parent
		for i := 0; a != nil && i < 2; i, a = i+1, a.parent {
			up[a] = true
		}
	}
	const far = 1 << 20
	var paras []*paragraph
	var walk func(n *node, c paraContext)
	walk = func(n *node, c paraContext) {
		if n.isText() || n.chars == 0 {
			return
		}
		if rc, ok := in[n]; ok && !c.inRegion {
			c.inRegion, c.regionChars = true, rc
		} else if c.inRegion && c.reason == keep {
			pr := pruner{regionChars: c.regionChars}
			c.reason = pr.reason(n)
		}
		if up[n] {
			c.beside = true
		}
		if withFeatures {
			// The class/id hints are the costly part of the walk; the kin
			// rule asks for them only on its few candidates (underNoiseClass).
			class, id := n.hints()
			h := class | id
			if h&hintPruned != 0 {
				c.prunedHint = true
				if strings.Contains(strings.ToLower(n.class+" "+n.id), "comment") {
					c.comment = true
				}
			}
			c.posHint = c.posHint || h&hintPos != 0
		}
		c.structural = c.structural || neverContent[n.tag]
		c.form = c.form || n.tag == atom.Form
		c.cell, c.item, c.caption = c.cell+1, c.item+1, c.caption+1
		switch n.tag {
		case atom.Td, atom.Th:
			c.cell = 0
		case atom.Li, atom.Dd, atom.Dt:
			c.item = 0
		case atom.Figure, atom.Figcaption:
			c.caption = 0
		}
		if n.isBlockLevel() || n == body {
			var counts textCounts
			counts.addOwn(n)
			kept := c.inRegion && c.reason == keep
			prose := counts.weighted() >= proseMinWeighted && float64(counts.links) <= proseMaxLinks*float64(counts.chars)
			// Without features only what the kin rule reads is kept, and
			// only that is allocated.
			if counts.chars > 0 && (withFeatures || kept || prose) {
				p := &paragraph{n: n, textCounts: counts, ctx: c, kept: kept, prose: prose}
				if withFeatures {
					p.features = new([numParagraphFeatures]float64)
					p.describe(c, len(region) > 0)
				}
				paras = append(paras, p)
			}
		}
		for _, k := range n.kids {
			walk(k, c)
		}
	}
	walk(body, paraContext{cell: far, item: far, caption: far})
	if withFeatures {
		describePage(paras, body)
	}
	return paras
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// describe sets the features p has on its own and from its ancestors.
func (p *paragraph) describe(c paraContext, hasRegion bool) {
	f := p.features
	f[fBias] = 1
	f[fKept] = b2f(p.kept)
	f[fPruned] = b2f(c.inRegion && c.reason != keep)
	f[fPrunedLinks] = b2f(c.inRegion && c.reason == pruneLinks)
	f[fPrunedClass] = b2f(c.inRegion && c.reason == pruneClass)
	outside := !c.inRegion && hasRegion
	f[fBeside] = b2f(outside && c.beside)
	f[fFar] = b2f(outside && !c.beside)
	f[fNoRegion] = b2f(!hasRegion)
	switch p.n.tag {
	case atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		f[fHeading] = 1
	case atom.H1:
		f[fH1] = 1
	}
	f[fListItem] = b2f(c.item <= 3)
	f[fTableCell] = b2f(c.cell <= 3)
	f[fCaption] = b2f(c.caption <= 3)
	wl := p.weighted()
	f[fShort] = b2f(wl < 25)
	f[fLogLen] = math.Log1p(max(wl, 0)) / 8
	ld := 0.0
	if p.chars > 0 {
		ld = float64(p.links) / float64(p.chars)
	}
	f[fLinkDensity] = ld
	f[fProse] = b2f(p.prose)
	if p.chars > 0 {
		f[fPunct] = min(float64(p.commas)*100/float64(p.chars), 10) / 10
	}
	f[fPrunedHintAbove] = b2f(c.prunedHint)
	f[fPosHintAbove] = b2f(c.posHint)
	f[fStructAbove] = b2f(c.structural)
	f[fCommentAbove] = b2f(c.comment)
	f[fFormAbove] = b2f(c.form)
	if par := p.n.parent; par != nil {
		f[fParentLinks] = par.linkDensity()
	}
	f[fKeptProse] = f[fKept] * f[fProse]
	f[fBesideProse] = f[fBeside] * f[fProse]
	f[fFarProse] = f[fFar] * f[fProse]
}

// describePage sets the features that depend on the other paragraphs:
// position, neighbours, distance to the kept text, the share of the
// page's prose the region holds, kinship with the kept paragraphs.
func describePage(paras []*paragraph, body *node) {
	n := len(paras)
	keptW, proseW := 0.0, 0.0
	kin := map[string]bool{}
	for _, p := range paras {
		if p.kept {
			keptW += p.weighted()
			if par := p.n.parent; par != nil {
				kin[kindKey(par)] = true
			}
		}
		if p.prose {
			proseW += p.weighted()
		}
	}
	coverage := 1.0
	if proseW > 0 {
		coverage = min(keptW/proseW, 2) / 2
	}
	thin := b2f(keptW < defaultFallbackThin)
	cjkPage := b2f(body.cjk*3 > body.chars)
	// Distance in paragraphs to the nearest kept one, both ways.
	dist := make([]int, n)
	last := -1
	for i, p := range paras {
		if p.kept {
			last = i
		}
		dist[i] = math.MaxInt32
		if last >= 0 {
			dist[i] = i - last
		}
	}
	last = -1
	for i := n - 1; i >= 0; i-- {
		if paras[i].kept {
			last = i
		}
		if last >= 0 {
			dist[i] = min(dist[i], last-i)
		}
	}
	for i, p := range paras {
		f := p.features
		if n > 1 {
			f[fPosition] = float64(i) / float64(n-1)
		}
		if i > 0 {
			f[fPrevKept] = b2f(paras[i-1].kept)
			f[fPrevProse] = b2f(paras[i-1].prose)
		}
		if i+1 < n {
			f[fNextKept] = b2f(paras[i+1].kept)
			f[fNextProse] = b2f(paras[i+1].prose)
		}
		f[fKeptDistance] = 1
		if dist[i] < math.MaxInt32 {
			f[fKeptDistance] = min(math.Log1p(float64(dist[i]))/5, 1)
		}
		f[fCoverage] = coverage
		f[fThin] = thin
		f[fCJKPage] = cjkPage
		if !p.kept {
			if par := p.n.parent; par != nil && kin[kindKey(par)] {
				f[fKinOfKept] = 1
			}
		}
	}
}

// kindKey is a container's tag and class: the repeated records of a page
// (posts, comments, rows) share it.
func kindKey(n *node) string { return n.name + "." + n.class }

// Paragraph is one paragraph of a page as the classifier sees it, for
// training and measuring the model (scripts/trainparagraphs).
type Paragraph struct {
	Text     string
	Features []float64
}

// ParagraphFeatureNames names the entries of Paragraph.Features.
func ParagraphFeatureNames() []string { return paragraphFeatureNames[:] }

// Paragraphs splits a page into its paragraphs with their features, the
// first answer's region being chosen with t.
func Paragraphs(htmlText string, t Tuning) []Paragraph {
	root, _, err := parseHTML(htmlText)
	if err != nil {
		return nil
	}
	body, _ := build(root)
	region, _ := scoreCandidates(body).region(t.withDefaults())
	var out []Paragraph
	for _, p := range paragraphsOf(body, region, true) {
		text := strings.TrimSpace(ownText(p.n))
		// Set here, not in describe: the text is built only for training.
		p.features[fSentenceEnd] = b2f(endsSentence(text))
		out = append(out, Paragraph{Text: text, Features: append([]float64(nil), p.features[:]...)})
	}
	return out
}
