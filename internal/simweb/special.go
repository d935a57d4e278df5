package simweb

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/slicesx"
)

// Pages computed on demand: carts, search results, print versions,
// calendar months, sitemaps, and the tiny home of an ad server.

func (w *Web) renderSpecial(t target) []byte {
	s := t.s
	if t.sitemap {
		return w.sitemap(s)
	}
	what := "special-" + pageKindNames[t.kind] + t.query + t.month.Format("200601")
	x := w.newRenderer(s, t.pi, "", what)
	defer bufPool.Put(x.b)
	if t.sid != "" || s.sessions {
		x.sid = w.nextSession(s, t.sid, what)
	}
	x.p = page{kind: t.kind, topic: noTopic, col: -1}
	if t.pi >= 0 {
		x.p.topic = s.pages[t.pi].topic
		x.p.col = s.pages[t.pi].col
		x.p.num = s.pages[t.pi].num
	}
	x.g.topic = int(x.p.topic)
	switch t.kind {
	case pCart:
		x.cart(t)
	case pSearch:
		x.search(t)
	case pPrint:
		x.print(t)
	case pCalendar:
		x.calendarPage(t)
	case pHome: // ad server
		x.ws("<!DOCTYPE html>\n<html><head><title>", s.host, "</title></head><body><p>Ad server (simweb simulated).</p></body></html>\n")
	}
	return bytes.Clone(x.b.Bytes())
}

func (x *renderer) cart(t target) {
	title := "购物车"
	if !x.zh {
		title = "Shopping Cart"
	}
	x.p.kind = pStatic
	x.start(title, -1, title)
	x.ws(`<div class="main cart"><h1>`, title, "</h1>\n")
	if t.pi >= 0 {
		_, sale := x.w.prices(x.s, t.pi)
		x.ws("<table class=\"cart-items\"><tr><td>")
		x.a(x.hrefOf(t.pi), x.w.itemTitle(x.s, t.pi))
		x.ws("</td><td>1</td><td>", fmt.Sprintf("%.2f", sale), "</td></tr></table>\n")
	} else if x.zh {
		x.ws("<p>您的购物车还是空的。</p>\n")
	} else {
		x.ws("<p>Your cart is empty.</p>\n")
	}
	if x.zh {
		x.ws(`<p><a href="javascript:void(0)" class="checkout">去结算</a> `)
		x.a(x.local("/"), "继续购物")
	} else {
		x.ws(`<p><a href="javascript:void(0)" class="checkout">Checkout</a> `)
		x.a(x.local("/"), "Continue shopping")
	}
	x.ws("</p></div>\n")
	x.footer()
}

func (x *renderer) search(t target) {
	title := "搜索结果：" + t.query
	if !x.zh {
		title = "Search results: " + t.query
	}
	x.p.kind = pStatic
	x.start(title, -1, title)
	x.ws(`<div class="main search"><h1>`, esc(title), "</h1>\n")
	var ids []int32
	for i := 0; i < 10 && len(x.s.items) > 0; i++ {
		ids = append(ids, pick(x.r, x.s.items))
	}
	x.itemList("results", slicesx.Unique(ids), false)
	x.ws("</div>\n")
	x.footer()
}

func (x *renderer) print(t target) {
	title := x.w.itemTitle(x.s, t.pi)
	x.pi = t.pi
	x.p = x.s.pages[t.pi]
	x.head(title)
	x.ws(`<div class="print"><h1>`, esc(title), "</h1>\n")
	x.body()
	x.ws(`<p class="url">`, esc(x.s.url(x.w.path(x.s, x.p))), "</p></div>\n</body>\n</html>\n")
}

func (x *renderer) calendarPage(t target) {
	m := t.month
	title := fmt.Sprintf("活动日历 %d年%d月", m.Year(), m.Month())
	prev, next := "上个月", "下个月"
	if !x.zh {
		title = "Events calendar " + m.Format("January 2006")
		prev, next = "Previous month", "Next month"
	}
	x.p.kind = pStatic
	x.start(title, -1, title)
	x.ws(`<div class="main calendar"><h1>`, esc(title), "</h1>\n<table class=\"cal\"><tr>")
	days := m.AddDate(0, 1, -1).Day()
	for d := 1; d <= days; d++ {
		x.ws("<td>", strconv.Itoa(d))
		if x.r.IntN(6) == 0 {
			x.ws(`<div class="event">`, esc(x.g.title(noTopic)), "</div>")
		}
		x.ws("</td>")
		if d%7 == 0 {
			x.ws("</tr><tr>")
		}
	}
	x.ws("</tr></table>\n<div class=\"calnav\">")
	x.a(x.local(calendarPath(m.AddDate(0, -1, 0).Format("2006-01"))), prev)
	x.ws(" ")
	x.a(x.local(calendarPath(m.AddDate(0, 1, 0).Format("2006-01"))), next)
	x.ws("</div></div>\n")
	x.footer()
}

// sitemap lists the site's home, list pages and items.
func (w *Web) sitemap(s *site) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i, p := range s.pages {
		if p.kind == pStatic || p.kind == pTunnel {
			continue
		}
		b.WriteString("<url><loc>")
		b.WriteString(strings.ReplaceAll(s.url(w.path(s, s.pages[i])), "&", "&amp;"))
		b.WriteString("</loc></url>\n")
	}
	b.WriteString("</urlset>\n")
	return []byte(b.String())
}
