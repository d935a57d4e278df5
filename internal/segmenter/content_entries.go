package segmenter

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/atom"

	"github.com/focuscrawl/focuscrawl/internal/extract"
)

// Pages that list dated entries: the first entry is the content.

// firstEntry handles pages that list several dated entries of one
// structure (a blog's front page, a forum thread): the first entry is the
// page's content, not the longest. An entry is a sibling of the same tag
// and class with 200+ characters of text that opens with a short line
// holding a full date ("Post title | 2005-06-14 03:25:55"). Pages of one
// article are left alone: their parts do not each open with a date.
func (s *scorer) firstEntry(top *node) (content, entry *node) {
	if top == nil {
		return nil, nil
	}
	a := top
	for level := 0; a.parent != nil && level < 16; level, a = level+1, a.parent {
		if a.tag == atom.Body || a.tag == atom.Html {
			break
		}
		var entries []*node
		for _, sib := range a.parent.kids {
			if !sib.isText() && sib.tag == a.tag && sib.class == a.class && isDatedEntry(sib) {
				entries = append(entries, sib)
			}
		}
		if len(entries) < 2 || entries[0] == a || !isDatedEntry(a) {
			continue
		}
		// The best-scored node inside the first entry.
		var best *node
		bestScore := 0.0
		walkElements(entries[0], func(n *node) {
			if v, ok := s.scores[n]; ok && (best == nil || v > bestScore) && !neverContent[n.tag] {
				best, bestScore = n, v
			}
		})
		if best == nil {
			best = entries[0]
		}
		return best, entries[0]
	}
	return top, nil
}

// isDatedEntry: 200+ characters of own text, opening with a short line
// that holds a full date.
func isDatedEntry(n *node) bool {
	if n.chars-n.linkChars < 200 {
		return false
	}
	first := entryHeadline(n)
	if first == "" || utf8.RuneCountInString(first) > 100 {
		return false
	}
	d, ok := extract.ParseDate(first, nil)
	return ok && d.Prec >= extract.Day
}

// entryHeadline is the first line of text of n.
func entryHeadline(n *node) string {
	var w textWriter
	renderUntil(&w, n, 300)
	return firstTextLine(w.String())
}

// renderUntil renders n until the text holds limit bytes.
func renderUntil(w *textWriter, n *node, limit int) {
	if w.sb.Len() >= limit {
		return
	}
	if n.isText() {
		w.write(n.text)
		return
	}
	cell := n.tag == atom.Td || n.tag == atom.Th
	switch {
	case cell:
		if w.sb.Len() > 0 && w.pending == 0 {
			w.cell = true // the cells of a row stay on one line
		}
	case n.tag == atom.Br || n.isLine() || n.isBlockLevel():
		w.breakLine(1)
	}
	for _, k := range n.kids {
		if w.sb.Len() >= limit {
			return
		}
		renderUntil(w, k, limit)
	}
	switch {
	case cell:
		if w.pending == 0 {
			w.cell = true
		}
	case n.isBlockLevel() || n.isLine():
		w.breakLine(1)
	}
}

func firstTextLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
