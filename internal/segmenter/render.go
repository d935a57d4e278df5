package segmenter

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/atom"
)

// blockLevel elements end a line of text; breakTags end a paragraph.
var blockLevel = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Td: true, atom.Th: true, atom.Li: true,
	atom.Dd: true, atom.Dt: true, atom.Blockquote: true, atom.Pre: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Section: true, atom.Article: true, atom.Main: true, atom.Body: true,
	atom.Table: true, atom.Tr: true, atom.Ul: true, atom.Ol: true, atom.Dl: true,
	atom.Form: true, atom.Header: true, atom.Footer: true, atom.Nav: true,
	atom.Aside: true, atom.Figure: true, atom.Figcaption: true, atom.Center: true,
	atom.Address: true, atom.Fieldset: true, atom.Details: true, atom.Summary: true,
	atom.Hr: true, atom.Caption: true, atom.Tbody: true, atom.Thead: true,
	atom.Tfoot: true, atom.Frameset: true, atom.Iframe: true, atom.Menu: true,
	atom.Html: true,
}

// lineTags end a line but not a paragraph: list items and table rows.
var lineTags = map[atom.Atom]bool{
	atom.Li: true, atom.Tr: true, atom.Dt: true, atom.Dd: true,
}

// textWriter accumulates text with pending line and paragraph breaks, so
// that paragraphs come out separated by exactly one blank line.
type textWriter struct {
	sb      strings.Builder
	pending int  // 0 none, 1 newline, 2 blank line
	brs     int  // consecutive <br> without text between
	space   bool // a space is due before the next word
	cell    bool // a table cell separator is due

	// markFrom and markTo, when set, have their text offsets recorded in
	// from and to: where the text of markFrom starts, where markTo's ends.
	markFrom, markTo *node
	from, to         int
}

func (w *textWriter) breakLine(level int) {
	if w.sb.Len() == 0 {
		return
	}
	if level > w.pending {
		w.pending = level
	}
	w.space = false
	w.cell = false
}

func (w *textWriter) br() {
	w.brs++
	if w.brs >= 2 {
		w.breakLine(2)
	} else {
		w.breakLine(1)
	}
}

func (w *textWriter) write(t string) {
	lead := strings.HasPrefix(t, " ")
	t2 := trimSpace(t)
	if t2 == "" {
		if t != "" && w.sb.Len() > 0 {
			w.space = true
		}
		return
	}
	switch {
	case w.pending == 2:
		w.sb.WriteString("\n\n")
	case w.pending == 1:
		w.sb.WriteByte('\n')
	case w.cell:
		w.sb.WriteString(" | ")
	case (w.space || lead) && w.sb.Len() > 0:
		w.sb.WriteByte(' ')
	}
	w.pending, w.brs, w.cell, w.space = 0, 0, false, false
	w.sb.WriteString(t2)
	if strings.HasSuffix(t, " ") {
		w.space = true
	}
}

// trimSpace is strings.TrimSpace, without its rune decoding when both
// ends of t are ASCII or Chinese characters that are not space (collapsed
// text has at most one ASCII space at either end).
func trimSpace(t string) string {
	u := strings.TrimSuffix(strings.TrimPrefix(t, " "), " ")
	if n := len(u); n > 0 {
		first, last := u[0], u[n-1]
		chineseEnd := n >= 3 && u[n-3] >= 0xE4 && u[n-3] <= 0xEC && u[n-2]&0xC0 == 0x80 && last&0xC0 == 0x80
		if (first > ' ' && first < utf8.RuneSelf || first >= 0xE4 && first <= 0xEC) &&
			(last > ' ' && last < utf8.RuneSelf || chineseEnd) {
			return u
		}
	}
	return strings.TrimSpace(t)
}

func (w *textWriter) writePre(t string) {
	lines := strings.Split(strings.ReplaceAll(t, "\r\n", "\n"), "\n")
	for i, l := range lines {
		if i > 0 {
			w.breakLine(1)
		}
		if strings.TrimSpace(l) != "" {
			w.write(strings.TrimRight(l, " \t"))
		}
	}
}

func (w *textWriter) String() string { return w.sb.String() }

// render writes the text of n, skipping the subtrees skip says to.
func render(w *textWriter, n *node, skip func(*node) bool) {
	if n == w.markFrom {
		w.from = w.sb.Len()
	}
	if n == w.markTo {
		defer func() { w.to = w.sb.Len() }()
	}
	if n.isText() {
		if n.pre {
			w.writePre(n.text)
		} else {
			w.write(n.text)
		}
		return
	}
	if skip != nil && skip(n) {
		if n.isBlockLevel() {
			w.breakLine(2)
		}
		return
	}
	switch {
	case n.tag == atom.Br:
		w.br()
		return
	case n.tag == atom.Img:
		return
	case n.isLine():
		w.breakLine(1)
	case n.tag == atom.Td || n.tag == atom.Th:
		if w.sb.Len() > 0 && w.pending == 0 {
			w.cell = true
		}
	case n.isBlockLevel():
		w.breakLine(2)
	}
	for _, k := range n.kids {
		render(w, k, skip)
	}
	switch {
	case n.isLine():
		w.breakLine(1)
	case n.tag == atom.Td || n.tag == atom.Th:
		if w.pending == 0 {
			w.cell = true
		}
	case n.isBlockLevel():
		w.breakLine(2)
	}
}

// plainText is the text of n on one line per paragraph.
func plainText(n *node) string {
	var w textWriter
	render(&w, n, nil)
	return w.String()
}
