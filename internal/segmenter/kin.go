package segmenter

// Kin of the article. An article is often cut into parts that sit in
// different wrappers (a lead and the rest of the story, the chunks around
// an advert, the posts of a thread), so the region the rules choose holds
// one part. The other parts are written with the same markup: paragraphs
// of the same tag and class, or in containers of the same tag and class.
// kinParagraphs finds the prose paragraphs outside the region that share
// such a class with the paragraphs the region keeps.

// markup is a classed element's tag and class; own tells a paragraph's
// own markup from its container's.
type markup struct {
	tag   string
	class string
	own   bool
}

// kinKeys are the classed markups of a paragraph: its own tag and class,
// and its container's (ok false where there is no class).
func kinKeys(p *paragraph) (own, parent markup, ownOK, parentOK bool) {
	if p.n.class != "" {
		own, ownOK = markup{p.n.name, p.n.class, true}, true
	}
	if par := p.n.parent; par != nil && par.class != "" {
		parent, parentOK = markup{par.name, par.class, false}, true
	}
	return own, parent, ownOK, parentOK
}

// kinParagraphs lists the paragraphs outside the region that are prose,
// outside noise (structural tags, noise classes, forms), and share a
// classed markup with at least minKin of the kept paragraphs.
func kinParagraphs(paras []*paragraph) []*paragraph {
	count := map[markup]int{}
	for _, p := range paras {
		if !p.kept {
			continue
		}
		own, parent, ownOK, parentOK := kinKeys(p)
		if ownOK {
			count[own]++
		}
		if parentOK {
			count[parent]++
		}
	}
	if len(count) == 0 {
		return nil
	}
	// A part of the article is a run of paragraphs; a teaser of another
	// story is one paragraph in a wrapper of its own, beside its headline.
	prosePerParent := map[*node]int{}
	for _, p := range paras {
		if p.prose && p.n.parent != nil {
			prosePerParent[p.n.parent]++
		}
	}
	var out []*paragraph
	for _, p := range paras {
		if prosePerParent[p.n.parent] < minKin {
			continue
		}
		c := &p.ctx
		if p.kept || c.inRegion || !p.prose || c.structural || c.form {
			continue
		}
		own, parent, ownOK, parentOK := kinKeys(p)
		if ((ownOK && count[own] >= minKin) || (parentOK && count[parent] >= minKin)) &&
			!underNoiseClass(p.n) {
			out = append(out, p)
		}
	}
	return out
}

const minKin = 2

// renderWithKin is the region's content with the kin paragraphs in their
// places, in document order.
func renderWithKin(body *node, region []*node, kin []*paragraph) string {
	total := 0
	inRegion := map[*node]bool{}
	for _, n := range region {
		total += n.chars
		inRegion[n] = true
	}
	isKin := map[*node]bool{}
	for _, p := range kin {
		isKin[p.n] = true
	}
	pr := &pruner{regionChars: total}
	var w textWriter
	var walk func(n *node)
	walk = func(n *node) {
		if n.isText() || n.chars == 0 {
			return
		}
		if inRegion[n] {
			w.breakLine(2)
			render(&w, n, pr.skip)
			return
		}
		if isKin[n] {
			w.breakLine(2)
			self := n
			render(&w, n, func(x *node) bool { return x != self && x.isBlockLevel() })
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(body)
	return w.String()
}

// underNoiseClass: n or an ancestor has a class or id of the noise the
// pruner drops (comments, share bars, related stories...).
func underNoiseClass(n *node) bool {
	for a := n; a != nil; a = a.parent {
		if !a.isText() && a.anyHint(hintPruned) {
			return true
		}
	}
	return false
}
