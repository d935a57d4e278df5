package segmenter

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html/atom"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// blockTags start a block of their own (paper 1 (docs/algorithms.md §2): table, div and frame,
// with their modern peers). Nested block tags are different blocks.
var blockTags = map[atom.Atom]bool{
	atom.Table: true, atom.Div: true, atom.Frame: true, atom.Iframe: true,
	atom.Section: true, atom.Article: true, atom.Aside: true, atom.Nav: true,
	atom.Header: true, atom.Footer: true, atom.Main: true, atom.Ul: true,
	atom.Ol: true, atom.Dl: true, atom.Form: true, atom.Menu: true, atom.Body: true,
}

// block is a block under construction: its own content, without that of
// the blocks nested in it.
type block struct {
	n         *node
	id        int
	path      string
	w         textWriter
	chars     int
	linkChars int
	tags      int
	links     []linkAt
	main      bool
	kind      string
}

// linkAt is a link with the byte offsets of its anchor in the block text,
// and the host of its URL (hostOf), which the site and ad rules read.
type linkAt struct {
	link       record.Link
	start, end int
	host       string
}

// collectBlocks splits the page into blocks and collects every link,
// in document order.
func (sg *Segmenter) collectBlocks(body *node, rs *resolver, inMain func(*node) bool) []*block {
	var blocks []*block
	var visit func(n *node, cur *block, path string)
	visit = func(n *node, cur *block, path string) {
		if n.isText() {
			if n.pre {
				cur.w.writePre(n.text)
			} else {
				cur.w.write(n.text)
			}
			cur.chars += n.chars
			cur.linkChars += n.linkChars
			return
		}
		if n.startsBlock() || cur == nil {
			if path == "" {
				path = n.name
			} else {
				path = path + ">" + pathStep(n)
			}
			nb := &block{n: n, path: path, main: inMain(n)}
			blocks = append(blocks, nb)
			if n.tag == atom.Frame || n.tag == atom.Iframe {
				sg.addLink(nb, n, rs)
			}
			for _, k := range n.kids {
				visit(k, nb, path)
			}
			if cur != nil {
				cur.w.breakLine(2)
			}
			return
		}
		cur.tags++
		switch {
		case n.tag == atom.Br:
			cur.w.br()
			return
		case n.isLine():
			cur.w.breakLine(1)
		case n.isBlockLevel():
			cur.w.breakLine(2)
		case n.tag == atom.Td || n.tag == atom.Th:
			cur.w.cell = cur.w.sb.Len() > 0
		}
		var at int
		isLink := n.tag == atom.A || n.tag == atom.Area
		if isLink {
			at = cur.w.sb.Len()
			if cur.w.pending > 0 || cur.w.space || cur.w.cell {
				at++ // the separator written before the anchor
			}
		}
		for _, k := range n.kids {
			visit(k, cur, path)
		}
		if isLink {
			before := len(cur.links)
			sg.addLink(cur, n, rs)
			if len(cur.links) > before {
				l := &cur.links[len(cur.links)-1]
				l.start, l.end = min(at, cur.w.sb.Len()), cur.w.sb.Len()
			}
		}
		if n.isLine() {
			cur.w.breakLine(1)
		} else if n.isBlockLevel() {
			cur.w.breakLine(2)
		}
	}
	visit(body, nil, "")
	out := blocks[:0]
	for _, b := range blocks {
		if b.chars > 0 || len(b.links) > 0 {
			b.id = len(out) + 1
			out = append(out, b)
		}
	}
	return out
}

// pathStep is one step of a CSS-like path: tag#id or tag.firstclass.
func pathStep(n *node) string {
	if id := strings.TrimSpace(n.id); id != "" && !strings.ContainsAny(id, " >") {
		return n.name + "#" + id
	}
	if f := strings.Fields(n.class); len(f) > 0 {
		return n.name + "." + f[0]
	}
	return n.name
}

// record converts a block for output.
func (b *block) record() record.Block {
	rb := record.Block{
		ID:        b.id,
		Kind:      b.kind,
		Path:      b.path,
		Text:      b.w.String(),
		LinkCount: len(b.links),
	}
	if b.chars > 0 {
		rb.LinkDensity = round3(float64(b.linkChars) / float64(b.chars))
	}
	rb.TextDensity = round3(float64(b.chars) / float64(max(1, b.tags)))
	return rb
}

func round3(f float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', 3, 64), 64)
	return v
}

// oneLine is strings.Join(strings.Fields(s), " ") in one pass.
func oneLine(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f' ||
			(c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' ')) {
			clean = false
			break
		}
		if c == 0xC2 || c == 0xE1 || c == 0xE2 || c == 0xE3 { // leads of Unicode spaces
			if r, _ := utf8.DecodeRuneInString(s[i:]); unicode.IsSpace(r) {
				clean = false
				break
			}
		}
	}
	if clean {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	start := -1 // of the current word
	for i := 0; i < len(s); {
		c := s[i]
		n := 1
		sp := c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
		if c >= 0xE4 && c <= 0xEC && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
			n = 3 // U+4000–U+CFFF: Chinese text, never space
		} else if c >= utf8.RuneSelf {
			var r rune
			r, n = utf8.DecodeRuneInString(s[i:])
			sp = unicode.IsSpace(r)
		}
		switch {
		case sp && start >= 0:
			if sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(s[start:i])
			start = -1
		case !sp && start < 0:
			start = i
		}
		i += n
	}
	if start >= 0 {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(s[start:])
	}
	return sb.String()
}

func truncRunes(s string, n int) string {
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}
