package segmenter

import (
	"net/url"
	"strings"

	"golang.org/x/net/html/atom"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// skippedSchemes are links that lead to no page.
var skippedSchemes = []string{"javascript:", "mailto:", "tel:", "data:", "about:", "vbscript:", "sms:", "callto:"}

// resolver makes link targets absolute against the page (or its <base
// href>) and tells internal from external links by site key.
type resolver struct {
	base    string
	page    string
	site    string
	resolve func(base, ref string) (string, error)
}

func newResolver(pageURL, baseHref string, resolve func(base, ref string) (string, error)) *resolver {
	r := &resolver{page: pageURL, base: pageURL, resolve: resolve}
	if baseHref != "" {
		if b, err := resolve(pageURL, baseHref); err == nil {
			r.base = b
		}
	}
	r.site = siteKeyOf(r.page)
	return r
}

// target resolves href, or reports ok=false for links to skip.
func (r *resolver) target(href string) (string, bool) {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "#") {
		return "", false
	}
	low := strings.ToLower(href)
	for _, s := range skippedSchemes {
		if strings.HasPrefix(low, s) {
			return "", false
		}
	}
	u, err := r.resolve(r.base, href)
	if err != nil {
		return "", false
	}
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return "", false
	}
	return u, true
}

// siteKeyOf is the site key (registrable domain) of a URL.
func siteKeyOf(raw string) string { return urlx.SiteKey(raw) }

func hostOf(raw string) string {
	// Links are absolute and normalised: the host sits between "://" and
	// the next '/', '?' or '#', after any userinfo, before any port.
	if i := strings.Index(raw, "://"); i > 0 {
		h := raw[i+3:]
		if j := strings.IndexAny(h, "/?#"); j >= 0 {
			h = h[:j]
		}
		if !strings.ContainsAny(h, "@[%\\") {
			if j := strings.LastIndexByte(h, ':'); j >= 0 {
				h = h[:j]
			}
			return strings.ToLower(h)
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// addLink records the link of element n (a, area, frame, iframe) in b.
func (sg *Segmenter) addLink(b *block, n *node, rs *resolver) {
	if rs == nil || n.el == nil {
		return
	}
	key := "href"
	if n.tag == atom.Frame || n.tag == atom.Iframe {
		key = "src"
	}
	u, ok := rs.target(attr(n.el, key))
	if !ok {
		return
	}
	anchor := strings.TrimSpace(collapseSpace(flatText(n)))
	if anchor == "" {
		anchor = strings.TrimSpace(collapseSpace(imageAlt(n)))
	}
	if anchor == "" {
		anchor = strings.TrimSpace(collapseSpace(attr(n.el, "title")))
	}
	if anchor == "" && n.tag == atom.Area {
		anchor = strings.TrimSpace(collapseSpace(attr(n.el, "alt")))
	}
	rel := strings.ToLower(attr(n.el, "rel"))
	l := record.Link{
		URL:      u,
		Anchor:   anchor,
		Block:    0,
		Internal: rs.site != "" && siteKeyOf(u) == rs.site,
		Nofollow: strings.Contains(rel, "nofollow") || strings.Contains(rel, "sponsored") || strings.Contains(rel, "ugc"),
		Tag:      n.name,
	}
	b.links = append(b.links, linkAt{link: l})
}

// flatText is the text under n on one line.
func flatText(n *node) string {
	if n.isText() {
		return n.text
	}
	var sb strings.Builder
	for _, k := range n.kids {
		t := flatText(k)
		if sb.Len() > 0 && blockLevel[k.tag] && !k.isText() {
			sb.WriteByte(' ')
		}
		sb.WriteString(t)
	}
	return sb.String()
}

// imageAlt is the alt text of the first image under n.
func imageAlt(n *node) string {
	if n.tag == atom.Img && n.el != nil {
		return attr(n.el, "alt")
	}
	for _, k := range n.kids {
		if !k.isText() {
			if a := imageAlt(k); a != "" {
				return a
			}
		}
	}
	return ""
}
