package segmenter

import (
	"strings"
	"unicode"
	"unicode/utf8"

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
}

// tagFlag caches, per element, the tag sets the block and text rules ask
// about for every node they visit (one map lookup per element, not one
// per question).
type tagFlag uint8

const (
	flagBlock      tagFlag = 1 << iota // blockTags: starts a block
	flagBlockLevel                     // blockLevel: a paragraph break around it
	flagLine                           // lineTags: a line break around it
)

// tagFlags is blockTags, blockLevel and lineTags in one map.
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

// head holds what the cleaning keeps from the document's head and from
// script elements before they are dropped.
type head struct {
	title       string
	lang        string
	base        string
	canonical   string
	keywords    string
	description string
	meta        map[string]string // lower-cased name/property/itemprop -> first content
	jsonLD      []string
	timeAttrs   []string // <time datetime> values, document order
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
func containsFold(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(word)], word) {
			return true
		}
	}
	return false
}

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
	if droppedTags[h.DataAtom] {
		return nil
	}
	id, class, isHidden := idClassHidden(h)
	if isHidden {
		return nil
	}
	if h.DataAtom == atom.Input || h.DataAtom == atom.Link || h.DataAtom == atom.Meta {
		return nil
	}
	n := b.newNode()
	*n = node{el: h, tag: h.DataAtom, name: h.Data, parent: parent,
		id: id, class: class, inLink: inLink, pre: pre, flags: tagFlags[h.DataAtom]}
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

// inspect records head data: title, base, canonical, lang, meta tags,
// JSON-LD and <time datetime>, before noise elements are dropped.
func (b *builder) inspect(h *html.Node) {
	switch h.DataAtom {
	case atom.Html:
		if l := attr(h, "lang"); l != "" && b.h.lang == "" {
			b.h.lang = l
		}
	case atom.Title:
		if b.h.title == "" && h.FirstChild != nil {
			b.h.title = collapseSpace(textOf(h))
		}
	case atom.Base:
		if b.h.base == "" {
			b.h.base = strings.TrimSpace(attr(h, "href"))
		}
	case atom.Link:
		if b.h.canonical == "" && strings.EqualFold(attr(h, "rel"), "canonical") {
			b.h.canonical = strings.TrimSpace(attr(h, "href"))
		}
	case atom.Meta:
		key := attr(h, "name")
		if key == "" {
			key = attr(h, "property")
		}
		if key == "" {
			key = attr(h, "itemprop")
		}
		if key == "" {
			key = attr(h, "http-equiv")
		}
		content := collapseSpace(attr(h, "content"))
		if key == "" || content == "" {
			return
		}
		for _, k := range strings.Fields(strings.ToLower(key)) {
			if _, ok := b.h.meta[k]; !ok {
				b.h.meta[k] = content
			}
		}
		switch strings.ToLower(key) {
		case "keywords":
			b.h.keywords = content
		case "description":
			b.h.description = content
		}
	case atom.Script:
		if strings.Contains(strings.ToLower(attr(h, "type")), "ld+json") && len(b.h.jsonLD) < 8 {
			b.h.jsonLD = append(b.h.jsonLD, unwrapScript(textOf(h)))
		}
	case atom.Time:
		if dt := strings.TrimSpace(attr(h, "datetime")); dt != "" && len(b.h.timeAttrs) < 16 {
			b.h.timeAttrs = append(b.h.timeAttrs, dt)
		}
	}
}

// inspectAll inspects the elements under h (the head, dropped subtrees).
func (b *builder) inspectAll(h *html.Node) {
	for c := h.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			b.inspect(c)
			b.inspectAll(c)
		}
	}
}

// textOf concatenates the raw text under h.
func textOf(h *html.Node) string {
	var sb strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			sb.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(h)
	return sb.String()
}

// isSpace counts the ideographic space and no-break spaces as white space.
func isSpace(r rune) bool {
	return unicode.IsSpace(r) || r == '\u00a0' || r == '\u3000' || r == '\u200b' || r == '\ufeff'
}

// collapseSpace turns every run of white space into one space. The result
// keeps a leading or trailing space when the input had one, so inline
// neighbours stay separated.
func collapseSpace(s string) string {
	if singleSpaced(s) {
		return s
	}
	var sb strings.Builder
	space := false
	wrote := false
	run := -1 // start of the current run of non-space text
	flush := func(end int) {
		if run >= 0 {
			sb.WriteString(s[run:end])
			run = -1
		}
	}
	for i := 0; i < len(s); {
		sp, size := spaceAt(s, i)
		if sp {
			flush(i)
			space = true
			i += size
			continue
		}
		if run < 0 {
			if !wrote {
				// Sized at the first word: the white space between
				// tags, most text nodes, allocates nothing.
				sb.Grow(len(s) - i + 1)
			}
			if space {
				sb.WriteByte(' ')
			}
			space = false
			run = i
		}
		wrote = true
		i += size
	}
	flush(len(s))
	if space && wrote {
		sb.WriteByte(' ')
	}
	if !wrote {
		if space {
			return " "
		}
		return ""
	}
	return sb.String()
}

// spaceAt tells whether the rune at s[i] is white space (isSpace) and
// how many bytes it takes. ASCII and the three-byte runes of Chinese text
// (U+4000–U+CFFF, never space) are read without decoding.
func spaceAt(s string, i int) (space bool, size int) {
	c := s[i]
	if c < utf8.RuneSelf {
		return c == ' ' || (c >= '\t' && c <= '\r'), 1
	}
	if c >= 0xE4 && c <= 0xEC && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
		return false, 3
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	return isSpace(r), size
}

// singleSpaced tells whether s is ASCII-spaced text with no run of
// spaces and no other white space: collapseSpace would return it as is.
func singleSpaced(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			if i+1 < len(s) && s[i+1] == ' ' {
				return false
			}
		case c < ' ' || c == 0x7f:
			return false
		case c == 0xC2 || c == 0xE1 || c == 0xE2 || c == 0xE3 || c == 0xEF:
			if r, _ := utf8.DecodeRuneInString(s[i:]); isSpace(r) {
				return false
			}
		}
	}
	return true
}

// countText counts non-space runes, clause punctuation and CJK runes.
func countText(s string) (chars, commas, cjk int) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf { // ASCII: no decoding
			i++
			if c == ' ' || (c >= '\t' && c <= '\r') {
				continue
			}
			chars++
			if c == ',' || c == ';' {
				commas++
			}
			continue
		}
		if c >= 0xE4 && c <= 0xE9 && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
			// U+4000–U+9FFF, three bytes: Chinese text, never space or
			// punctuation; U+4E00 and up are CJK Unified Ideographs.
			r := rune(c&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			i += 3
			chars++
			if isCJK(r) {
				cjk++
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if isSpace(r) {
			continue
		}
		chars++
		if r >= 0x2e80 && isCJK(r) {
			cjk++
		}
		switch r {
		case ',', '，', '、', '。', ';', '；', '．':
			commas++
		}
	}
	return chars, commas, cjk
}

// isCJK tells whether r is a Han, kana or hangul character.
func isCJK(r rune) bool {
	if r >= 0x4e00 && r <= 0x9fff { // CJK Unified Ideographs: nearly all Chinese text
		return true
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
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

// unwrapScript drops the CDATA or comment wrapper some pages put around
// a script's text ("<![CDATA[ {...} ]]>", "<!-- {...} -->").
func unwrapScript(s string) string {
	s = strings.TrimSpace(s)
	for _, w := range [][2]string{{"<![CDATA[", "]]>"}, {"<!--", "-->"}} {
		if strings.HasPrefix(s, w[0]) {
			s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s[len(w[0]):]), w[1]))
		}
	}
	s = strings.TrimPrefix(s, "//")
	return strings.TrimSpace(s)
}
