package segmenter

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// What the tree builder keeps from the document's head and scripts:
// title, base, canonical, lang, meta tags and JSON-LD.

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
