package simweb

import (
	"bytes"
	"strconv"

	"github.com/focuscrawl/focuscrawl/internal/slicesx"
)

// render returns the UTF-8 HTML of page pi of s, its links carrying sid
// when the site puts session ids in URLs.
func (w *Web) render(s *site, pi int32, sid string) []byte {
	x := w.newRenderer(s, pi, sid, "page")
	defer bufPool.Put(x.b)
	switch x.p.kind {
	case pHome:
		x.home()
	case pList:
		x.list()
	case pArticle:
		x.article()
	case pProduct:
		x.product()
	case pThread:
		x.thread()
	case pStatic:
		x.static()
	case pTunnel:
		x.tunnelPage()
	case pFarm:
		x.farm()
	}
	return bytes.Clone(x.b.Bytes())
}

func (w *Web) newRenderer(s *site, pi int32, sid, what string) *renderer {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	x := &renderer{w: w, s: s, pi: pi, sid: sid, b: b, zh: s.lang == langZH}
	if pi >= 0 {
		x.p = s.pages[pi]
	} else {
		x.p = page{kind: pStatic, topic: noTopic}
	}
	x.r = w.pageRand(s, what, pi)
	x.g = &textGen{r: x.r, lang: s.lang, topic: int(x.p.topic), place: s.place}
	if pi >= 0 {
		x.g.focus = w.focusOf(s, pi, int(x.p.topic))
	}
	if s.kind == KindAuthority || s.kind == KindGovPortal {
		x.g.org = s.name
	}
	return x
}

func (x *renderer) start(title string, col int, crumb string) {
	x.head(title)
	x.topbar()
	x.nav()
	if x.p.kind != pHome {
		x.breadcrumb(col, crumb)
	}
}

func (x *renderer) home() {
	s := x.s
	x.start("", -1, "")
	if s.kind == KindLinkFarm {
		x.farmBody()
		x.footer()
		return
	}
	x.ws(`<div class="main">`, "\n")
	// Headline: the newest topical item with a summary.
	if len(s.topical) > 0 {
		pi := s.topical[len(s.topical)-1]
		x.ws(`<div class="headline"><h2>`)
		x.a(x.hrefOf(pi), x.w.itemTitle(s, pi))
		x.ws("</h2><p>", esc(x.w.textGenFor(s, "lead", pi, int(s.pages[pi].topic)).paragraph(2)), "</p></div>\n")
	}
	for ci, c := range s.cols {
		x.ws(`<div class="column" id="col-`, strconv.Itoa(ci), `"><h2>`)
		x.a(x.hrefOf(c.listFirst), c.name)
		more := "更多>>"
		if !x.zh {
			more = "More"
		}
		x.ws(` <span class="more">`)
		x.a(x.hrefOf(c.listFirst), more)
		x.ws("</span></h2>\n")
		x.itemList("list", x.latest(c, 6), s.kind != KindBookstore && s.kind != KindShop)
		x.ws("</div>\n")
	}
	x.ws("</div>\n")
	x.homeExtras()
	x.sidebar()
	x.footer()
}

// homeExtras writes what only home pages have: the subordinate units of an
// authority, a portal's site directory, a government portal's department
// links (the mouth of its tunnels).
func (x *renderer) homeExtras() {
	s := x.s
	if len(s.children) > 0 {
		h := "下级单位"
		if s.rank == "national" {
			h = "省级主管部门"
		}
		if !x.zh {
			h = "Regional offices"
		}
		x.ws(`<div class="units"><h3>`, h, "</h3><ul>")
		for _, c := range s.children {
			o := x.w.sites[c]
			x.ws("<li>")
			x.a(x.foreign(o, 0), o.name)
			x.ws("</li>")
		}
		x.ws("</ul></div>\n")
	}
	if s.kind == KindPortal {
		h := "网址导航"
		if !x.zh {
			h = "Around the web"
		}
		x.ws(`<div class="directory"><h3>`, h, "</h3><ul>")
		for _, f := range s.friends {
			o := x.w.sites[f]
			x.ws("<li>")
			if len(o.topical) > 0 && x.r.IntN(3) == 0 {
				pi := pick(x.r, o.topical)
				x.a(x.foreign(o, pi), x.w.itemTitle(o, pi))
			} else {
				x.a(x.foreign(o, 0), o.name)
			}
			x.ws("</li>")
		}
		x.ws("</ul></div>\n")
	}
	if s.kind == KindGovPortal {
		x.ws(`<div class="depts"><h3>部门网站</h3><ul>`)
		x.gatedLinks(1)
		x.ws("<li>")
		x.a(x.hrefOf(s.tunnelPage(2)), "更多部门网站")
		x.ws("</li></ul></div>\n")
	}
}

// channelSites writes the site directory of a portal channel: a hub of
// links to sites of the channel's topic.
func (x *renderer) channelSites(topic int) {
	pool := x.w.byTopic[topic]
	if len(pool) == 0 {
		return
	}
	h := "推荐网站"
	if !x.zh {
		h = "Recommended sites"
	}
	x.ws(`<div class="sites"><h3>`, h, "</h3><ul>")
	var ids []int32
	for i := 0; i < 10; i++ {
		ids = append(ids, int32(pick(x.r, pool)))
	}
	for _, id := range slicesx.Unique(ids) {
		o := x.w.sites[id]
		if competitors(x.s, o) || o == x.s {
			continue
		}
		x.ws("<li>")
		x.a(x.foreign(o, 0), o.name)
		x.ws("</li>")
	}
	x.ws("</ul></div>\n")
}

// gatedLinks writes links to the hidden sites whose tunnel ends at step.
func (x *renderer) gatedLinks(step int) {
	for i, id := range x.s.gated {
		if x.s.gateAt[i] != step {
			continue
		}
		o := x.w.sites[id]
		x.ws("<li>")
		x.a(x.foreign(o, 0), o.name)
		x.ws("</li>")
	}
}

func (s *site) tunnelPage(step int32) int32 { return s.index[tunnelPaths[step]] }

func (x *renderer) tunnelPage() {
	s := x.s
	step := x.p.num
	x.start(tunnelTitles[step], -1, tunnelTitles[step])
	x.ws(`<div class="main"><h1>`, tunnelTitles[step], "</h1>\n")
	x.ws("<p>", esc(x.g.paragraph(3)), "</p>\n<ul class=\"depts\">")
	x.gatedLinks(int(step))
	for _, f := range s.friends {
		o := x.w.sites[f]
		if o.kind == KindGovPortal || o.kind == KindAuthority {
			x.ws("<li>")
			x.a(x.foreign(o, 0), o.name)
			x.ws("</li>")
		}
	}
	if step < 4 {
		x.ws("<li>")
		x.a(x.hrefOf(s.tunnelPage(step+1)), tunnelTitles[step+1])
		x.ws("</li>")
	}
	x.ws("</ul></div>\n")
	x.sidebar()
	x.footer()
}

func (x *renderer) list() {
	s := x.s
	c := s.cols[x.p.col]
	x.start(x.w.pageTitle(s, x.pi), int(x.p.col), "")
	x.ws(`<div class="main"><h2 class="coltitle">`, esc(c.name), "</h2>\n")
	first := c.first + x.p.num*c.perPage
	last := min(first+c.perPage, c.first+c.n)
	var ids []int32
	// Newest first, as real list pages are.
	for i := c.first + c.n - 1 - (first - c.first); i >= c.first+c.n-(last-c.first); i-- {
		ids = append(ids, i)
	}
	x.itemList("list", ids, s.kind != KindBookstore && s.kind != KindShop)
	x.pagination(c)
	x.ws("</div>\n")
	if s.kind == KindPortal && x.p.num == 0 && c.topic >= 0 && !c.mixed {
		x.channelSites(c.topic)
	}
	x.sidebar()
	x.footer()
}

func (x *renderer) pagination(c column) {
	n := x.p.num
	if c.lists <= 1 {
		return
	}
	x.ws(`<div class="pages">`)
	lbl := [4]string{"首页", "上一页", "下一页", "尾页"}
	if !x.zh {
		lbl = [4]string{"First", "Previous", "Next", "Last"}
	}
	if n > 0 {
		x.a(x.hrefOf(c.listFirst), lbl[0])
		x.ws(" ")
		x.a(x.hrefOf(c.listFirst+n-1), lbl[1])
		x.ws(" ")
	}
	for i := max(0, n-3); i < min(c.lists, n+4); i++ {
		if i == n {
			x.ws(`<span class="current">`, strconv.Itoa(int(i+1)), "</span> ")
			continue
		}
		x.a(x.hrefOf(c.listFirst+i), strconv.Itoa(int(i+1)))
		x.ws(" ")
	}
	if n < c.lists-1 {
		x.a(x.hrefOf(c.listFirst+n+1), lbl[2])
		x.ws(" ")
		x.a(x.hrefOf(c.listFirst+c.lists-1), lbl[3])
	}
	x.ws("</div>\n")
}

// related picks the related items of item pi: mostly neighbours in the
// same column (sibling locality), a few elsewhere on the site.
func (x *renderer) related(n int) []int32 {
	s := x.s
	c := s.cols[x.p.col]
	var ids []int32
	for i := 0; i < n*2 && len(ids) < n; i++ {
		var pi int32
		if i%4 == 3 && len(s.items) > 0 {
			pi = pick(x.r, s.items)
		} else {
			off := int32(x.r.IntN(21)) - 10
			pi = x.pi + off
			if pi < c.first || pi >= c.first+c.n {
				continue
			}
		}
		if pi != x.pi {
			ids = append(ids, pi)
		}
	}
	return slicesx.Unique(ids)
}

// externalRelated picks items of other sites on the page's topic: the
// linkage locality of the web.
func (x *renderer) externalRelated(n int) (urls, titles []string) {
	t := int(x.p.topic)
	for i := 0; i < n; i++ {
		var o *site
		if t >= 0 && x.r.IntN(4) != 0 {
			// A friend of the same topic first, else any open site of the topic.
			var same []int
			for _, f := range x.s.friends {
				if x.w.sites[f].topic == t {
					same = append(same, f)
				}
			}
			if len(same) > 0 && x.r.IntN(3) != 0 {
				o = x.w.sites[pick(x.r, same)]
			} else if pool := x.w.byTopic[t]; len(pool) > 0 {
				o = x.w.sites[pick(x.r, pool)]
			}
		} else if len(x.s.friends) > 0 {
			o = x.w.sites[pick(x.r, x.s.friends)]
		}
		if o == nil || o == x.s || competitors(x.s, o) || len(o.items) == 0 || o.kind == KindAds {
			continue
		}
		var pi int32
		if len(o.topical) > 0 && (t == o.topic) {
			pi = pick(x.r, o.topical)
		} else {
			pi = pick(x.r, o.items)
		}
		urls = append(urls, x.foreign(o, pi))
		titles = append(titles, x.w.itemTitle(o, pi))
	}
	return urls, titles
}

func (x *renderer) relatedBlock() {
	ids := x.related(6)
	urls, titles := x.externalRelated(between(x.r, 0, 3))
	if x.zh {
		x.ws(`<div class="related"><h3>相关链接</h3><ul>`)
	} else {
		x.ws(`<div class="related"><h3>Related</h3><ul>`)
	}
	for _, pi := range ids {
		x.ws("<li>")
		x.a(x.hrefOf(pi), x.w.itemTitle(x.s, pi))
		x.ws("</li>")
	}
	for i := range urls {
		x.ws("<li>")
		x.a(urls[i], titles[i])
		x.ws("</li>")
	}
	x.ws("</ul></div>\n")
}
