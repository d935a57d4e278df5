package simweb

import (
	"bytes"
	"fmt"
	"strconv"
	"time"
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
	for _, id := range dedupe(ids) {
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
	return dedupe(ids)
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

// byline gives the author and source of an article.
func (x *renderer) byline() (author, source string) {
	author = x.g.person()
	source = x.s.name
	if x.r.IntN(4) == 0 && len(x.s.friends) > 0 {
		source = x.w.sites[pick(x.r, x.s.friends)].name
	}
	return author, source
}

func (x *renderer) article() {
	s := x.s
	t := x.w.itemTitle(s, x.pi)
	x.start(t, int(x.p.col), "正文")
	when := x.w.itemTime(s, x.p.num)
	author, source := x.byline()
	x.ws(`<div class="main article"><h1>`, esc(t), "</h1>\n")
	if x.zh {
		x.ws(`<div class="info"><span class="pub-date">发布时间：`, when.Format("2006-01-02 15:04"), `</span> <span class="source">来源：`, esc(source),
			`</span> <span class="author">作者：`, esc(author), "</span> ")
		x.a(x.local(printPath(s.itemID(x.p.num))), "[打印本页]")
		x.ws("</div>\n")
	} else {
		x.ws(`<div class="info">By <span class="author">`, esc(author), `</span> | <span class="pub-date">`, when.Format("January 2, 2006"),
			`</span> | Source: <span class="source">`, esc(source), "</span> ")
		x.a(x.local(printPath(s.itemID(x.p.num))), "Print")
		x.ws("</div>\n")
	}
	x.body()
	x.shareBar()
	x.prevNext()
	x.ws("</div>\n")
	x.relatedBlock()
	x.comments(between(x.r, 0, 4))
	x.sidebar()
	x.footer()
}

// body writes the article text, from its own generator so that the
// print version repeats it.
func (x *renderer) body() {
	g := x.w.textGenFor(x.s, "body", x.pi, int(x.p.topic))
	x.ws(`<div id="content" class="content">`, "\n")
	paras := between(g.r, 4, 9)
	for i := 0; i < paras; i++ {
		x.ws("<p>", esc(g.paragraph(between(g.r, 2, 6))), "</p>\n")
	}
	x.ws("</div>\n")
}

func (x *renderer) prevNext() {
	c := x.s.cols[x.p.col]
	lbl := [2]string{"上一篇：", "下一篇："}
	if !x.zh {
		lbl = [2]string{"Previous: ", "Next: "}
	}
	x.ws(`<div class="prevnext">`)
	if x.pi > c.first {
		x.ws(lbl[0])
		x.a(x.hrefOf(x.pi-1), x.w.itemTitle(x.s, x.pi-1))
		x.ws("<br>")
	}
	if x.pi < c.first+c.n-1 {
		x.ws(lbl[1])
		x.a(x.hrefOf(x.pi+1), x.w.itemTitle(x.s, x.pi+1))
	}
	x.ws("</div>\n")
}

func (x *renderer) product() {
	s := x.s
	t := x.w.itemTitle(s, x.pi)
	x.start(t, int(x.p.col), t)
	list, sale := x.w.prices(s, x.pi)
	id := s.itemID(x.p.num)
	x.ws(`<div class="main product"><h1>`, esc(t), "</h1>\n<ul class=\"attrs\">")
	li := func(k, v string) { x.ws("<li>", k, esc(v), "</li>") }
	if s.kind == KindBookstore {
		when := x.w.itemTime(s, x.p.num).AddDate(0, -between(x.r, 1, 60), 0)
		if x.zh {
			li("书名：", "《"+t+"》")
			li("作者：", x.g.person()+pick(x.r, []string{" 著", " 编著", " 主编", " 著，" + x.g.person() + " 译"}))
			li("出版社：", pick(x.r, publishersZH))
			li("出版时间：", when.Format("2006-01"))
			li("版次：", fmt.Sprintf("%d年%d月第%d版", when.Year(), when.Month(), between(x.r, 1, 3)))
			li("ISBN：", isbn13(x.r, s.lang))
			li("页数：", strconv.Itoa(between(x.r, 120, 680)))
			li("开本：", pick(x.r, []string{"16开", "32开", "大32开"}))
			li("定价：", fmt.Sprintf("%.2f元", list))
			li("售价：", fmt.Sprintf("￥%.2f", sale))
		} else {
			li("Author: ", x.g.person())
			li("Publisher: ", pick(x.r, publishersEN))
			li("Publication date: ", when.Format("January 2, 2006"))
			li("Edition: ", pick(x.r, []string{"1st", "2nd", "3rd"})+" edition, "+pick(x.r, []string{"Hardcover", "Paperback"}))
			li("ISBN-13: ", isbn13(x.r, s.lang))
			li("Pages: ", strconv.Itoa(between(x.r, 120, 680)))
			li("List Price: ", fmt.Sprintf("$%.2f", list))
			li("Our Price: ", fmt.Sprintf("$%.2f", sale))
		}
	} else {
		if x.zh {
			li("品牌：", pick(x.r, goodsBrandsZH))
			li("型号：", fmt.Sprintf("%c%d-%d", 'A'+rune(x.r.IntN(26)), between(x.r, 10, 99), between(x.r, 100, 999)))
			li("规格：", pick(x.r, []string{"标准装", "大号", "中号", "小号", "礼盒装"}))
			li("市场价：", fmt.Sprintf("￥%.2f", list))
			li("促销价：", fmt.Sprintf("￥%.2f", sale))
			li("库存：", "现货")
		} else {
			li("Brand: ", pick(x.r, goodsBrandsEN))
			li("Model: ", fmt.Sprintf("%c%d-%d", 'A'+rune(x.r.IntN(26)), between(x.r, 10, 99), between(x.r, 100, 999)))
			li("Price: ", fmt.Sprintf("$%.2f", list))
			li("Sale: ", fmt.Sprintf("$%.2f", sale))
			li("Availability: ", "In stock")
		}
	}
	x.ws("</ul>\n<div class=\"buy\">")
	if x.zh {
		x.a(x.local(cartPath(id)), "加入购物车")
		x.ws(` <a href="javascript:void(0)" class="buynow">立即购买</a> <a href="javascript:void(0)" class="fav">收藏</a>`)
	} else {
		x.a(x.local(cartPath(id)), "Add to Cart")
		x.ws(` <a href="javascript:void(0)" class="wishlist">Add to Wish List</a>`)
	}
	x.ws("</div>\n")
	// The description is about the product's subject: books about travel
	// or forestry are still books.
	sub := int(x.p.sub)
	g := *x.g
	g.topic = sub
	if s.kind == KindBookstore {
		heads := [3]string{"内容简介", "作者简介", "目录"}
		if !x.zh {
			heads = [3]string{"Book Description", "About the Author", "Table of Contents"}
		}
		bookG := g
		bookG.topic = 0
		x.ws(`<div class="summary"><h3>`, heads[0], "</h3><p>", esc(g.paragraph(between(x.r, 3, 6))), "</p><p>", esc(bookG.paragraph(2)), "</p></div>\n")
		x.ws(`<div class="author-bio"><h3>`, heads[1], "</h3><p>", esc(bookG.paragraph(2)), "</p></div>\n")
		x.ws(`<div class="toc"><h3>`, heads[2], "</h3><ul>")
		for i := 1; i <= between(x.r, 5, 10); i++ {
			if x.zh {
				x.ws(fmt.Sprintf("<li>第%d章 %s</li>", i, esc(g.phrase(max(sub, 0), 2))))
			} else {
				x.ws(fmt.Sprintf("<li>Chapter %d: %s</li>", i, esc(g.phrase(max(sub, 0), 2))))
			}
		}
		x.ws("</ul></div>\n")
	} else {
		h := "商品详情"
		if !x.zh {
			h = "Product Details"
		}
		x.ws(`<div class="detail"><h3>`, h, "</h3><p>", esc(g.paragraph(between(x.r, 3, 6))), "</p></div>\n")
	}
	x.comments(between(x.r, 0, 5))
	if x.zh {
		x.ws(`<div class="related"><h3>看过本商品的人还看了</h3><ul>`)
	} else {
		x.ws(`<div class="related"><h3>Customers also viewed</h3><ul>`)
	}
	for _, pi := range x.related(6) {
		x.ws("<li>")
		x.a(x.hrefOf(pi), x.w.itemTitle(s, pi))
		x.ws(` <span class="price">`, x.priceLabel(pi), "</span></li>")
	}
	x.ws("</ul></div>\n</div>\n")
	x.sidebar()
	x.footer()
}

func (x *renderer) thread() {
	s := x.s
	t := x.w.itemTitle(s, x.pi)
	x.start(t, int(x.p.col), t)
	x.ws(`<div class="main thread"><h1>`, esc(t), "</h1>\n")
	when := x.w.itemTime(s, x.p.num)
	posts := between(x.r, 2, 12)
	chat := chatZH
	if !x.zh {
		chat = chatEN
	}
	for i := 0; i < posts; i++ {
		floor := fmt.Sprintf("%d楼", i+1)
		if i == 0 {
			floor = "楼主"
		}
		if !x.zh {
			floor = "#" + strconv.Itoa(i+1)
		}
		x.ws(`<div class="post"><div class="poster"><span class="user">`, esc(x.g.person()), `</span> <span class="floor">`, floor,
			`</span> <span class="time">`, when.Add(time.Duration(i*between(x.r, 5, 300))*time.Minute).Format("2006-01-02 15:04"), "</span></div>\n<div class=\"postbody\">")
		switch {
		case i == 0:
			x.ws("<p>", esc(x.g.paragraph(between(x.r, 3, 7))), "</p>")
		case x.r.IntN(3) == 0:
			x.ws("<p>", esc(pick(x.r, chat)), "</p>")
		default:
			x.ws("<p>", esc(x.g.paragraph(between(x.r, 1, 3))), "</p>")
		}
		x.ws("</div>")
		// Signatures: now and then a spammer's link farm.
		if x.r.IntN(10) == 0 {
			for _, f := range s.friends {
				if o := x.w.sites[f]; o.kind == KindLinkFarm {
					x.ws(`<div class="signature">`)
					x.a(o.homeURL(), o.name)
					x.ws("</div>")
					break
				}
			}
		}
		x.ws("</div>\n")
	}
	x.prevNext()
	x.ws("</div>\n")
	x.relatedBlock()
	x.sidebar()
	x.footer()
}

func (x *renderer) static() {
	s := x.s
	st := s.statics[x.p.num]
	t := st.en
	if x.zh {
		t = st.zh
	}
	x.start(t, -1, t)
	x.ws(`<div class="main"><h1>`, esc(t), "</h1>\n")
	for i := 0; i < between(x.r, 2, 4); i++ {
		x.ws("<p>", esc(x.g.paragraph(between(x.r, 2, 4))), "</p>\n")
	}
	if x.zh {
		x.ws("<p>地址：", esc(s.place), "人民路", strconv.Itoa(between(x.r, 1, 300)), "号　电话：0", strconv.Itoa(between(x.r, 10, 999)), "-", strconv.Itoa(between(x.r, 1000000, 9999999)), "</p>\n")
	} else {
		x.ws("<p>Address: ", strconv.Itoa(between(x.r, 1, 999)), " Main Street. Phone: (", strconv.Itoa(between(x.r, 200, 999)), ") 555-", strconv.Itoa(between(x.r, 1000, 9999)), "</p>\n")
	}
	x.ws("</div>\n")
	x.footer()
}

// farm writes a link-farm page: keyword-stuffed text and many links.
func (x *renderer) farm() {
	x.start(x.w.pageTitle(x.s, x.pi), -1, "")
	x.farmBody()
	x.footer()
}

func (x *renderer) farmBody() {
	s := x.s
	x.ws(`<div class="main"><p class="stuffing">`)
	for i := 0; i < 40; i++ {
		x.ws(esc(x.g.term(x.r.IntN(len(Topics)))), " ")
	}
	x.ws("</p>\n<ul class=\"links\">")
	for i := 0; i < 60; i++ {
		var href, text string
		if x.r.IntN(4) == 0 || len(s.friends) == 0 {
			n := between(x.r, 1, len(s.pages)-1)
			href, text = x.local(fmt.Sprintf("/p/%d.html", max(n, 1))), x.w.pageTitle(s, int32(max(n, 1)))
		} else {
			o := x.w.sites[pick(x.r, s.friends)]
			if len(o.items) > 0 && x.r.IntN(2) == 0 {
				pi := pick(x.r, o.items)
				href, text = x.foreign(o, pi), x.w.itemTitle(o, pi)
			} else {
				href, text = x.foreign(o, 0), o.name
			}
		}
		x.ws("<li>")
		x.a(href, text)
		x.ws("</li>")
	}
	x.ws("</ul></div>\n")
}
