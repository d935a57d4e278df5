package segmenter

import (
	"strings"

	"golang.org/x/net/html/atom"
)

// boilerLines are whole lines that are never content, lower case.
var boilerLines = map[string]bool{
	"advertisement": true, "advertisements": true, "sponsored": true, "sponsored content": true,
	"skip to content": true, "skip to main content": true, "share": true, "share this": true,
	"share this article": true, "share this story": true, "tweet": true, "email": true,
	"print": true, "comments": true, "read more": true, "related": true,
	"related articles": true, "related stories": true, "recommended": true,
	"广告": true, "分享到": true, "分享到：": true, "分享": true, "打印": true, "关闭窗口": true,
	"【打印】": true, "【关闭】": true, "返回顶部": true, "收藏": true, "推荐": true,
}

// pruner decides which subtrees inside the content region are noise.
type pruner struct {
	regionChars int
}

func (p *pruner) skip(n *node) bool { return p.reason(n) != keep }

// pruneReason says why a subtree inside the content region is dropped;
// the error analysis (Diagnose) counts the text lost to each.
type pruneReason uint8

const (
	keep           pruneReason = iota
	pruneStructure             // nav, aside, header, footer, menu, iframes
	pruneTitle                 // the h1: the title is its own field
	pruneRelated               // a related-stories section
	pruneFigure                // a figure or its caption
	pruneForm                  // a small form
	pruneClass                 // class/id words of noise
	pruneLinks                 // link density
	pruneBoiler                // a boilerplate line ("Share", "打印")
)

var pruneNames = [...]string{"kept", "structural tag", "h1 (title)", "related section",
	"figure/caption", "form", "noise class/id", "link density", "boilerplate line"}

func (r pruneReason) String() string { return pruneNames[r] }

func (p *pruner) reason(n *node) pruneReason {
	if neverContent[n.tag] || n.tag == atom.Iframe || n.tag == atom.Frameset {
		return pruneStructure
	}
	if n.tag == atom.H1 {
		return pruneTitle
	}
	if n.chars == 0 {
		return keep
	}
	switch n.tag {
	case atom.Div, atom.Section, atom.Article, atom.Aside, atom.Ul, atom.Ol, atom.Table:
		if introducesRelated(n) {
			return pruneRelated // a related-stories section, however long
		}
	}
	big := n.chars*2 > p.regionChars
	if !big && (n.tag == atom.Figcaption || n.tag == atom.Figure) {
		// A picture's caption and credit are not the running text (a
		// class-word rule for captions was measured too: aeb +0.006,
		// cleanportal −0.010, so it is not used).
		return pruneFigure
	}
	if n.tag == atom.Form && !big {
		return pruneForm
	}
	if !big && n.anyHint(hintPruned) && !n.idHint(hintPos) {
		return pruneClass
	}
	ld := n.linkDensity()
	switch n.tag {
	case atom.Div, atom.Section, atom.Ul, atom.Ol, atom.Table, atom.Dl, atom.Center, atom.Figure, atom.Tbody, atom.Article:
		if big {
			return keep
		}
		wl := weightedChars(n)
		if ld > 0.5 || (ld > 0.3 && wl < 300) || (ld > 0.2 && wl < 120 && classWeight(n) < 25) {
			return pruneLinks
		}
	case atom.P, atom.Li, atom.Dd, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Span, atom.Font, atom.Strong, atom.B:
		if ld > 0.9 && n.chars < 120 && n.tag != atom.Li {
			return pruneLinks
		}
		if n.chars < 40 && boilerLines[strings.ToLower(strings.TrimSpace(plainText(n)))] {
			return pruneBoiler
		}
	}
	return keep
}

// weightedChars counts CJK characters three times, like run.weightedLen.
func weightedChars(n *node) float64 {
	return float64(n.chars-n.linkChars) + 2*float64(n.cjk)
}
