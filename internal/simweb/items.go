package simweb

import (
	"fmt"
	"strconv"
	"time"
)

// byline gives the author and source of an article.
func (x *renderer) byline() (author, source string) {
	author = x.g.person()
	source = x.s.name
	if x.r.IntN(4) == 0 && len(x.s.friends) > 0 {
		// Reprinted from a partner site of the same language.
		if o := x.w.sites[pick(x.r, x.s.friends)]; o.lang == x.s.lang && o.kind != KindLinkFarm {
			source = o.name
		}
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
			// Real listings are uneven: some lack the edition or the ISBN.
			if x.r.IntN(4) != 0 {
				li("版次：", fmt.Sprintf("%d年%d月第%d版", when.Year(), when.Month(), between(x.r, 1, 3)))
			}
			if x.r.IntN(10) != 0 {
				li("ISBN：", isbn13(x.r, s.lang))
			}
			li("页数：", strconv.Itoa(between(x.r, 120, 680)))
			li("开本：", pick(x.r, []string{"16开", "32开", "大32开"}))
			li("定价：", fmt.Sprintf("%.2f元", list))
			li("售价：", fmt.Sprintf("￥%.2f", sale))
		} else {
			li("Author: ", x.g.person())
			li("Publisher: ", pick(x.r, publishersEN))
			li("Publication date: ", when.Format("January 2, 2006"))
			if x.r.IntN(4) != 0 {
				li("Edition: ", pick(x.r, []string{"1st", "2nd", "3rd"})+" edition, "+pick(x.r, []string{"Hardcover", "Paperback"}))
			}
			if x.r.IntN(10) != 0 {
				li("ISBN-13: ", isbn13(x.r, s.lang))
			}
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
