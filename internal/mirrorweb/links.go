package mirrorweb

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/focuscrawl/focuscrawl/internal/charset"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// isHTML says whether a Content-Type names an HTML page.
func isHTML(contentType string) bool {
	ct := strings.ToLower(strings.TrimSpace(contentType))
	return strings.HasPrefix(ct, "text/html") || strings.HasPrefix(ct, "application/xhtml+xml")
}

// Links returns the normalised http(s) URLs an HTML page links to, in
// document order, each once: the targets of <a href>, <area href>,
// <frame src> and <iframe src>, resolved against <base href> when there
// is one, the same elements segment takes links from. Links marked
// rel=nofollow are left out, as seed add leaves them out by default. The
// body is decoded from its charset first (GBK pages too).
func Links(pageURL string, body []byte, contentType string) []string {
	text, _, _ := charset.Decode(body, contentType)
	z := html.NewTokenizer(strings.NewReader(text))
	base := pageURL
	seen := map[string]bool{}
	var out []string
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		a := atom.Lookup(name)
		var want string
		switch a {
		case atom.A, atom.Area, atom.Base:
			want = "href"
		case atom.Frame, atom.Iframe:
			want = "src"
		default:
			continue
		}
		var ref string
		var found, nofollow bool
		for hasAttr {
			var k, v []byte
			k, v, hasAttr = z.TagAttr()
			switch {
			case string(k) == want && !found:
				ref, found = strings.TrimSpace(string(v)), true
			case string(k) == "rel":
				for _, f := range bytes.Fields(bytes.ToLower(v)) {
					nofollow = nofollow || string(f) == "nofollow"
				}
			}
		}
		if !found || ref == "" {
			continue
		}
		if a == atom.Base {
			if b, err := urlx.Resolve(pageURL, ref); err == nil && base == pageURL {
				base = b
			}
			continue
		}
		if nofollow || strings.HasPrefix(ref, "#") {
			continue
		}
		u, err := urlx.Resolve(base, ref)
		if err != nil || seen[u] || u == pageURL {
			continue
		}
		seen[u] = true
		out = append(out, u)
	}
}
