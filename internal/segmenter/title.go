package segmenter

import (
	"net/url"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/atom"
)

// titleSeparators split a <title> into the page title and site-name
// affixes ("Story – Site", "站点_栏目_标题").
var titleSeparators = regexp.MustCompile(`\s+[|\-–—:·»/\\]\s+|\s*[|｜_—–]{1,2}\s*|\s+::\s+|——|－|\s*-{2,}\s*`)

// maxTitleRunes caps the title and the headings compared with it: no real
// title is longer, and the comparisons must stay cheap on garbage pages.
const maxTitleRunes = 1000

// logoHint marks a heading that names the site rather than the page.
var logoHint = regexp.MustCompile(`(?i)logo|brand|site-?(name|title)|masthead|banner`)

// headings gathers the texts that may state the title: the h1 inside or
// just above the content region, og:title, twitter:title and the JSON-LD
// headline, then the other h1 elements nearest the content region first (one inside it or the last one before it is
// the article's heading; one far above it is often the site's logo), then
// h2s and h3s with a title-like class. A heading that reads as the site's
// logo (a logo/brand class, or its text all one link to the site's root)
// comes last and is returned apart in logos.
func headings(body *node, h *head, region []*node) (heads, metas, logos []string) {
	for _, k := range []string{"og:title", "twitter:title", "headline", "dc.title"} {
		if v := strings.TrimSpace(h.meta[k]); v != "" {
			metas = append(metas, v)
		}
	}
	type h1 struct {
		text string
		dist int
	}
	var h1s []h1
	var h2s []string
	inRegion := map[*node]bool{}
	for _, n := range region {
		inRegion[n] = true
	}
	pos, start := 0, -1
	depthIn := 0
	var walk func(n *node)
	walk = func(n *node) {
		if n.isText() {
			return
		}
		pos++
		if inRegion[n] {
			if start < 0 {
				start = pos
			}
			depthIn++
		}
		switch n.tag {
		case atom.H1:
			if len(h1s) < 8 {
				if t := strings.TrimSpace(collapseSpace(flatText(n))); t != "" {
					if isLogoHeading(n) {
						logos = append(logos, t)
					} else {
						d := pos // after the region or with no region: document order
						switch {
						case depthIn > 0:
							d = -1 << 20
						case start < 0 && len(region) > 0:
							d = -pos // before the region: the nearest first
						}
						h1s = append(h1s, h1{t, d})
					}
				}
			}
			return
		case atom.H2, atom.H3:
			if len(h2s) < 3 && strings.Contains(strings.ToLower(n.class+n.id), "title") {
				if t := strings.TrimSpace(collapseSpace(flatText(n))); t != "" {
					h2s = append(h2s, t)
				}
			}
		}
		for _, k := range n.kids {
			walk(k)
		}
		if inRegion[n] {
			depthIn--
		}
	}
	walk(body)
	sort.SliceStable(h1s, func(i, j int) bool { return h1s[i].dist < h1s[j].dist })
	// The heading inside or just above the content first, then the
	// metadata titles, then the other headings.
	if len(h1s) > 0 && len(region) > 0 && h1s[0].dist <= 0 {
		heads = append(heads, h1s[0].text)
		h1s = h1s[1:]
	}
	heads = append(heads, metas...)
	for _, x := range h1s {
		heads = append(heads, x.text)
	}
	heads = append(heads, h2s...)
	return heads, metas, logos
}

// isLogoHeading: the heading (or a wrapper within two levels) has a
// logo/brand class or id, or its text is all one link.
func isLogoHeading(n *node) bool {
	for a, i := n, 0; a != nil && i < 3; a, i = a.parent, i+1 {
		if logoHint.MatchString(a.class) || logoHint.MatchString(a.id) {
			return true
		}
	}
	return n.chars > 0 && n.linkChars == n.chars && hasRootLink(n)
}

// hasRootLink: n holds a link to the site's front page ("/", "./",
// "index.html" or a bare host).
func hasRootLink(n *node) bool {
	found := false
	walkElements(n, func(k *node) {
		if k.tag != atom.A || k.el == nil || found {
			return
		}
		href := strings.TrimSpace(attr(k.el, "href"))
		switch {
		case href == "/" || href == "./" || href == "" || strings.HasPrefix(strings.ToLower(href), "/index."):
			found = true
		default:
			if i := strings.Index(href, "://"); i >= 0 {
				rest := strings.TrimRight(href[i+3:], "/")
				found = !strings.Contains(rest, "/")
			}
		}
	})
	return found
}

// cleanTitle removes site-name affixes from the <title> by checking its
// parts against the page's headings (paper 2 (docs/algorithms.md §3), §3.4.2: title versus the
// best heading); without a matching heading, the longest part wins when
// it is substantial.
func cleanTitle(title string, heads, metas, siteNames []string) string {
	// A broken byte in the title (U+FFFD after decoding) is no part of it.
	title = strings.TrimSpace(strings.ReplaceAll(truncRunes(title, maxTitleRunes), "\uFFFD", ""))
	for i, h := range heads {
		heads[i] = truncRunes(h, maxTitleRunes)
	}
	if title == "" {
		if len(heads) > 0 {
			return heads[0]
		}
		return ""
	}
	nt := normTitle(title)
	parts := splitTitle(title)
	site := map[string]bool{}
	for _, n := range siteNames {
		if v := normTitle(n); v != "" {
			site[v] = true
		}
	}
	// A heading that is the title minus affixes wins over one that
	// repeats the whole title (og:title often carries the site's name).
	whole := false
	for _, h := range heads {
		nh := normTitle(h)
		if nh == "" || (site[nh] && nh != nt) {
			continue // the site's name is not the page's title
		}
		if nh == nt {
			whole = true
			continue
		}
		for _, p := range parts {
			if normTitle(p) == nh {
				return p
			}
		}
		// The heading is the title minus affixes; a heading that only
		// ends the title after a substantial rest is the site's name
		// ("土豆不“土” 土豆无“土” 松花江网" with the logo h1 松花江网).
		if strings.HasSuffix(nt, nh) && nh != nt && substantial(strings.TrimSuffix(nt, nh)) {
			if rest := strings.TrimSpace(strings.TrimSuffix(title, strings.TrimSpace(h))); rest != title && rest != "" {
				return strings.TrimRight(rest, " -–—|_·»:")
			}
			continue
		}
		if strings.Contains(nt, nh) && utf8.RuneCountInString(nh)*3 >= utf8.RuneCountInString(nt) {
			return h
		}
	}
	if whole {
		return title
	}
	// A metadata title (og:title, JSON-LD headline) that agrees with a
	// heading of the page is the title even when the <title> says
	// something else; two equal h1s alone are not (a repeated logo).
	for _, m := range metas {
		nm := normTitle(m)
		if nm == "" || site[nm] {
			continue
		}
		inHeads, inMetas := 0, 0
		for _, h := range heads {
			if normTitle(h) == nm {
				inHeads++
			}
		}
		for _, h := range metas {
			if normTitle(h) == nm {
				inMetas++
			}
		}
		if inHeads > inMetas { // a heading of the page says it too
			return m
		}
	}
	// Several parts joined may be the heading ("A - B | Site"). The
	// joined parts grow one part at a time and stop once longer than the
	// heading, so a title of thousands of parts costs parts × heading,
	// not parts³.
	normParts := make([]string, len(parts))
	for i, p := range parts {
		normParts[i] = normTitle(p)
	}
	for _, h := range heads {
		nh := strings.ReplaceAll(normTitle(h), " ", "")
		if nh == "" {
			continue
		}
		for i := range normParts {
			joined := normParts[i]
			for j := i + 1; j < len(normParts) && len(joined) < len(nh); j++ {
				joined += normParts[j]
				if joined == nh {
					return h
				}
			}
		}
	}
	if len(parts) < 2 {
		return title
	}
	// Parts that name the site go: the rest, when it is one part, is the
	// title ("Little Roads | Willow Bookshop", "标题_栏目_站点").
	var rest []string
	for _, p := range parts {
		if !site[normTitle(p)] && !sitePart(p, siteNames) {
			rest = append(rest, p)
		}
	}
	if len(rest) == 1 && len(rest) < len(parts) {
		return rest[0]
	}
	if v := leadingTitle(title); v != "" {
		return v
	}
	if len(affixSeparators.Split(title, -1)) == 1 && !strings.Contains(title, "——") {
		// Only unspaced dashes: a range ("1500–2000") or a compound, not
		// an affix.
		return title
	}
	best := ""
	for _, p := range parts {
		if utf8.RuneCountInString(p) > utf8.RuneCountInString(best) {
			best = p
		}
	}
	if substantial(best) {
		return best
	}
	return title
}

// affixSeparators are the separators content systems put between a
// page's title and its section and site names ("标题_栏目_站点", "Story |
// Site", "Story - Section - Site"); a dash counts only with spaces round
// it, so "1500–2000" and a subtitle after "——" stay inside the title.
var affixSeparators = regexp.MustCompile(`\s*[_|｜]\s*|\s+[-–—»·:]\s+|\s*-{2,}\s*`)

// leadingTitle is the first part of a <title> whose later parts all read
// as short names (sections, the site): at most 15 characters or 4 words
// each, while the first is substantial, or at least longer than each of
// them. "" when the title is not built so.
func leadingTitle(title string) string {
	parts := affixSeparators.Split(title, -1)
	if len(parts) < 2 {
		return ""
	}
	first := strings.TrimSpace(parts[0])
	n := utf8.RuneCountInString(first)
	if n < 4 {
		return ""
	}
	for _, p := range parts[1:] {
		p = strings.TrimSpace(p)
		if !substantial(first) && utf8.RuneCountInString(p) >= n {
			return "" // a short first part must at least be the longest
		}
		if utf8.RuneCountInString(p) > 15 && len(strings.Fields(p)) > 4 {
			return ""
		}
		if utf8.RuneCountInString(p) > 30 {
			return ""
		}
	}
	return first
}

// sitePart: the part is, letters only, a host name among siteNames
// ("willowbookshop" in www.willowbookshop.com).
func sitePart(p string, siteNames []string) bool {
	np := strings.ReplaceAll(normTitle(p), "-", "")
	if utf8.RuneCountInString(np) < 4 {
		return false
	}
	for _, n := range siteNames {
		if strings.Contains(n, ".") && strings.Contains(strings.ToLower(n), np) {
			return true
		}
	}
	return false
}

// substantial: at least 3 Latin words or 5 CJK characters.
func substantial(s string) bool {
	cjk := 0
	for _, r := range s {
		if isCJK(r) {
			cjk++
		}
	}
	return cjk >= 5 || len(strings.Fields(s)) >= 3
}

func splitTitle(t string) []string {
	var parts []string
	for _, p := range titleSeparators.Split(t, -1) {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	return parts
}

// normTitle lower-cases and drops white space and punctuation.
func normTitle(s string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(s) {
		if isSpace(r) || strings.ContainsRune("\"'“”‘’«»「」『』《》【】[]()（）!！?？.,，。:：;；", r) {
			continue
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// siteNames are the names a page gives its site: og:site_name,
// application-name, the logo headings, and the page's host.
func siteNames(h *head, pageURL string, logos []string) []string {
	out := append([]string(nil), logos...)
	for _, k := range []string{"og:site_name", "application-name"} {
		if v := strings.TrimSpace(h.meta[k]); v != "" {
			out = append(out, v)
		}
	}
	if u, err := url.Parse(pageURL); err == nil && u.Host != "" {
		out = append(out, strings.TrimPrefix(strings.ToLower(u.Hostname()), "www."))
	}
	return out
}
