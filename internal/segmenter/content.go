package segmenter

import (
	"strings"

	"golang.org/x/net/html/atom"
)

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
// When the top one lies in a subtree of noise (inNoise: a comment
// thread, a sidebar, a widget), the best candidate outside noise takes
// its place, if there is one below the body: a reader's long comment
// can outscore an article of short paragraphs, but it is not the page's
// content. noiseToo turns that off.
func (s *scorer) best(noiseToo bool) *node {
	top, topScore := s.topCandidate(nil)
	if top == nil {
		return nil
	}
	if !noiseToo && s.inNoise(top) {
		if alt, v := s.topCandidate(s.outsideNoise); alt != nil {
			top, topScore = alt, v
		}
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

// topCandidate is the best-scored candidate for which ok holds (any,
// when ok is nil). Document order makes ties deterministic: the first
// one wins.
func (s *scorer) topCandidate(ok func(*node) bool) (top *node, topScore float64) {
	walkElements(s.root, func(n *node) {
		v, scored := s.scores[n]
		if !scored || neverContent[n.tag] || (top != nil && v <= topScore) {
			return
		}
		if ok == nil || ok(n) {
			top, topScore = n, v
		}
	})
	return top, topScore
}

// outsideNoise: n is a part of the page (below the body) outside noise.
func (s *scorer) outsideNoise(n *node) bool {
	return n != s.root && n.el != nil && n.tag != atom.Body && n.tag != atom.Html && !s.inNoise(n)
}

// inNoise tells whether n or an ancestor below the body is a subtree the
// pruner drops by its class or id (comments, sidebar, widget, related:
// prunedHint, with no content word) and holds at most half of the page's
// text: a wrapper of most of the page is the page, whatever its class.
func (s *scorer) inNoise(n *node) bool {
	for a := n; a != nil && a != s.root && !a.isText(); a = a.parent {
		if a.chars*2 <= s.root.chars && a.anyHint(hintPruned) && !a.anyHint(hintPos) {
			return true
		}
	}
	return false
}

// region chooses the content region: the best candidate, or the first of
// several dated entries, grown into its prose ancestors (not an entry),
// with the siblings that belong to it. entry is the dated entry, if any.
func (s *scorer) region(t Tuning) (region []*node, entry *node) {
	top, entry := s.firstEntry(s.best(t.NoiseCandidates))
	if entry == nil {
		top = s.extend(top, t)
	}
	return s.contentRegion(top), entry
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

// commentHeadings are the headings of readers' comment sections, lower
// case, without a count ("12 Comments", "Comments (3)") or trailing dots
// and colons.
var commentHeadings = map[string]bool{
	"comment": true, "comments": true, "reader comments": true, "readers' comments": true,
	"leave a comment": true, "leave a reply": true, "post a comment": true, "add a comment": true,
	"add your comment": true, "your comments": true, "comments are closed": true,
	"comments are now closed": true, "join the discussion": true, "discussion": true,
	"responses": true, "have your say": true,
	"评论": true, "网友评论": true, "发表评论": true, "读者评论": true,
}

// introducesRelated tells whether a block opens with the heading of a
// related-stories section ("Você pode gostar...", h3.relatedposts) or of
// readers' comments ("12 Comments", "Leave a reply"): such a block is not
// merged into the article even when it looks like one.
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
	return relatedHeadings[t] || commentHeadings[strings.Trim(t, "0123456789() ")]
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
