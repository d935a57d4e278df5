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
	// fast is set with the default resolution (urlx): references that
	// need no parser are joined to the normalised base directly, and the
	// others resolved against parsed, the base parsed once (or its error).
	fast     bool
	parsed   *urlx.Base
	parseErr error
	// baseOK says base is a normalised absolute URL (fast joins need it);
	// origin and dir are its scheme://host[:port] and path up to the last
	// '/', query the part before any '?'.
	baseOK            bool
	origin, dir, noQS string
	// seen caches the targets of the page's hrefs (menus repeat them).
	seen map[string]resolved
	// sites caches the site keys of the hosts linked to.
	sites map[string]string
	// budget bounds the page's links and their contexts.
	budget *linkBudget
}

type resolved struct {
	url string
	ok  bool
}

func newResolver(pageURL, baseHref string, resolve func(base, ref string) (string, error), fast bool) *resolver {
	r := &resolver{page: pageURL, base: pageURL, resolve: resolve, fast: fast, seen: map[string]resolved{},
		budget: newLinkBudget(0, 0)}
	if baseHref != "" {
		if b, err := resolve(pageURL, baseHref); err == nil {
			r.base = b
		}
	}
	r.site = siteKeyOf(r.page)
	if fast {
		if b, err := urlx.Normalize(r.base); err == nil {
			r.base = b
			r.baseOK = r.split()
		}
	}
	return r
}

// split cuts the normalised base into origin, directory and the URL
// without its query.
func (r *resolver) split() bool {
	i := strings.Index(r.base, "://")
	if i < 0 {
		return false
	}
	rest := r.base[i+3:]
	j := strings.IndexByte(rest, '/')
	if j < 0 {
		return false
	}
	r.origin = r.base[:i+3+j]
	r.noQS = r.base
	if q := strings.IndexAny(r.noQS, "?#"); q >= 0 {
		r.noQS = r.noQS[:q]
	}
	r.dir = r.noQS[:strings.LastIndexByte(r.noQS, '/')+1]
	return len(r.dir) >= len(r.origin)+1
}

// join resolves the references whose resolution is plain string work:
// absolute http(s) URLs, and relative ones of safe characters without dot
// segments, scheme-like first segments or authority ("//"). Everything
// else goes through the WHATWG parser.
func (r *resolver) join(href string) (string, bool) {
	low := href[:min(len(href), 8)]
	if strings.EqualFold(low, "https://") || strings.EqualFold(low[:min(len(low), 7)], "http://") {
		u, err := urlx.Normalize(href)
		return u, err == nil
	}
	if !r.baseOK || strings.HasPrefix(href, "//") || !safeRef(href) {
		return "", false
	}
	var abs string
	switch href[0] {
	case '/':
		abs = r.origin + href
	case '?':
		abs = r.noQS + href
	default:
		abs = r.dir + href
	}
	u, err := urlx.Normalize(abs)
	return u, err == nil
}

// safeRef: characters a URL keeps as they are, no backslash (a slash to
// WHATWG), no dot segment, no ':' before the first '/', '?' or '#' (it
// would be a scheme).
func safeRef(s string) bool {
	if end := strings.IndexAny(s, "/?#"); strings.IndexByte(s[:max(end, 0)], ':') >= 0 ||
		(end < 0 && strings.IndexByte(s, ':') >= 0) {
		return false
	}
	seg := true // at the start of a path segment
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			c == '-', c == '_', c == '~', c == '%', c == '=', c == '&', c == '+', c == ',',
			c == ';', c == '@', c == '!', c == ':':
		case c == '.':
			if seg && dotSegment(s[i:]) {
				return false
			}
		case c == '/':
			seg = true
			continue
		case c == '?' || c == '#':
			return true // the rest is query or fragment: Normalize checks it
		default:
			return false
		}
		seg = false
	}
	return true
}

// dotSegment tells whether s starts with a "." or ".." path segment.
func dotSegment(s string) bool {
	s = strings.TrimPrefix(s, ".")
	s = strings.TrimPrefix(s, ".")
	return s == "" || s[0] == '/' || s[0] == '?' || s[0] == '#'
}

// target resolves href, or reports ok=false for links to skip.
func (r *resolver) target(href string) (string, bool) {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "#") {
		return "", false
	}
	for _, s := range skippedSchemes {
		if hasPrefixFold(href, s) {
			return "", false
		}
	}
	if c, ok := r.seen[href]; ok {
		return c.url, c.ok
	}
	u, ok := "", false
	if r.fast {
		u, ok = r.join(href)
	}
	if !ok {
		var err error
		u, err = r.parse(href)
		ok = err == nil && (strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://"))
	}
	if !ok {
		u = ""
	}
	r.seen[href] = resolved{u, ok}
	return u, ok
}

// parse resolves href by the WHATWG parser: the Options' function, or with
// the default resolution urlx's against a base parsed on first use.
func (r *resolver) parse(href string) (string, error) {
	if !r.fast {
		return r.resolve(r.base, href)
	}
	if r.parsed == nil && r.parseErr == nil {
		r.parsed, r.parseErr = urlx.ParseBase(r.base)
	}
	if r.parseErr != nil {
		return "", r.parseErr
	}
	return r.parsed.Resolve(href)
}

// hasPrefixFold is strings.HasPrefix(strings.ToLower(s), prefix) for a
// lower-case ASCII prefix, without lower-casing all of s.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// siteOf is the site key of a link target u whose host is h (hostOf),
// cached per host: a page's links point to few hosts, and the
// public-suffix lookup is not free.
func (r *resolver) siteOf(u, h string) string {
	if k, ok := r.sites[h]; ok {
		return k
	}
	k := siteKeyOf(u)
	if r.sites == nil {
		r.sites = map[string]string{}
	}
	r.sites[h] = k
	return k
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
	if rs.budget.full() {
		rs.budget.drop(attr(n.el, key))
		return
	}
	u, ok := rs.target(attr(n.el, key))
	if !ok {
		return
	}
	rs.budget.kept++
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
	host := hostOf(u)
	l := record.Link{
		URL:      u,
		Anchor:   anchor,
		Block:    0,
		Internal: rs.site != "" && rs.siteOf(u, host) == rs.site,
		Nofollow: strings.Contains(rel, "nofollow") || strings.Contains(rel, "sponsored") || strings.Contains(rel, "ugc"),
		Tag:      n.name,
	}
	b.links = append(b.links, linkAt{link: l, host: host})
}

// flatText is the text under n on one line.
func flatText(n *node) string {
	if n.isText() {
		return n.text
	}
	var sb strings.Builder
	for _, k := range n.kids {
		t := flatText(k)
		if sb.Len() > 0 && k.isBlockLevel() && !k.isText() {
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
