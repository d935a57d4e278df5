package segmenter

import (
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"golang.org/x/net/html/atom"

	"github.com/focuscrawl/focuscrawl/internal/extract"
)

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

// classHint and idHint tell whether the node's class or id has the bit.
func (n *node) classHint(bit uint8) bool { return stringHints(n.class)&bit != 0 }
func (n *node) idHint(bit uint8) bool    { return stringHints(n.id)&bit != 0 }

// anyHint: the class or the id has the bit.
func (n *node) anyHint(bit uint8) bool { return n.classHint(bit) || n.idHint(bit) }

// classWeight is readability's class/id weight: ±25 per attribute.
func classWeight(n *node) float64 {
	w := 0.0
	for _, h := range [2]uint8{stringHints(n.class), stringHints(n.id)} {
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

// paragraphLike containers credit their parents, not themselves.
var paragraphLike = map[atom.Atom]bool{
	atom.P: true, atom.Pre: true, atom.H1: true, atom.H2: true, atom.H3: true,
	atom.H4: true, atom.H5: true, atom.H6: true, atom.Blockquote: true, atom.Li: true,
	atom.Dd: true, atom.Dt: true, atom.Figcaption: true, atom.Address: true,
}

// structural tags never hold the main content themselves.
var neverContent = map[atom.Atom]bool{
	atom.Nav: true, atom.Aside: true, atom.Footer: true, atom.Header: true,
	atom.Menu: true,
}

// run is the inline text directly inside one block-level container.
type run struct {
	chars, linkChars, commas int
	cjk                      int
}

// scorer holds the candidate scores of one page.
type scorer struct {
	root   *node
	runs   map[*node]*run
	scores map[*node]float64
}

// container is the nearest block-level ancestor of n (n itself if it is).
func container(n *node) *node {
	for p := n; p != nil; p = p.parent {
		if !p.isText() && p.isBlockLevel() {
			return p
		}
	}
	return nil
}

// collectRuns adds the text under n to the runs of its containers; c is
// the nearest block-level ancestor of n, passed down rather than searched
// for at every text node (inline nesting can be hundreds deep).
func collectRuns(n, c *node, runs map[*node]*run) {
	if n.isText() {
		if n.chars == 0 || c == nil {
			return
		}
		r := runs[c]
		if r == nil {
			r = &run{}
			runs[c] = r
		}
		r.chars += n.chars
		r.linkChars += n.linkChars
		r.commas += n.commas
		if !n.inLink {
			r.cjk += n.cjk
		}
		return
	}
	if neverContent[n.tag] && n.parent != nil {
		return
	}
	if n.isBlockLevel() {
		c = n
	}
	for _, k := range n.kids {
		collectRuns(k, c, runs)
	}
}

// weightedLen counts a CJK character as 3 Latin ones: a Chinese word is
// one or two characters, an English word five or six.
func (r *run) weightedLen() float64 {
	return float64(r.chars-r.linkChars) + 2*float64(r.cjk)
}

// scoreCandidates credits each text run's ancestors, readability style.
func scoreCandidates(body *node) *scorer {
	s := &scorer{root: body, runs: map[*node]*run{}, scores: map[*node]float64{}}
	var c *node
	if body.parent != nil {
		c = container(body.parent)
	}
	collectRuns(body, c, s.runs)
	for c, r := range s.runs {
		wl := r.weightedLen()
		if wl < 25 {
			continue
		}
		score := 1 + float64(r.commas) + min(wl/100, 3)
		start := c
		if paragraphLike[c.tag] {
			start = c.parent
		}
		level := 0
		for a := start; a != nil && level < 5; a = a.parent {
			if a.isText() {
				continue
			}
			if _, ok := s.scores[a]; !ok {
				s.scores[a] = tagBias(a.tag)
			}
			div := 1.0
			switch {
			case level == 1:
				div = 2
			case level > 1:
				div = float64(level) * 3
			}
			s.scores[a] += score / div
			level++
		}
	}
	// Class and id words scale the score rather than add to it, so a
	// small region with a promising name cannot beat the article.
	for n, v := range s.scores {
		f := 1.0
		switch w := classWeight(n); {
		case w > 0:
			f = 1.25
		case w < 0:
			f = 0.5
		}
		s.scores[n] = v * (1 - n.linkDensity()) * f
	}
	return s
}

// best is the top candidate, or nil when no text run was long enough.
func (s *scorer) best() *node {
	var top *node
	topScore := 0.0
	// Document order makes ties deterministic: the first one wins.
	walkElements(s.root, func(n *node) {
		v, ok := s.scores[n]
		if !ok || neverContent[n.tag] {
			return
		}
		if top == nil || v > topScore {
			top, topScore = n, v
		}
	})
	if top == nil {
		return nil
	}
	// When the article is cut into chunks with wrappers of their own, the
	// best chunk wins alone; an ancestor that holds clearly more text at a
	// similar score and link density is the article.
	best, bestScore := top, topScore
	a := top.parent
	for level := 0; a != nil && level < 4; level, a = level+1, a.parent {
		if a.tag == atom.Html || a.tag == atom.Body || a.el == nil || neverContent[a.tag] {
			break
		}
		as, ok := s.scores[a]
		if !ok {
			continue
		}
		if as >= bestScore*0.7 && a.chars-a.linkChars >= (best.chars-best.linkChars)*13/10 &&
			a.linkDensity() <= max(0.25, best.linkDensity()+0.1) {
			best, bestScore = a, max(as, bestScore)
		}
	}
	top = best
	return top
}

// contentRegion is the main content: the top candidate and the siblings
// that score alike or read as prose.
func (s *scorer) contentRegion(top *node) []*node {
	if top == nil {
		return nil
	}
	parent := top.parent
	if parent == nil {
		return []*node{top}
	}
	topScore := s.scores[top]
	threshold := max(10, topScore*0.2)
	var out []*node
	for _, sib := range parent.kids {
		if sib == top {
			out = append(out, sib)
			continue
		}
		if sib.isText() || neverContent[sib.tag] || introducesRelated(sib) {
			continue
		}
		bonus := 0.0
		if sib.class != "" && sib.class == top.class {
			bonus = topScore * 0.2
		}
		if v, ok := s.scores[sib]; ok && v+bonus >= threshold {
			out = append(out, sib)
			continue
		}
		if sib.tag == atom.P || sib.tag == atom.Blockquote || sib.tag == atom.Pre {
			ld := sib.linkDensity()
			wl := float64(sib.chars)
			if r := s.runs[sib]; r != nil {
				wl = r.weightedLen()
			}
			text := plainText(sib)
			if (wl > 80 && ld < 0.25) || (wl > 0 && ld == 0 && endsSentence(text)) {
				out = append(out, sib)
			}
		}
	}
	return out
}

// relatedHeadings are the headings of "more stories" sections, in the
// languages of the web's news and blogs, lower case, without trailing
// dots or colons.
var relatedHeadings = map[string]bool{
	"related": true, "related posts": true, "related articles": true, "related stories": true,
	"related content": true, "you may also like": true, "you might also like": true,
	"you may like": true, "more stories": true, "more from": true, "recommended": true,
	"recommended for you": true, "read next": true, "read more": true, "see also": true,
	"também pode gostar": true, "você pode gostar": true, "você também pode gostar": true,
	"veja também": true, "leia também": true, "posts relacionados": true,
	"artículos relacionados": true, "te puede interesar": true, "también te puede interesar": true,
	"lire aussi": true, "à lire aussi": true, "vous aimerez aussi": true, "articles similaires": true,
	"das könnte sie auch interessieren": true, "mehr zum thema": true, "ähnliche artikel": true,
	"leggi anche": true, "articoli correlati": true,
	"相关阅读": true, "相关文章": true, "相关新闻": true, "相关报道": true, "延伸阅读": true,
	"猜你喜欢": true, "推荐阅读": true, "热门推荐": true,
}

// introducesRelated tells whether a block opens with the heading of a
// related-stories section ("Você pode gostar...", h3.relatedposts): such
// a block is not merged into the article even when it looks like one.
func introducesRelated(n *node) bool {
	h := firstElementWithText(n, 4)
	if h == nil {
		return false
	}
	switch h.tag {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Header, atom.Strong, atom.B, atom.Span, atom.P, atom.Div:
	default:
		return false
	}
	if h.chars > 60 {
		return false
	}
	hint := strings.ToLower(h.class + " " + h.id)
	if strings.Contains(hint, "related") || strings.Contains(hint, "recommend") {
		return true
	}
	t := strings.ToLower(strings.TrimSpace(plainText(h)))
	t = strings.TrimRight(t, ".…:：!！ ")
	return relatedHeadings[t]
}

// firstElementWithText is the first element under n, within depth
// levels, whose own first child is text: the opening line of a block.
func firstElementWithText(n *node, depth int) *node {
	for _, k := range n.kids {
		if k.isText() {
			if k.chars > 0 {
				return n
			}
			continue
		}
		if k.chars == 0 {
			continue
		}
		if depth > 0 {
			return firstElementWithText(k, depth-1)
		}
		return nil
	}
	return nil
}

// firstEntry handles pages that list several dated entries of one
// structure (a blog's front page, a forum thread): the first entry is the
// page's content, not the longest. An entry is a sibling of the same tag
// and class with 200+ characters of text that opens with a short line
// holding a full date ("Post title | 2005-06-14 03:25:55"). Pages of one
// article are left alone: their parts do not each open with a date.
func (s *scorer) firstEntry(top *node) (content, entry *node) {
	if top == nil {
		return nil, nil
	}
	a := top
	for level := 0; a.parent != nil && level < 16; level, a = level+1, a.parent {
		if a.tag == atom.Body || a.tag == atom.Html {
			break
		}
		var entries []*node
		for _, sib := range a.parent.kids {
			if !sib.isText() && sib.tag == a.tag && sib.class == a.class && isDatedEntry(sib) {
				entries = append(entries, sib)
			}
		}
		if len(entries) < 2 || entries[0] == a || !isDatedEntry(a) {
			continue
		}
		// The best-scored node inside the first entry.
		var best *node
		bestScore := 0.0
		walkElements(entries[0], func(n *node) {
			if v, ok := s.scores[n]; ok && (best == nil || v > bestScore) && !neverContent[n.tag] {
				best, bestScore = n, v
			}
		})
		if best == nil {
			best = entries[0]
		}
		return best, entries[0]
	}
	return top, nil
}

// isDatedEntry: 200+ characters of own text, opening with a short line
// that holds a full date.
func isDatedEntry(n *node) bool {
	if n.chars-n.linkChars < 200 {
		return false
	}
	first := entryHeadline(n)
	if first == "" || utf8.RuneCountInString(first) > 100 {
		return false
	}
	d, ok := extract.ParseDate(first, nil)
	return ok && d.Prec >= extract.Day
}

// entryHeadline is the first line of text of n.
func entryHeadline(n *node) string {
	var w textWriter
	renderUntil(&w, n, 300)
	return firstTextLine(w.String())
}

// renderUntil renders n until the text holds limit bytes.
func renderUntil(w *textWriter, n *node, limit int) {
	if w.sb.Len() >= limit {
		return
	}
	if n.isText() {
		w.write(n.text)
		return
	}
	cell := n.tag == atom.Td || n.tag == atom.Th
	switch {
	case cell:
		if w.sb.Len() > 0 && w.pending == 0 {
			w.cell = true // the cells of a row stay on one line
		}
	case n.tag == atom.Br || n.isLine() || n.isBlockLevel():
		w.breakLine(1)
	}
	for _, k := range n.kids {
		if w.sb.Len() >= limit {
			return
		}
		renderUntil(w, k, limit)
	}
	switch {
	case cell:
		if w.pending == 0 {
			w.cell = true
		}
	case n.isBlockLevel() || n.isLine():
		w.breakLine(1)
	}
}

func firstTextLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

func endsSentence(t string) bool {
	t = strings.TrimSpace(t)
	for _, suf := range []string{".", "。", "!", "?", "！", "？", "\"", "”"} {
		if strings.HasSuffix(t, suf) {
			return true
		}
	}
	return false
}

// walkElements calls f on every element under n, n included, in document
// order.
func walkElements(n *node, f func(*node)) {
	if n.isText() {
		return
	}
	f(n)
	for _, k := range n.kids {
		walkElements(k, f)
	}
}
