package pagemodel

import (
	"math"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/urlx"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// The feature groups: each is its own namespace of terms, so that a word
// in the URL path and the same word in the body have their own weights.
const (
	GroupBody   = "body"
	GroupTitle  = "title"
	GroupURL    = "url"
	GroupNav    = "nav"
	GroupAnchor = "anchor"
)

// Groups lists the feature groups in the order they are stored.
var Groups = []string{GroupBody, GroupTitle, GroupURL, GroupNav, GroupAnchor}

// maxGroupTerms bounds the distinct terms of a short-text group (title,
// URL, navigation, anchor): a navigation bar of 300 words would otherwise
// share its unit of weight so thinly that no word of it counts.
const maxGroupTerms = 40

// Page is what the model looks at in one page.
type Page struct {
	// URL is the page's URL: its host, directories, file-name prefixes
	// and path words are the URL group.
	URL string
	// Body is the TF-IDF vector of the page's words; the model uses it
	// at unit length.
	Body vsm.Vector
	// Title, Nav and Anchor are the tokens of the page's title, of its
	// navigation and breadcrumbs, and of the anchor of the link that led
	// to it.
	Title, Nav, Anchor []string
	// Prior is the topic profile's score of the page, in [0,1].
	Prior float64
}

// feature is one term of a page with its value.
type feature struct {
	group int // index in Groups
	term  string
	value float64
}

// features lists the page's features, appended to buf.
func (p *Page) features(buf []feature) []feature {
	if n := p.Body.Norm(); n > 0 {
		for i, t := range p.Body.Terms {
			if w := p.Body.Weights[i] / n; w != 0 {
				buf = append(buf, feature{0, t, w})
			}
		}
	}
	buf = appendGroup(buf, 1, p.Title)
	buf = appendGroup(buf, 2, URLTerms(p.URL))
	buf = appendGroup(buf, 3, p.Nav)
	return appendGroup(buf, 4, p.Anchor)
}

// appendGroup appends the distinct terms of a short-text group, each
// 1/√n for n terms (at most maxGroupTerms, the first ones).
func appendGroup(buf []feature, group int, terms []string) []feature {
	start := len(buf)
	for _, t := range terms {
		if len(buf)-start == maxGroupTerms {
			break
		}
		dup := false
		for _, f := range buf[start:] {
			if f.term == t {
				dup = true
				break
			}
		}
		if !dup && t != "" {
			buf = append(buf, feature{group, t, 0})
		}
	}
	if n := len(buf) - start; n > 0 {
		v := 1 / math.Sqrt(float64(n))
		for i := start; i < len(buf); i++ {
			buf[i].value = v
		}
	}
	return buf
}

// URLTerms are the terms of a URL's group: "host:" and the host, the URL
// classes within the host (urlx.ClassChain: each directory, the file
// name's leading words), and "w:" and each word of the path. The host and
// classes tell where a page sits in a site; the words tell what its name
// says, wherever it sits.
func URLTerms(u string) []string {
	if u == "" {
		return nil
	}
	host := hostOf(u)
	out := []string{"host:" + host}
	if chain, err := urlx.ClassChain(u); err == nil {
		for _, c := range chain {
			if c != "/" {
				out = append(out, host+c)
			}
		}
	}
	for _, w := range urlx.PathWords(u) {
		if w != "html" && w != "htm" {
			out = append(out, "w:"+w)
		}
	}
	return out
}

// hostOf is the authority of an absolute URL, lower-cased, without user
// information: the name the URL classes are kept under. The docs' URLs
// are normalised already, so string slicing does what a parser would.
func hostOf(u string) string {
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	return strings.ToLower(rest)
}

// groupIndex returns the index of a group name, -1 when unknown.
func groupIndex(name string) int {
	for i, g := range Groups {
		if strings.EqualFold(g, name) {
			return i
		}
	}
	return -1
}
