package segmenter

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// node is an element or a text run of the cleaned page, with the counts
// the block and content rules need, computed once, bottom-up.
type node struct {
	el     *html.Node // nil for text
	tag    atom.Atom
	name   string // tag name, lower case
	parent *node
	kids   []*node
	text   string // text nodes: white space collapsed (kept in pre)

	id, class string

	chars     int // non-space runes in the subtree
	linkChars int // of them, inside links
	tags      int // elements in the subtree, itself included
	commas    int // clause punctuation in the subtree
	cjk       int // CJK characters outside links in the subtree
	inLink    bool
	pre       bool
	flags     tagFlag // what blockTags, blockLevel and lineTags say of tag

	// classHints and idHints are the hint bits of class and id, once
	// hintsRead (node.hints).
	classHints, idHints uint8
	hintsRead           bool
}

// tagFlag caches, per element, the tag sets the block and text rules ask
// about for every node they visit (one map lookup per element, not one
// per question).
type tagFlag uint8

const (
	flagBlock      tagFlag = 1 << iota // blockTags: starts a block
	flagBlockLevel                     // blockLevel: a paragraph break around it
	flagLine                           // lineTags: a line break around it
	flagDropped                        // droppedTags: never part of the tree
)

// tagFlags is blockTags, blockLevel, lineTags and droppedTags in one map.
var tagFlags = func() map[atom.Atom]tagFlag {
	m := map[atom.Atom]tagFlag{}
	for a := range blockTags {
		m[a] |= flagBlock
	}
	for a := range blockLevel {
		m[a] |= flagBlockLevel
	}
	for a := range lineTags {
		m[a] |= flagLine
	}
	for a, dropped := range droppedTags {
		if dropped {
			m[a] |= flagDropped
		}
	}
	return m
}()

func (n *node) startsBlock() bool  { return n.flags&flagBlock != 0 }
func (n *node) isBlockLevel() bool { return n.flags&flagBlockLevel != 0 }
func (n *node) isLine() bool       { return n.flags&flagLine != 0 }

func (n *node) isText() bool { return n.el == nil }

// linkDensity is the share of the subtree's characters that are anchor text.
func (n *node) linkDensity() float64 {
	if n.chars == 0 {
		return 0
	}
	return float64(n.linkChars) / float64(n.chars)
}

// dropped elements never carry content or links worth keeping.
var droppedTags = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Svg: true, atom.Math: true, atom.Head: false, atom.Object: true,
	atom.Canvas: true, atom.Select: true, atom.Textarea: true, atom.Button: true,
	atom.Dialog: true, atom.Noframes: true, atom.Noembed: true,
}

// builder converts the DOM into the cleaned node tree.
type builder struct {
	h     head
	space *node  // the shared white-space text node
	slab  []node // nodes are carved from slabs: one allocation per nodeSlab nodes
}

// nodeSlab is how many nodes one allocation of the builder holds. A page's
// nodes live and die together, so a slab wastes at most its unused tail.
const nodeSlab = 256

// newNode returns a zero node from the current slab.
func (b *builder) newNode() *node {
	if len(b.slab) == 0 {
		b.slab = make([]node, nodeSlab)
	}
	n := &b.slab[0]
	b.slab = b.slab[1:]
	return n
}

// build converts root, dropping noise, and returns the body (or the root
// when there is none) and the head data.
func build(root *html.Node) (*node, *head) {
	b := &builder{h: head{meta: map[string]string{}}}
	doc := b.convert(root, nil, false, false)
	if doc == nil {
		doc = &node{tag: atom.Body, name: "body", flags: tagFlags[atom.Body]}
	}
	body := findTag(doc, atom.Body)
	if body == nil {
		body = doc
	}
	return body, &b.h
}

func findTag(n *node, a atom.Atom) *node {
	if n.tag == a && !n.isText() {
		return n
	}
	for _, k := range n.kids {
		if !k.isText() {
			if f := findTag(k, a); f != nil {
				return f
			}
		}
	}
	return nil
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// idClassHidden reads the id and class of an element and whether it is
// hidden (a hidden attribute, or an inline display:none or
// visibility:hidden style), in one pass over its attributes.
func idClassHidden(n *html.Node) (id, class string, hidden bool) {
	for _, a := range n.Attr {
		switch a.Key {
		case "id":
			if id == "" {
				id = a.Val
			}
		case "class":
			if class == "" {
				class = a.Val
			}
		case "hidden":
			hidden = true
		case "style":
			st := a.Val
			if containsFold(st, "none") || containsFold(st, "hidden") {
				st = strings.ToLower(strings.ReplaceAll(st, " ", ""))
				hidden = hidden || strings.Contains(st, "display:none") || strings.Contains(st, "visibility:hidden")
			}
		}
	}
	return id, class, hidden
}

// containsFold is strings.Contains for an ASCII lower-case word, ignoring
// the case of s.
func containsFold(s, word string) bool { return indexFold(s, word) >= 0 }

func (b *builder) convert(h *html.Node, parent *node, inLink, pre bool) *node {
	switch h.Type {
	case html.TextNode:
		t := h.Data
		if !pre {
			t = collapseSpace(t)
		}
		if t == "" {
			return nil
		}
		if t == " " && !pre {
			// White space between tags, the most common text node: one
			// shared node per page (its parent is never read: it counts
			// no characters).
			if b.space == nil {
				b.space = &node{text: " "}
			}
			return b.space
		}
		n := b.newNode()
		n.text, n.parent, n.inLink, n.pre = t, parent, inLink, pre
		n.chars, n.commas, n.cjk = countText(t)
		if inLink {
			n.linkChars = n.chars
		}
		return n
	case html.DocumentNode:
		n := &node{name: "#document", el: h}
		for c := h.FirstChild; c != nil; c = c.NextSibling {
			if k := b.convert(c, n, false, false); k != nil {
				n.add(k)
			}
		}
		return n
	case html.ElementNode:
	default:
		return nil
	}
	b.inspect(h)
	if h.DataAtom == atom.Head {
		b.inspectAll(h)
		return nil
	}
	flags := tagFlags[h.DataAtom]
	if flags&flagDropped != 0 {
		return nil
	}
	id, class, isHidden := idClassHidden(h)
	if isHidden {
		return nil
	}
	if h.DataAtom == atom.Input || h.DataAtom == atom.Link || h.DataAtom == atom.Meta {
		return nil
	}
	n := b.newNode() // zero: only the fields set here are written
	n.el, n.tag, n.name, n.parent = h, h.DataAtom, h.Data, parent
	n.id, n.class, n.inLink, n.pre, n.flags = id, class, inLink, pre, flags
	n.tags = 1
	if h.DataAtom == atom.Iframe || h.DataAtom == atom.Frame {
		return n // their content is raw text for browsers without frames
	}
	link := inLink || h.DataAtom == atom.A
	p := pre || h.DataAtom == atom.Pre || h.DataAtom == atom.Textarea
	kids := 0
	for c := h.FirstChild; c != nil; c = c.NextSibling {
		kids++
	}
	if kids > 1 {
		n.kids = make([]*node, 0, kids)
	}
	for c := h.FirstChild; c != nil; c = c.NextSibling {
		if k := b.convert(c, n, link, p); k != nil {
			n.add(k)
		}
	}
	if h.DataAtom == atom.A && !inLink && n.chars > 250 && hasBlockKid(n) {
		// An unclosed <a> that swallowed whole paragraphs is markup
		// damage, not anchor text.
		clearLink(n)
	}
	if h.DataAtom == atom.Img && inLink {
		// An image anchor counts its alt text as anchor text.
		if alt := collapseSpace(attr(h, "alt")); alt != "" {
			c, _, _ := countText(alt)
			n.linkChars += c
			n.chars += c
		}
	}
	return n
}

func (n *node) add(k *node) {
	k.parent = n
	n.kids = append(n.kids, k)
	n.chars += k.chars
	n.linkChars += k.linkChars
	n.tags += k.tags
	n.commas += k.commas
	if !k.inLink {
		n.cjk += k.cjk
	}
}

func hasBlockKid(n *node) bool {
	for _, k := range n.kids {
		if !k.isText() && (k.isBlockLevel() || hasBlockKid(k)) {
			return true
		}
	}
	return false
}

// clearLink makes the subtree of n ordinary text.
func clearLink(n *node) {
	n.inLink = false
	n.linkChars = 0
	n.cjk = 0
	for _, k := range n.kids {
		clearLink(k)
		n.cjk += k.cjk
	}
}
