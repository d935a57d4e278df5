package segmenter

import (
	"fmt"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"github.com/focuscrawl/focuscrawl/internal/extract"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

// extractor is one compiled selector of a site rule.
type extractor struct {
	sel topic.Selector
	css goquery.Matcher
}

type compiledRule struct {
	rule                                      topic.ExtractRule
	title, published, source, author, content *extractor
	fields                                    map[string]*extractor
}

func compileExtractor(field, spec string) (e *extractor, err error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, nil
	}
	s, err := topic.ParseSelector(spec)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	e = &extractor{sel: s}
	if s.Regexp == nil {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%s: bad CSS selector %q: %v", field, s.CSS, r)
			}
		}()
		e.css = goquery.Single(s.CSS)
	}
	return e, nil
}

func compileRule(r topic.ExtractRule) (*compiledRule, error) {
	cr := &compiledRule{rule: r, fields: map[string]*extractor{}}
	var err error
	for _, f := range []struct {
		name string
		spec string
		dst  **extractor
	}{
		{"title", r.Title, &cr.title}, {"published", r.Published, &cr.published},
		{"source", r.Source, &cr.source}, {"author", r.Author, &cr.author},
		{"content", r.Content, &cr.content},
	} {
		if *f.dst, err = compileExtractor(f.name, f.spec); err != nil {
			return nil, err
		}
	}
	for k, v := range r.Fields {
		e, err := compileExtractor("fields."+k, v)
		if err != nil {
			return nil, err
		}
		if e != nil {
			cr.fields[k] = e
		}
	}
	return cr, nil
}

// ruleFor is the first rule whose site covers the page's host; a rule for
// "*" applies when no site rule does.
func (sg *Segmenter) ruleFor(pageURL string) *compiledRule {
	h := hostOf(pageURL)
	var star *compiledRule
	for _, r := range sg.rules {
		if r.rule.Site == "*" {
			if star == nil {
				star = r
			}
			continue
		}
		if r.rule.Match(h) {
			return r
		}
	}
	return star
}

// value extracts the selected text, or with all=true the text of every
// match joined by blank lines. For dates the datetime or content attribute
// of the element wins over its text.
func (e *extractor) value(doc *goquery.Document, src string, all, date bool) string {
	if e == nil {
		return ""
	}
	if e.sel.Regexp != nil {
		m := e.sel.Regexp.FindStringSubmatch(src)
		if m == nil {
			return ""
		}
		v := m[0]
		if len(m) > 1 {
			v = m[1]
		}
		return strings.TrimSpace(htmlToText(v))
	}
	sel := doc.FindMatcher(e.css)
	if sel.Length() == 0 {
		return ""
	}
	if e.sel.Attr != "" {
		v, _ := sel.First().Attr(e.sel.Attr)
		return strings.TrimSpace(v)
	}
	if date {
		for _, a := range []string{"datetime", "content"} {
			if v, ok := sel.First().Attr(a); ok && strings.TrimSpace(v) != "" {
				return strings.TrimSpace(v)
			}
		}
	}
	if !all {
		return strings.TrimSpace(nodeText(sel.Nodes[0]))
	}
	var parts []string
	for _, n := range sel.Nodes {
		if t := strings.TrimSpace(nodeText(n)); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n\n")
}

// htmlToText renders an HTML fragment captured by a regular expression.
func htmlToText(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	nodes, err := html.ParseFragment(strings.NewReader(s), &html.Node{Type: html.ElementNode, Data: "div"})
	if err != nil {
		return s
	}
	var parts []string
	for _, n := range nodes {
		parts = append(parts, nodeText(n))
	}
	return strings.Join(parts, "")
}

// nodeText renders an element of the original DOM as paragraphs.
func nodeText(h *html.Node) string {
	b := &builder{h: head{meta: map[string]string{}}}
	n := b.convert(h, nil, false, false)
	if n == nil {
		return ""
	}
	return plainText(n)
}

// apply overrides the doc's fields with what the rule finds.
func (r *compiledRule) apply(d *record.Doc, root *html.Node, src string, loc *time.Location) {
	doc := goquery.NewDocumentFromNode(root)
	if v := r.titleValue(doc, src); v != "" {
		d.Title = strings.Join(strings.Fields(v), " ")
	}
	if v := r.published.value(doc, src, false, true); v != "" {
		if dt, ok := extract.ParseDate(v, loc); ok {
			d.Published = dt.String()
		}
	}
	if v := r.source.value(doc, src, false, false); v != "" {
		if s := extract.FindSource(v); s != "" {
			v = s
		}
		d.Source = extract.CleanAuthor(v)
	}
	if v := r.author.value(doc, src, false, false); v != "" {
		if a := extract.FindAuthor(v); a != "" {
			v = a
		}
		d.Author = extract.CleanAuthor(v)
	}
	if v := r.content.value(doc, src, true, false); v != "" {
		d.Content = v
	}
	for k, e := range r.fields {
		if v := e.value(doc, src, false, false); v != "" {
			if d.Fields == nil {
				d.Fields = map[string]string{}
			}
			d.Fields[k] = v
		}
	}
}

// titleValue is the rule's title. A CSS selector that matches several
// elements ("h1, .title" matches the site's logo h1 in the header as well
// as the article's) gives the one nearest the content: the first match
// inside the element the rule's content selector finds, else the last
// match before it. Without a content match, the first match, as for any
// field.
func (r *compiledRule) titleValue(doc *goquery.Document, src string) string {
	e := r.title
	if e == nil || e.css == nil || e.sel.Attr != "" || r.content == nil || r.content.css == nil {
		return e.value(doc, src, false, false)
	}
	matches := doc.Find(e.sel.CSS).Nodes // every match: e.css keeps the first only
	if len(matches) < 2 {
		return e.value(doc, src, false, false)
	}
	content := doc.FindMatcher(r.content.css).Nodes
	if len(content) == 0 {
		return e.value(doc, src, false, false)
	}
	order := map[*html.Node]int{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		order[n] = len(order)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc.Nodes[0])
	body := content[0]
	end := order[body]
	for last := body; last != nil; last = last.LastChild {
		end = order[last]
	}
	var pick *html.Node
	for _, m := range matches {
		if t := strings.TrimSpace(nodeText(m)); t == "" {
			continue
		}
		switch at := order[m]; {
		case at > order[body] && at <= end:
			return strings.TrimSpace(nodeText(m)) // inside the content: the article's own
		case at < order[body]:
			pick = m // the last before the content so far
		}
	}
	if pick == nil {
		return e.value(doc, src, false, false)
	}
	return strings.TrimSpace(nodeText(pick))
}
