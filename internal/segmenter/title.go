package segmenter

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/atom"
)

// titleSeparators split a <title> into the page title and site-name
// affixes ("Story – Site", "站点_栏目_标题").
var titleSeparators = regexp.MustCompile(`\s+[|\-–—:·»/\\]\s+|\s*[|｜_—–]{1,2}\s*|\s+::\s+|——|－|\s*-{2,}\s*`)

// headings gathers the texts that may state the title: og:title and
// twitter:title, then the h1 elements, then h2s with a title-like class.
func headings(body *node, h *head) []string {
	var out []string
	for _, k := range []string{"og:title", "twitter:title", "headline", "dc.title"} {
		if v := strings.TrimSpace(h.meta[k]); v != "" {
			out = append(out, v)
		}
	}
	var h1s, h2s []string
	walkElements(body, func(n *node) {
		switch n.tag {
		case atom.H1:
			if t := strings.TrimSpace(collapseSpace(flatText(n))); t != "" && len(h1s) < 3 {
				h1s = append(h1s, t)
			}
		case atom.H2, atom.H3:
			if strings.Contains(strings.ToLower(n.class+n.id), "title") {
				if t := strings.TrimSpace(collapseSpace(flatText(n))); t != "" && len(h2s) < 3 {
					h2s = append(h2s, t)
				}
			}
		}
	})
	return append(append(out, h1s...), h2s...)
}

// cleanTitle removes site-name affixes from the <title> by checking its
// parts against the page's headings (seed 002, §3.4.2: title versus the
// best heading); without a matching heading, the longest part wins when
// it is substantial.
func cleanTitle(title string, heads []string) string {
	title = strings.TrimSpace(title)
	if title == "" {
		if len(heads) > 0 {
			return heads[0]
		}
		return ""
	}
	nt := normTitle(title)
	parts := splitTitle(title)
	for _, h := range heads {
		nh := normTitle(h)
		if nh == "" {
			continue
		}
		if nh == nt {
			return title
		}
		for _, p := range parts {
			if normTitle(p) == nh {
				return p
			}
		}
		// The heading is the title minus affixes.
		if strings.Contains(nt, nh) && utf8.RuneCountInString(nh)*3 >= utf8.RuneCountInString(nt) {
			return h
		}
	}
	// Several parts joined may be the heading ("A - B | Site").
	for _, h := range heads {
		nh := normTitle(h)
		for i := range parts {
			for j := i + 2; j <= len(parts); j++ {
				if normTitle(strings.Join(parts[i:j], "")) == strings.ReplaceAll(nh, " ", "") {
					return h
				}
			}
		}
	}
	if len(parts) < 2 {
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
