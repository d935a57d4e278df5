package segmenter

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/atom"

	"github.com/focuscrawl/focuscrawl/internal/extract"
	"github.com/focuscrawl/focuscrawl/internal/slicesx"
)

// markupAuthors reads the authors the page marks up in its body:
// schema.org itemprop="author" (its itemprop="name" inside, else its
// text) and rel="author" links; when there are none, the short elements
// whose class or id names an author or a byline (class="author-name",
// class="byline": see bylineClass). Only marks inside the content region
// or above it count, nearest the region first, so a teaser's byline
// further down (related stories, a sidebar) is never the page's author.
// Names of one group (the same byline) are joined; at most four.
func markupAuthors(body *node, region []*node) string {
	if v := markedAuthors(body, region, false); v != "" {
		return v
	}
	return markedAuthors(body, region, true)
}

// bylineClass: a class or id word that names an author or a byline
// ("author", "author-name", "authorname", "pb-byline", "byline_text"),
// but not the blocks about an author (a biography, a photo, a list of
// other stories) nor a comment's author.
func bylineClass(n *node) bool {
	for _, k := range []string{"class", "id"} {
		low := strings.ToLower(attr(n.el, k))
		if !strings.Contains(low, "author") && !strings.Contains(low, "byline") {
			continue // no word of it can hold them: most elements, read without splitting
		}
		for _, w := range strings.Fields(low) {
			if !strings.Contains(w, "author") && !strings.Contains(w, "byline") {
				continue
			}
			if !bylineAside.MatchString(w) {
				return true
			}
		}
	}
	return false
}

// bylineAside: class words of the blocks about an author rather than the
// byline itself, and of a comment's or a review's author.
var bylineAside = regexp.MustCompile(`bio|avatar|image|img|photo|pic|about|more|posts|articles|description|desc|info|box|card|social|follow|contact|comment|reply|respond|review`)

// markedAuthors reads one kind of mark: schema.org and rel=author, or
// (byClass) the class and id words.
func markedAuthors(body *node, region []*node, byClass bool) string {
	inRegion := map[*node]bool{}
	for _, n := range region {
		inRegion[n] = true
	}
	type mark struct {
		name  string
		group *node // the byline element holding the mark
	}
	var marks []mark
	seenRegion, past := false, false
	var walk func(n *node, in bool)
	walk = func(n *node, in bool) {
		if n.isText() || past || isMedia(n) {
			return // a photo's credit is not the story's author
		}
		if inRegion[n] {
			in, seenRegion = true, true
		} else if seenRegion && !in {
			past = true // below the region
			return
		}
		if n.el != nil && n.chars > 0 && n.chars <= 120 {
			prop := strings.ToLower(attr(n.el, "itemprop"))
			rel := strings.ToLower(attr(n.el, "rel"))
			var name string
			switch {
			case byClass:
				if n.chars <= 80 && bylineClass(n) {
					name = classByline(n)
				}
			case containsWord(prop, "author") || containsWord(prop, "creator"):
				name = itempropName(n)
			case n.tag == atom.A && containsWord(rel, "author"):
				name = flatText(n)
			}
			if name != "" {
				name = extract.CleanByline(collapseSpace(name)) // most elements are no mark: nothing to clean
			}
			if name != "" && utf8.RuneCountInString(name) <= 60 {
				g := n.parent // the byline holding the marked names
				if byClass {
					g = n // the byline itself: another one is another story's
				} else if g != nil && g.parent != nil && g.chars <= 200 {
					g = g.parent
				}
				marks = append(marks, mark{name, g})
				return
			}
		}
		for _, k := range n.kids {
			walk(k, in)
		}
	}
	walk(body, false)
	if len(marks) == 0 {
		return ""
	}
	// The group nearest the region: the last one above it, or the first
	// one inside.
	var pick *node
	for _, m := range marks {
		pick = m.group
		if inside(m.group, inRegion) {
			break
		}
	}
	var names []string
	for _, m := range marks {
		if m.group == pick && len(names) < 4 {
			names = append(names, m.name)
		}
	}
	return strings.Join(slicesx.Unique(names), ", ")
}

// isMedia: a figure, its caption, or a schema.org image or video item.
func isMedia(n *node) bool {
	if n.tag == atom.Figure || n.tag == atom.Figcaption {
		return true
	}
	if n.el == nil {
		return false
	}
	t := strings.ToLower(attr(n.el, "itemtype"))
	return strings.Contains(t, "image") || strings.Contains(t, "video") || strings.Contains(t, "photo")
}

// itempropName is the itemprop="name" text (or content) under an author
// mark, else the mark's own text.
func itempropName(n *node) string {
	var found string
	walkElements(n, func(k *node) {
		if found == "" && k != n && k.el != nil && strings.EqualFold(attr(k.el, "itemprop"), "name") {
			if c := attr(k.el, "content"); c != "" {
				found = c
			} else {
				found = flatText(k)
			}
		}
	})
	if found == "" {
		if c := attr(n.el, "content"); c != "" {
			return c
		}
		found = flatText(n)
	}
	return found
}

func inside(n *node, set map[*node]bool) bool {
	for a := n; a != nil; a = a.parent {
		if set[a] {
			return true
		}
	}
	return false
}

// containsWord: the space-separated list s holds w.
func containsWord(s, w string) bool {
	for _, f := range strings.Fields(s) {
		if f == w {
			return true
		}
	}
	return false
}

// byWords are the words that lead an English byline's names.
var byWords = map[string]bool{"by": true, "by:": true, "written by": true, "posted by": true, "story by": true, "words by": true}

// joinWords join the names of one byline.
var joinWords = map[string]bool{",": true, "and": true, "&": true, ", and": true}

// classByline is the names a byline element gives: its text pieces (one a
// text node) after a leading "By", as long as each reads as a name of two
// words at least and they are joined by "and", "&" or a comma. The
// pieces that follow, a role, a date or a "Follow" button, are not part
// of it. "" when the first piece is not a name.
func classByline(n *node) string {
	var parts []string
	var texts func(*node)
	texts = func(k *node) {
		if k.isText() {
			if t := strings.TrimSpace(k.text); t != "" {
				parts = append(parts, t)
			}
			return
		}
		for _, c := range k.kids {
			texts(c)
		}
	}
	texts(n)
	if len(parts) > 0 && byWords[strings.ToLower(parts[0])] {
		parts = parts[1:]
	}
	var names []string
	for i := 0; i < len(parts); i += 2 {
		v := extract.BylineName(parts[i])
		if v == "" || len(strings.Fields(v)) < 2 {
			break
		}
		names = append(names, v)
		if i+2 >= len(parts) || !joinWords[strings.ToLower(parts[i+1])] {
			break
		}
	}
	return strings.Join(names, ", ")
}
