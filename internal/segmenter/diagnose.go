package segmenter

import (
	"strings"

	"golang.org/x/net/html/atom"
)

// Unit is one paragraph of a page for the error analysis: the inline text
// directly inside one block-level element, where the content rules put it
// and what shape it has.
type Unit struct {
	Text string
	// Kept tells whether the unit is in the extracted content.
	Kept bool
	// Where is "kept", "pruned: REASON" (inside the content region but
	// dropped by the pruner), "outside: beside" (a sibling subtree of
	// the region's, within two levels of its top) or "outside: far".
	Where string
	// Shape is heading, caption, list item, table cell, comment, short
	// (under 25 weighted characters) or paragraph.
	Shape string
}

// Diagnose splits a page into its paragraphs as the segmenter sees them
// and says, for each, whether the content kept it and why not. It is for
// the error analysis of segment eval --diagnose, not part of any record.
func Diagnose(htmlText string, t Tuning) []Unit {
	root, _, err := parseHTML(htmlText)
	if err != nil {
		return nil
	}
	body, _ := build(root)
	region, _ := scoreCandidates(body).region(t.withDefaults())
	in := map[*node]bool{}
	total := 0
	for _, n := range region {
		in[n] = true
		total += n.chars
	}
	pr := &pruner{regionChars: total}
	var units []Unit
	var walk func(n *node)
	walk = func(n *node) {
		if n.isText() {
			return
		}
		if n.isBlockLevel() || n == body {
			if text := strings.TrimSpace(ownText(n)); text != "" {
				u := Unit{Text: text, Shape: shapeOf(n, text)}
				u.Where, u.Kept = whereIs(n, region, in, pr)
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

// ownText is the inline text of n, without that of its block-level
// descendants.
func ownText(n *node) string {
	var sb strings.Builder
	var rec func(*node)
	rec = func(x *node) {
		for _, k := range x.kids {
			if k.isText() {
				sb.WriteString(k.text)
				sb.WriteByte(' ')
				continue
			}
			if k.isBlockLevel() {
				continue
			}
			rec(k)
		}
	}
	rec(n)
	return sb.String()
}

func whereIs(n *node, region []*node, in map[*node]bool, pr *pruner) (string, bool) {
	for a := n; a != nil; a = a.parent {
		if !in[a] {
			continue
		}
		// Inside the region: the outermost pruned ancestor says why.
		why := keep
		for x := n; x != nil && x != a; x = x.parent {
			if !x.isText() {
				if r := pr.reason(x); r != keep {
					why = r
				}
			}
		}
		if why == keep {
			return "kept", true
		}
		return "pruned: " + why.String(), false
	}
	if len(region) == 0 {
		return "outside: no region", false
	}
	// Outside: beside the region when the two meet within two levels
	// above the region's top.
	up := map[*node]bool{}
	a := region[0].parent
	for i := 0; a != nil && i < 2; i, a = i+1, a.parent {
		up[a] = true
	}
	for x := n.parent; x != nil; x = x.parent {
		if up[x] {
			return "outside: beside", false
		}
	}
	return "outside: far", false
}

func shapeOf(n *node, text string) string {
	for a, i := n, 0; a != nil && i < 8; a, i = a.parent, i+1 {
		if a.anyHint(hintPruned) && strings.Contains(strings.ToLower(a.class+" "+a.id), "comment") {
			return "comment"
		}
	}
	switch n.tag {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return "heading"
	case atom.Figcaption, atom.Figure:
		return "caption"
	case atom.Li, atom.Dd, atom.Dt:
		return "list item"
	case atom.Td, atom.Th:
		return "table cell"
	}
	for a, i := n.parent, 0; a != nil && i < 3; a, i = a.parent, i+1 {
		switch a.tag {
		case atom.Figure, atom.Figcaption:
			return "caption"
		case atom.Li, atom.Dd:
			return "list item"
		case atom.Td, atom.Th:
			return "table cell"
		}
	}
	chars, _, cjk := countText(text)
	if float64(chars)+2*float64(cjk) < 25 {
		return "short"
	}
	return "paragraph"
}
