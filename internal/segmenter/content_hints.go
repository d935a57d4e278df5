package segmenter

import (
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/net/html/atom"
)

// Readability's first weights of a candidate: the hints its class and id
// give, and its tag.

// Class and id words that speak for or against a region being content.
var (
	positiveHint = regexp.MustCompile(`(?i)article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story|detail|zhengwen|neirong|正文|内容`)
	negativeHint = regexp.MustCompile(`(?i)-ad-|^ad-|^ads?$|ad_|banner|breadcrumb|combx|comment|communit|contact|disqus|extra|foot|footer|footnote|gdpr|masthead|media|meta|outbrain|promo|related|remark|replies|reply|rss|scroll|shar|shopping|sidebar|skyscraper|sponsor|tag-?cloud|taboola|tool|widget|subscribe|newsletter|social|popup|modal|cookie|recommend|pagination|pager|byline|author-?bio|signup|login|copyright|jump|nav|menu|hot|rank|paihang|xiangguan|tuijian|share|bdshare`)
	// prunedHint marks regions dropped from inside the main content.
	prunedHint = regexp.MustCompile(`(?i)(^|[-_ ])(share|sharing|social|related|recommend|comments?|disqus|newsletter|subscribe|signup|promo|sponsor|advert|ads?|ad-slot|adsbygoogle|banner|breadcrumbs?|pagination|pager|tags|tag-?list|author-?bio|bio|byline|toolbar|tools|print|popup|modal|cookie|outbrain|taboola|nav|navigation|menu|sidebar|widget|footer|more-stories|read-more|readmore|next-prev|prev-next|jiathis|bdshare|xiangguan|tuijian|copyright)([-_ ]|$)`)
)

// Hint bits of a class or id string.
const (
	hintNeg uint8 = 1 << iota
	hintPos
	hintPruned
	hintAd
	hintNav
	hintFooter
)

// hintMemo remembers the hint bits of class and id strings across pages
// (sites repeat them on every page): the regexps are the slow part. It
// stops growing at hintMemoMax entries.
var (
	hintMemo     sync.Map // string -> uint8
	hintMemoSize atomic.Int64
)

const hintMemoMax = 1 << 16

// maxHintBytes bounds the part of a class or id string the hint regexps
// read: every block asks for its hints several times, and a page can carry
// a megabyte-long class attribute (an unclosed quote swallows the rest of
// the page), which made each call cost as much as the page.
const maxHintBytes = 512

// hintBytesRead counts the bytes given to the hint regexps, for the test
// that holds their work bounded.
var hintBytesRead atomic.Int64

func stringHints(s string) uint8 {
	if s == "" {
		return 0
	}
	if len(s) > maxHintBytes {
		// Cut at the last space within the bound, so no word is cut in two.
		cut := s[:maxHintBytes]
		if i := strings.LastIndexByte(cut, ' '); i > 0 {
			cut = cut[:i]
		}
		s = cut
	}
	if v, ok := hintMemo.Load(s); ok {
		return v.(uint8)
	}
	hintBytesRead.Add(int64(len(s)))
	var h uint8
	for _, c := range []struct {
		bit uint8
		re  *regexp.Regexp
	}{
		{hintNeg, negativeHint}, {hintPos, positiveHint}, {hintPruned, prunedHint},
		{hintAd, adHint}, {hintNav, navHint}, {hintFooter, footerHint},
	} {
		if c.re.MatchString(s) {
			h |= c.bit
		}
	}
	if len(s) <= 256 && hintMemoSize.Add(1) <= hintMemoMax {
		hintMemo.Store(strings.Clone(s), h)
	}
	return h
}

// hints is the hint bits of the node's class and of its id. They are read
// once and kept on the node: the content, pruning and block rules ask
// for them again and again, and even a memoised lookup is a hash of the
// string (long class lists are not memoised at all).
func (n *node) hints() (class, id uint8) {
	if !n.hintsRead {
		n.classHints, n.idHints, n.hintsRead = stringHints(n.class), stringHints(n.id), true
	}
	return n.classHints, n.idHints
}

// classHint and idHint tell whether the node's class or id has the bit.
func (n *node) classHint(bit uint8) bool { c, _ := n.hints(); return c&bit != 0 }
func (n *node) idHint(bit uint8) bool    { _, id := n.hints(); return id&bit != 0 }

// anyHint: the class or the id has the bit.
func (n *node) anyHint(bit uint8) bool { return n.classHint(bit) || n.idHint(bit) }

// classWeight is readability's class/id weight: ±25 per attribute.
func classWeight(n *node) float64 {
	w := 0.0
	class, id := n.hints()
	for _, h := range [2]uint8{class, id} {
		if h&hintNeg != 0 {
			w -= 25
		}
		if h&hintPos != 0 {
			w += 25
		}
	}
	return w
}

// tagBias is readability's initial score by tag.
func tagBias(a atom.Atom) float64 {
	switch a {
	case atom.Div, atom.Article, atom.Main, atom.Section:
		return 5
	case atom.Pre, atom.Td, atom.Blockquote:
		return 3
	case atom.Address, atom.Ol, atom.Ul, atom.Dl, atom.Dd, atom.Dt, atom.Li, atom.Form:
		return -3
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Th:
		return -5
	}
	return 0
}
