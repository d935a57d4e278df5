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

// maxTitleRunes caps the title and the headings compared with it: no real
// title is longer, and the comparisons must stay cheap on garbage pages.
const maxTitleRunes = 1000

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
			if len(h1s) >= 3 {
				return
			}
			if t := strings.TrimSpace(collapseSpace(flatText(n))); t != "" {
				h1s = append(h1s, t)
			}
		case atom.H2, atom.H3:
			if len(h2s) < 3 && strings.Contains(strings.ToLower(n.class+n.id), "title") {
				if t := strings.TrimSpace(collapseSpace(flatText(n))); t != "" {
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
	title = strings.TrimSpace(truncRunes(title, maxTitleRunes))
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
