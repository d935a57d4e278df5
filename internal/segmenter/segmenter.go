package segmenter

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/focuscrawl/focuscrawl/internal/extract"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/topic"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// Tokenizer turns text into terms; *text.Tokenizer satisfies it.
type Tokenizer interface {
	Tokens(s string) []string
}

// Defaults of the Options.
const (
	// DefaultHubRatio is μ, the anchor-text to other-text ratio above
	// which a page is a hub. docs/segment.md gives the measurements.
	DefaultHubRatio = 2.0
	// DefaultMaxBytes caps the HTML segmented per page (16 MiB); the rest
	// is cut at a tag boundary.
	DefaultMaxBytes = 16 << 20
	// DefaultContextLen is the longest link context, in characters.
	DefaultContextLen = 200
)

// Options configure a Segmenter. The zero value works.
type Options struct {
	// Tokenizer makes the tokens of title and content, and of anchors
	// with LinkTokens; nil: no tokens.
	Tokenizer Tokenizer
	// NoTokens leaves out the title and content tokens (anchors still get
	// theirs with LinkTokens).
	NoTokens bool
	// KeepHTML copies the page's HTML into the doc.
	KeepHTML bool
	// LinkTokens tokenizes every link's anchor text.
	LinkTokens bool
	// HubRatio is μ (0: DefaultHubRatio).
	HubRatio float64
	// Location is the time zone of dates without an offset. Nil means
	// +08:00 for Chinese pages and UTC for the others.
	Location *time.Location
	// LinkStopwords and AdHosts extend NavWords and AdHosts.
	LinkStopwords, AdHosts []string
	// Rules are per-site extraction rules (the profile's extract:); they
	// win over the generic ones.
	Rules []topic.ExtractRule
	// MaxBytes caps the HTML segmented per page (0: DefaultMaxBytes).
	MaxBytes int
	// Resolve makes a link absolute and normalised; nil: urlx.Resolve.
	Resolve func(base, ref string) (string, error)
	// Tuning overrides the content rules' thresholds (zero: defaults).
	Tuning Tuning
	// MaxLinks and MaxContextBytes bound a page's links and the bytes of
	// their contexts (0: DefaultMaxLinks, DefaultMaxContextBytes); the
	// doc counts what was dropped.
	MaxLinks, MaxContextBytes int
}

// Segmenter segments pages. It is safe for concurrent use.
type Segmenter struct {
	o Options
	// fastResolve: the default resolution, which simple references may
	// skip (resolver.join).
	fastResolve bool
	words       *linkWords
	rules       []*compiledRule
	fallback    *fallbackCounter
}

// ChinaTime is the default zone of Chinese pages without one: UTC+8.
var ChinaTime = time.FixedZone("+08:00", 8*3600)

// New builds a Segmenter. It fails when a site rule does not compile.
func New(o Options) (*Segmenter, error) {
	if o.HubRatio <= 0 {
		o.HubRatio = DefaultHubRatio
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	fast := o.Resolve == nil
	if o.Resolve == nil {
		o.Resolve = urlx.Resolve
	}
	sg := &Segmenter{o: o, fastResolve: fast, words: newLinkWords(o.LinkStopwords, o.AdHosts), fallback: &fallbackCounter{}}
	for i, r := range o.Rules {
		cr, err := compileRule(r)
		if err != nil {
			return nil, fmt.Errorf("extract rule %d (site %s): %w", i+1, r.Site, err)
		}
		sg.rules = append(sg.rules, cr)
	}
	return sg, nil
}

// page is one page being segmented.
type page struct {
	body    *node
	head    *head
	region  []*node
	inMain  map[*node]bool
	content string
	text    string // the whole visible text, for cues
	// from and to are the offsets in text where the content region
	// starts and ends (-1 without a region).
	from, to int
	zone     *extract.Zone // built on first use
	entry    *node         // the first of several dated entries, if the content is one
	zh       bool
}

// markedText is the text of body with the offsets where the region's
// first node starts and its last ends (-1, -1 without a region).
func markedText(body *node, region []*node) (text string, from, to int) {
	w := textWriter{from: -1, to: -1}
	w.sb.Grow(body.chars*3 + body.tags) // CJK runes are 3 bytes; a break per tag at most
	if len(region) > 0 {
		w.markFrom, w.markTo = region[0], region[len(region)-1]
	}
	render(&w, body, nil)
	return w.String(), w.from, w.to
}

// Segment turns a page into a doc. It never fails: problems are reported
// in the doc's Error field, with as much of the doc as could be made.
func (sg *Segmenter) Segment(p record.Page) record.Doc {
	d, _ := sg.segment(p)
	return d
}

// SegmentBlocks is Segment for --emit blocks: one record per block.
func (sg *Segmenter) SegmentBlocks(p record.Page) []record.BlockRecord {
	d, blocks := sg.segment(p)
	if d.Error != "" && len(blocks) == 0 {
		return []record.BlockRecord{{URL: p.URL, Error: d.Error, Meta: p.Meta}}
	}
	out := make([]record.BlockRecord, 0, len(blocks))
	byBlock := make(map[int][]record.Link, len(blocks))
	for _, l := range d.Links {
		byBlock[l.Block] = append(byBlock[l.Block], l)
	}
	for _, b := range blocks {
		out = append(out, record.BlockRecord{URL: d.URL, Block: b.record(), Links: byBlock[b.id], Meta: p.Meta})
	}
	return out
}

func (sg *Segmenter) segment(p record.Page) (d record.Doc, blocks []*block) {
	d = record.Doc{URL: p.URL, FinalURL: p.FinalURL, Status: p.Status, Lineage: p.Lineage, Meta: p.Meta}
	if sg.o.KeepHTML {
		d.HTML = p.HTML
	}
	defer func() {
		// A bug must not take the stream down: the page becomes an error.
		if r := recover(); r != nil {
			d.Error = fmt.Sprintf("segment: internal error: %v", r)
			blocks = nil
		}
	}()
	if p.Error != "" {
		d.Error = p.Error
		return d, nil
	}
	html := p.HTML
	if len(html) > sg.o.MaxBytes {
		html = cutHTML(html, sg.o.MaxBytes)
	}
	root, _, err := parseHTML(html)
	if err != nil {
		d.Error = err.Error()
		return d, nil
	}
	body, h := build(root)
	pg := &page{body: body, head: h}
	pageURL := p.FinalURL
	if pageURL == "" {
		pageURL = p.URL
	}

	region, entry := scoreCandidates(body).region(sg.o.Tuning.withDefaults())
	pg.region = region
	pg.entry = entry
	pg.inMain = map[*node]bool{}
	for _, n := range pg.region {
		pg.inMain[n] = true
	}
	pg.content = sg.contentText(pg.region)
	if entry == nil && len(region) > 0 && !sg.o.Tuning.NoKin {
		// The other parts of an article cut into several wrappers.
		if kin := kinParagraphs(paragraphsOf(body, region, false)); len(kin) > 0 {
			pg.content = renderWithKin(body, region, kin)
		}
	}
	pg.text, pg.from, pg.to = markedText(body, pg.region)

	// language reads at most 4,000 runes (8,000 bytes of Latin text).
	sample := strings.ToValidUTF8(pg.content[:min(len(pg.content), 12000)], "") + " " + h.title
	if len(pg.content) < 500 {
		sample += " " + strings.ToValidUTF8(pg.text[:min(len(pg.text), 4000)], "")
	}
	d.Lang = language(h.lang, sample)
	pg.zh = strings.HasPrefix(d.Lang, "zh") || language("", sample) == "zh"
	heads, metas, logos := headings(body, h, pg.region)
	d.Title = cleanTitle(h.title, heads, metas, siteNames(h, pageURL, logos))
	d.Keywords = h.keywords
	d.Description = h.description

	rs := newResolver(pageURL, h.base, sg.o.Resolve, sg.fastResolve)
	rs.budget = newLinkBudget(sg.o.MaxLinks, sg.o.MaxContextBytes)
	if h.canonical != "" {
		if c, ok := rs.target(h.canonical); ok {
			d.Canonical = c
		}
	}
	inMain := func(n *node) bool {
		for a := n; a != nil; a = a.parent {
			if pg.inMain[a] {
				return !prunedUnder(a, n, pg.content)
			}
		}
		return false
	}
	blocks = sg.collectBlocks(body, rs, inMain)
	sg.words.classify(blocks, d.Title)
	nLinks := 0
	for _, b := range blocks {
		nLinks += len(b.links)
	}
	if nLinks > 0 {
		d.Links = make([]record.Link, 0, nLinks)
	}
	if len(blocks) > 0 {
		d.Blocks = make([]record.Block, 0, len(blocks))
	}
	for _, b := range blocks {
		contexts := linkContexts(b.w.String(), b.links, DefaultContextLen)
		for i := range b.links {
			l := &b.links[i]
			l.link.Block = b.id
			l.link.Context = rs.budget.context(contexts[i])
			if sg.o.LinkTokens && sg.o.Tokenizer != nil && l.link.Anchor != "" {
				l.link.Tokens = sg.o.Tokenizer.Tokens(l.link.Anchor)
			}
			d.Links = append(d.Links, l.link)
		}
		d.Blocks = append(d.Blocks, b.record())
	}
	d.LinksDropped, d.ContextsDropped = rs.budget.dropped, rs.budget.contextsDropped
	d.Content = pg.content
	if entry == nil {
		// The first of several dated entries is the content by design.
		// The metadata rules read the first answer's region either way.
		d.Content = sg.secondOpinion(body, pg.content, sg.o.Tuning.withDefaults())
	}
	d.PageType = pageType(body, contentText(pg, d.Content), sg.o.HubRatio)

	loc := sg.o.Location
	if loc == nil {
		loc = time.UTC
		if pg.zh {
			loc = ChinaTime
		}
	}
	sg.metadata(&d, pg, loc)
	if r := sg.ruleFor(pageURL); r != nil {
		r.apply(&d, root, html, loc)
	}
	if sg.o.Tokenizer != nil && !sg.o.NoTokens {
		d.Tokens = sg.o.Tokenizer.Tokens(d.Title + "\n" + d.Content)
	}
	return d, blocks
}

// prunedUnder tells whether n lies in a subtree pruned from the content
// region rooted at a.
func prunedUnder(a, n *node, _ string) bool {
	pr := &pruner{regionChars: a.chars}
	for x := n; x != nil && x != a; x = x.parent {
		if !x.isText() && pr.skip(x) {
			return true
		}
	}
	return false
}

// contentText renders the content region without its noise.
func (sg *Segmenter) contentText(region []*node) string {
	total := 0
	for _, n := range region {
		total += n.chars
	}
	pr := &pruner{regionChars: total}
	var w textWriter
	w.sb.Grow(total*3 + 64)
	for _, n := range region {
		w.breakLine(2)
		render(&w, n, pr.skip)
	}
	return w.String()
}

// hubTeaser is the weighted length (CJK characters count three, as in
// Tuning.FallbackThin) of text of its own under which a page's content is
// a teaser, not an article: 100 Chinese characters, or 300 Latin letters.
const hubTeaser = 300

// textOwn measures the content's text outside links: its characters, and
// its length weighted as hubTeaser counts it.
type textOwn struct{ chars, weighted int }

// contentText measures the text of its own of the content found: the
// region's text outside links, or the second opinion's when it gave the
// content (prose paragraphs).
func contentText(pg *page, content string) textOwn {
	if len(pg.region) == 0 {
		c, _, cjk := countText(content)
		return textOwn{c, c + 2*cjk}
	}
	var t textOwn
	for _, n := range pg.region {
		t.chars += n.chars - n.linkChars
		t.weighted += n.chars - n.linkChars + 2*n.cjk
	}
	return t
}

// pageType is paper 1's (docs/algorithms.md §2) β_page rule: anchor characters over the other
// characters against μ. A page whose content has under hubTeaser of text of its own (a list of
// links with dates, or a teaser) and whose anchor characters pass μ times that text is a hub too:
// a home or channel page carries a teaser or two beside its menus, and the text of its headings
// and footer kept the first rule under μ.
func pageType(body *node, content textOwn, mu float64) string {
	if content.weighted < hubTeaser && float64(body.linkChars) > mu*float64(content.chars) {
		return "hub"
	}
	other := body.chars - body.linkChars
	if other <= 0 {
		if body.linkChars > 0 {
			return "hub"
		}
		return "topic"
	}
	if float64(body.linkChars)/float64(other) > mu {
		return "hub"
	}
	return "topic"
}

// HubRatio is β_page of an HTML page, for measuring μ.
func HubRatio(html string) (float64, error) {
	root, _, err := parseHTML(html)
	if err != nil {
		return 0, err
	}
	body, _ := build(root)
	other := body.chars - body.linkChars
	if other <= 0 {
		return float64(body.linkChars), nil
	}
	return float64(body.linkChars) / float64(other), nil
}

// language is the primary subtag of the lang attribute, or a guess from
// the script of the text: zh, ja, ko, or en for Latin text with English
// function words.
func language(attr, text string) string {
	if attr != "" {
		l := strings.ToLower(strings.TrimSpace(attr))
		if i := strings.IndexAny(l, "-_"); i > 0 {
			l = l[:i]
		}
		if l != "" && len(l) <= 3 {
			return l
		}
	}
	han, kana, hangul, latin := 0, 0, 0, 0
	n := 0
	for _, r := range text {
		if n > 4000 {
			break
		}
		n++
		switch {
		case r < 0x80: // ASCII and CJK Unified Ideographs first: most text
			if c := r | 0x20; c >= 'a' && c <= 'z' {
				latin++
			}
		case r >= 0x4e00 && r <= 0x9fff, unicode.Is(unicode.Han, r):
			han++
		case unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r):
			kana++
		case unicode.Is(unicode.Hangul, r):
			hangul++
		case r < 0x250 && unicode.IsLetter(r):
			latin++
		}
	}
	switch {
	case kana > 20 && kana*5 > han:
		return "ja"
	case hangul > 20:
		return "ko"
	case han > 20 && han*2 > latin/4:
		return "zh"
	case latin > 100:
		low := " " + strings.ToLower(text[:min(len(text), 8000)]) + " "
		hits := 0
		for _, w := range []string{" the ", " and ", " of ", " to ", " is ", " in "} {
			if strings.Contains(low, w) {
				hits++
			}
		}
		if hits >= 4 {
			return "en"
		}
	}
	return ""
}

// cutHTML cuts s to at most n bytes, before the last '<' so no tag is
// split, on a UTF-8 boundary.
func cutHTML(s string, n int) string {
	s = s[:n]
	if i := strings.LastIndexByte(s, '<'); i > n/2 {
		s = s[:i]
	}
	return strings.ToValidUTF8(s, "")
}

// HTMLText renders an HTML document or fragment as text, paragraphs
// separated by blank lines, the way the segmenter renders content.
func HTMLText(s string) string {
	root, _, err := parseHTML(s)
	if err != nil {
		return ""
	}
	body, _ := build(root)
	return plainText(body)
}
