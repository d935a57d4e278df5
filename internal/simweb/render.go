package simweb

import (
	"bytes"
	"fmt"
	"html"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/slicesx"
)

// renderer writes one page. Every choice it makes comes from r, seeded by
// (seed, host, page), so the bytes depend on nothing else.
type renderer struct {
	w   *Web
	s   *site
	pi  int32
	p   page
	sid string // session id carried by internal links ("" none)
	r   *rand.Rand
	g   *textGen
	b   *bytes.Buffer
	zh  bool
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func esc(s string) string {
	if strings.ContainsAny(s, "<>&\"'") {
		return html.EscapeString(s)
	}
	return s
}

func (x *renderer) ws(parts ...string) {
	for _, p := range parts {
		x.b.WriteString(p)
	}
}

// local is the href of a page of the same site.
func (x *renderer) local(path string) string {
	if x.sid != "" {
		return withSession(path, x.sid)
	}
	return path
}

func (x *renderer) hrefOf(pi int32) string { return x.local(x.w.path(x.s, x.s.pages[pi])) }

func (x *renderer) a(href, text string) {
	x.ws(`<a href="`, esc(href), `">`, esc(text), `</a>`)
}

// foreign is the URL of page pi of site o as another site links to it:
// legacy sites are linked by their old addresses, sites with an alias
// sometimes by the bare host.
func (x *renderer) foreign(o *site, pi int32) string {
	p := o.pages[pi]
	if o.legacy && o.isItem(p.kind) && x.r.IntN(2) == 0 {
		return o.url(legacyPath(o.itemID(p.num)))
	}
	if p.kind == pHome && o.alias != "" && x.r.IntN(2) == 0 {
		return "http://" + o.alias + "/"
	}
	return o.url(x.w.path(o, p))
}

func (x *renderer) head(title string) {
	s := x.s
	lang := "zh-CN"
	if !x.zh {
		lang = "en"
	}
	x.ws("<!DOCTYPE html>\n<html lang=\"", lang, "\">\n<head>\n")
	switch {
	case s.gbk && s.decl&declMeta != 0:
		if x.r.IntN(2) == 0 {
			x.ws(`<meta http-equiv="Content-Type" content="text/html; charset=gbk">`, "\n")
		} else {
			x.ws(`<meta charset="gb2312">`, "\n")
		}
	case !s.gbk:
		x.ws(`<meta charset="utf-8">`, "\n")
	}
	sep := "_"
	if !x.zh {
		sep = " | "
	}
	full := title + sep + s.name
	if x.p.kind == pHome {
		full = s.name
		if x.zh {
			full += " - 首页"
		}
	}
	x.ws("<title>", esc(full), "</title>\n")
	kw := []string{}
	t := int(x.p.topic)
	if t < 0 {
		t = s.topic
	}
	if t >= 0 {
		for i := 0; i < 4; i++ {
			kw = append(kw, x.g.term(t))
		}
	} else {
		kw = append(kw, s.name)
	}
	sepKW := ","
	x.ws(`<meta name="keywords" content="`, esc(strings.Join(kw, sepKW)), `">`, "\n")
	x.ws(`<meta name="description" content="`, esc(s.name+" "+title), `">`, "\n")
	x.ws(`<meta name="generator" content="simweb (simulated site)">`, "\n")
	x.ws("<style>body{font-family:sans-serif}.nav li{display:inline;margin:0 6px}</style>\n")
	x.ws(`<script>var _hmt=_hmt||[];/* analytics */</script>`, "\n</head>\n<body>\n")
}

func (x *renderer) topbar() {
	s := x.s
	x.ws(`<div id="topbar" class="topbar">`)
	if x.zh {
		x.a(x.local("/"), "网站首页")
		x.ws(" | ")
		if s.hasAbout() {
			x.a(x.local("/about.html"), "关于我们")
			x.ws(" | ")
		}
		if s.kind == KindBookstore || s.kind == KindShop || s.kind == KindForum {
			x.ws(`<a href="javascript:void(0)" class="login">登录</a> | <a href="javascript:void(0)" class="reg">注册</a>`)
		}
		if s.kind == KindBookstore || s.kind == KindShop {
			x.ws(" | ")
			x.a(x.local("/cart.html"), "我的购物车")
		}
	} else {
		x.a(x.local("/"), "Home")
		if s.hasAbout() {
			x.ws(" | ")
			x.a(x.local("/about.html"), "About")
		}
		if s.kind == KindBookstore || s.kind == KindShop || s.kind == KindForum {
			x.ws(` | <a href="javascript:void(0)" class="login">Sign in</a>`)
		}
		if s.kind == KindBookstore || s.kind == KindShop {
			x.ws(" | ")
			x.a(x.local("/cart.html"), "Cart")
		}
	}
	x.ws("</div>\n")
	x.ws(`<div id="header" class="header"><h1 class="logo"><a href="`, x.local("/"), `">`, esc(s.name), "</a></h1>\n")
	if len(s.searchQ) > 0 {
		label, btn := "热门搜索：", "搜索"
		if !x.zh {
			label, btn = "Popular searches: ", "Search"
		}
		x.ws(`<form class="search" action="/search" method="get"><input name="q" type="text"><button type="submit">`, btn, "</button></form>\n")
		x.ws(`<div class="hotwords">`, label)
		for _, q := range s.searchQ {
			x.a(x.local(searchPath(q)), q)
			x.ws(" ")
		}
		x.ws("</div>\n")
	}
	x.ws("</div>\n")
}

func (s *site) hasAbout() bool { return len(s.statics) > 0 && s.statics[0].path == "/about.html" }

func (x *renderer) nav() {
	x.ws(`<div id="nav" class="nav"><ul>`)
	x.ws("<li>")
	if x.zh {
		x.a(x.local("/"), "首页")
	} else {
		x.a(x.local("/"), "Home")
	}
	x.ws("</li>")
	for _, c := range x.s.cols {
		x.ws("<li>")
		x.a(x.hrefOf(c.listFirst), c.name)
		x.ws("</li>")
	}
	if x.s.calendar {
		x.ws("<li>")
		if x.zh {
			x.a(x.local(calendarPath(x.w.epoch.Format("2006-01"))), "活动日历")
		} else {
			x.a(x.local(calendarPath(x.w.epoch.Format("2006-01"))), "Events Calendar")
		}
		x.ws("</li>")
	}
	x.ws("</ul></div>\n")
}

func (x *renderer) breadcrumb(col int, last string) {
	if x.zh {
		x.ws(`<div class="position">当前位置：`)
		x.a(x.local("/"), "首页")
	} else {
		x.ws(`<div class="breadcrumb">You are here: `)
		x.a(x.local("/"), "Home")
	}
	if col >= 0 {
		x.ws(" &gt; ")
		x.a(x.hrefOf(x.s.cols[col].listFirst), x.s.cols[col].name)
	}
	if last != "" {
		x.ws(" &gt; ", esc(last))
	}
	x.ws("</div>\n")
}

// adBlock writes an ad pointing at an ad server's click URL.
func (x *renderer) adBlock(id string) {
	if len(x.w.ads) == 0 {
		return
	}
	ad := pick(x.r, x.w.ads)
	c := x.r.IntN(adCampaigns)
	target := x.w.adTarget(ad, c)
	text := "广告"
	if target != nil {
		g := &textGen{r: x.r, lang: x.s.lang}
		t := target.topic
		if t < 0 {
			t = x.r.IntN(len(Topics))
		}
		if x.zh {
			text = g.term(t) + pick(x.r, []string{"限时特惠", "低至5折", "点击进入", "火热促销", "官方旗舰店"})
		} else {
			text = title(g.term(t)) + pick(x.r, []string{" - Sale Now On", " - Up to 50% Off", " - Shop Now", " - Free Delivery"})
		}
	}
	x.ws(`<div class="ad" id="`, id, `"><span class="ad-label">AD</span> `)
	x.ws(`<a href="http://`, ad.host, clickPath(c), `" target="_blank" rel="nofollow">`, esc(text), "</a></div>\n")
}

// itemList writes links to the item pages ids with their titles (and
// dates or prices).
func (x *renderer) itemList(class string, ids []int32, withDate bool) {
	x.ws(`<ul class="`, class, `">`)
	for _, pi := range ids {
		x.ws("<li>")
		x.a(x.hrefOf(pi), x.w.itemTitle(x.s, pi))
		if withDate {
			x.ws(` <span class="date">`, x.w.itemTime(x.s, x.s.pages[pi].num).Format("2006-01-02"), "</span>")
		}
		if x.s.kind == KindBookstore || x.s.kind == KindShop {
			x.ws(` <span class="price">`, x.priceLabel(pi), "</span>")
		}
		x.ws("</li>\n")
	}
	x.ws("</ul>\n")
}

// latest returns up to n newest items of column c.
func (x *renderer) latest(c column, n int) []int32 {
	var out []int32
	for i := c.first + c.n - 1; i >= c.first && len(out) < n; i-- {
		out = append(out, i)
	}
	return out
}

// friendLinks writes the footer's links to other sites.
func (x *renderer) friendLinks() {
	s := x.s
	if len(s.friends) == 0 {
		return
	}
	if x.zh {
		x.ws(`<div class="friendlinks"><h3>友情链接</h3><ul>`)
	} else {
		x.ws(`<div class="friendlinks"><h3>Partner sites</h3><ul>`)
	}
	for _, f := range s.friends {
		o := x.w.sites[f]
		x.ws("<li>")
		x.a(x.foreign(o, 0), o.name)
		x.ws("</li>")
	}
	x.ws("</ul></div>\n")
}

func (x *renderer) footer() {
	s := x.s
	x.ws(`<div id="footer" class="footer">`, "\n")
	x.friendLinks()
	x.ws(`<div class="footnav">`)
	for i, st := range s.statics {
		if i > 0 {
			x.ws(" | ")
		}
		if x.zh {
			x.a(x.local(st.path), st.zh)
		} else {
			x.a(x.local(st.path), st.en)
		}
	}
	x.ws("</div>\n")
	year := x.w.epoch.Year()
	if x.zh {
		x.ws(fmt.Sprintf(`<p class="copyright">版权所有 &copy; %d %s 　ICP备%08d号　本站为 simweb 模拟网站，内容由程序生成</p>`, year, esc(s.name), hashOf(x.w.cfg.Seed, s.host, "icp")%100000000))
	} else {
		x.ws(fmt.Sprintf(`<p class="copyright">&copy; %d %s. All rights reserved. Simulated site generated by simweb.</p>`, year, esc(s.name)))
	}
	x.ws("\n</div>\n</body>\n</html>\n")
}

// shareBar writes share buttons (scripts, no links off the simulated web).
func (x *renderer) shareBar() {
	if x.zh {
		x.ws(`<div class="share">分享到：<a href="javascript:void(0)" data-share="weixin">微信</a> <a href="javascript:void(0)" data-share="weibo">微博</a> <a href="javascript:void(0)" data-share="qzone">QQ空间</a></div>`, "\n")
	} else {
		x.ws(`<div class="share">Share: <a href="javascript:void(0)" data-share="twitter">Twitter</a> <a href="javascript:void(0)" data-share="facebook">Facebook</a> <a href="javascript:void(0)" data-share="email">Email</a></div>`, "\n")
	}
}

// comments writes a few readers' comments: short, partly on topic.
func (x *renderer) comments(n int) {
	if n == 0 {
		return
	}
	if x.zh {
		x.ws(`<div class="comments"><h3>网友评论</h3>`, "\n")
	} else {
		x.ws(`<div class="comments"><h3>Comments</h3>`, "\n")
	}
	chat := chatZH
	if !x.zh {
		chat = chatEN
	}
	for i := 0; i < n; i++ {
		user := x.g.person()
		if x.zh {
			user = "网友" + user
		}
		x.ws(`<div class="comment"><span class="user">`, esc(user), `</span> <span class="time">`,
			x.w.epoch.Add(-time.Duration(x.r.IntN(9000))*time.Hour).Format("2006-01-02 15:04"), "</span><p>")
		if x.r.IntN(2) == 0 {
			x.ws(esc(pick(x.r, chat)))
		} else {
			x.ws(esc(x.g.paragraph(1)))
		}
		x.ws("</p></div>\n")
	}
	x.ws("</div>\n")
}

var chatZH = []string{"写得很好，学习了。", "顶一下！", "支持，希望多发这样的文章。", "mark一下，回头细看。", "说得有道理。", "请问在哪里可以了解更多？", "谢谢分享！", "路过，看看。"}
var chatEN = []string{"Great article, thanks!", "Very helpful.", "I disagree with some of this.", "Bookmarked for later.", "Thanks for sharing.", "Does anyone have more information on this?", "Well said."}

// sidebar writes the hot list and an ad.
func (x *renderer) sidebar() {
	s := x.s
	if len(s.items) > 0 {
		var ids []int32
		pool := s.topical
		if len(pool) < 8 {
			pool = s.items
		}
		for i := 0; i < 8; i++ {
			ids = append(ids, pick(x.r, pool))
		}
		if x.zh {
			x.ws(`<div class="sidebar"><div class="hot"><h3>热点排行</h3>`)
		} else {
			x.ws(`<div class="sidebar"><div class="hot"><h3>Most Read</h3>`)
		}
		x.itemList("hotlist", slicesx.Unique(ids), false)
		x.ws("</div>\n")
	} else {
		x.ws(`<div class="sidebar">`)
	}
	x.adBlock("ad-side")
	x.ws("</div>\n")
}

// priceLabel is the price shown next to a product.
func (x *renderer) priceLabel(pi int32) string {
	_, sale := x.w.prices(x.s, pi)
	if x.zh {
		return fmt.Sprintf("￥%.2f", sale)
	}
	return fmt.Sprintf("$%.2f", sale)
}

// prices are a product's list and sale prices.
func (w *Web) prices(s *site, pi int32) (list, sale float64) {
	r := w.pageRand(s, "price", pi)
	switch {
	case s.kind == KindBookstore && s.lang == langEN:
		list = float64(between(r, 7, 45)) + []float64{0.95, 0.99, 0.5, 0}[r.IntN(4)]
	case s.kind == KindBookstore:
		list = float64(between(r, 18, 168)) + []float64{0, 0.5, 0.8, 0.9}[r.IntN(4)]
	default:
		list = float64(between(r, 39, 2999))
	}
	sale = float64(int(list*float64(between(r, 55, 95)))) / 100
	return list, sale
}

// adTarget is the site an ad campaign sends its clicks to: a shop or a
// bookstore.
func (w *Web) adTarget(ad *site, c int) *site {
	if len(w.shops) == 0 {
		return nil
	}
	return w.shops[hashOf(w.cfg.Seed, ad.host, "campaign", strconv.Itoa(c))%uint64(len(w.shops))]
}
