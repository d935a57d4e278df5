package simweb

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Titles are a function of (seed, host, page) alone, so every link to a
// page carries the page's own title as its anchor, as on real sites.

var bookWordsZH = []string{"时间", "山河", "故乡", "远方", "岁月", "秘密", "城市", "星空", "海洋", "河流", "花园", "月光", "灯火", "孤独", "记忆", "旅程", "春天", "秋天", "风雪", "少年", "人间", "长夜", "黎明", "归途", "江湖", "村庄", "镜子", "钟声", "信使", "烟火"}
var bookFormsZH = []string{"%s的%s", "%s与%s", "%s简史", "我的%s", "%s之书", "%s%s"}
var subjectFormsZH = []string{"%s概论", "%s实用手册", "%s原理与实践", "%s入门", "%s指南", "%s图鉴", "%s百问百答", "%s研究"}
var bookAdjEN = []string{"Silent", "Last", "Hidden", "Golden", "Broken", "Distant", "Secret", "Little", "Long", "Wild", "Quiet", "Burning", "Forgotten", "Northern", "Endless"}
var bookNounEN = []string{"River", "Garden", "House", "Summer", "Winter", "Road", "City", "Sea", "Island", "Letter", "Lantern", "Orchard", "Bridge", "Mirror", "Kingdom"}
var subjectFormsEN = []string{"%s: A Practical Guide", "Introduction to %s", "The %s Handbook", "Understanding %s", "%s in Practice", "A Field Guide to %s"}

var publishersZH = []string{"人民文学出版社", "长江文艺出版社", "译林出版社", "中信出版社", "商务印书馆", "中华书局", "三联书店", "上海译文出版社", "浙江文艺出版社", "中国林业出版社", "科学出版社", "机械工业出版社", "接力出版社", "湖南文艺出版社", "北京大学出版社"}
var publishersEN = []string{"Harbor House", "Penfield Press", "Northstar Books", "Greenleaf Publishing", "Meridian Press", "Lantern & Co.", "Oakridge University Press", "Bluebird Books", "Quillmark", "Riverside Editions"}

var goodsBrandsZH = []string{"探路者", "凯乐石", "李宁", "安踏", "特步", "鸿星尔克", "汤臣倍健", "鱼跃", "欧姆龙", "新秀丽", "牧高笛", "迪卡侬"}
var goodsBrandsEN = []string{"Summit", "TrailPro", "Apex", "Northwind", "Vita", "CarePlus", "Stride", "Voyager", "Ridgeline", "Pulse"}

func (w *Web) pageRand(s *site, what string, pi int32) *rand.Rand {
	return newRand(w.cfg.Seed, s.host, what, strconv.Itoa(int(pi)))
}

func (w *Web) textGenFor(s *site, what string, pi int32, topic int) *textGen {
	g := &textGen{r: w.pageRand(s, what, pi), lang: s.lang, topic: topic, place: s.place}
	g.focus = w.focusOf(s, pi, topic)
	if s.kind == KindAuthority || s.kind == KindGovPortal {
		g.org = s.name
	}
	return g
}

// focusOf is the focus of page pi: one draw per page, shared by the
// generators of its title, lead and body.
func (w *Web) focusOf(s *site, pi int32, topic int) []string {
	if topic < 0 {
		return nil
	}
	return focusTerms(w.pageRand(s, "focus", pi), topic, s.lang)
}

// itemTitle is the headline, book title or product name of an item page.
func (w *Web) itemTitle(s *site, pi int32) string {
	p := s.pages[pi]
	g := w.textGenFor(s, "title", pi, int(p.topic))
	switch {
	case s.kind == KindBookstore:
		return bookTitle(g.r, s.lang, int(p.sub))
	case s.kind == KindShop:
		return w.goodsName(g, int(p.topic))
	case s.kind == KindForum:
		t := g.title(int(p.topic))
		if s.lang == langEN {
			return pick(g.r, []string{"", "[Question] ", "[Discussion] ", "Re: "}) + t
		}
		return pick(g.r, []string{"", "[求助]", "[讨论]", "[分享]", "[原创]"}) + t
	}
	return g.title(int(p.topic))
}

func bookTitle(r *rand.Rand, lang, sub int) string {
	if sub > 0 {
		w := pick(r, topicWords(sub, lang))
		if lang == langEN {
			return fmt.Sprintf(pick(r, subjectFormsEN), title(spaced(w)))
		}
		return fmt.Sprintf(pick(r, subjectFormsZH), w)
	}
	if lang == langEN {
		switch r.IntN(3) {
		case 0:
			return "The " + pick(r, bookAdjEN) + " " + pick(r, bookNounEN)
		case 1:
			return "The " + pick(r, bookNounEN) + " of " + plural(pick(r, bookNounEN))
		}
		return pick(r, bookAdjEN) + " " + plural(pick(r, bookNounEN))
	}
	f := pick(r, bookFormsZH)
	a, b := pick(r, bookWordsZH), pick(r, bookWordsZH)
	if f == "%s简史" || f == "我的%s" || f == "%s之书" {
		return fmt.Sprintf(f, a)
	}
	return fmt.Sprintf(f, a, b)
}

func (w *Web) goodsName(g *textGen, t int) string {
	if g.lang == langEN {
		return pick(g.r, goodsBrandsEN) + " " + title(g.term(t)) + " " + fmt.Sprintf("%c%d", 'A'+rune(g.r.IntN(26)), between(g.r, 10, 990))
	}
	return pick(g.r, goodsBrandsZH) + g.term(t) + pick(g.r, []string{"专业款", "升级版", "家用", "便携式", "新款", "经典款"}) + fmt.Sprintf(" %c%d", 'A'+rune(g.r.IntN(26)), between(g.r, 10, 990))
}

func spaced(w string) string {
	out := []byte(w)
	for i, c := range out {
		if c == '-' {
			out[i] = ' '
		}
	}
	return string(out)
}

// pageTitle is the <title> text before the site-name affix.
func (w *Web) pageTitle(s *site, pi int32) string {
	p := s.pages[pi]
	zh := s.lang == langZH
	switch p.kind {
	case pHome:
		if zh {
			return "首页"
		}
		return "Home"
	case pList:
		c := s.cols[p.col]
		if p.num == 0 {
			return c.name
		}
		if zh {
			return fmt.Sprintf("%s - 第%d页", c.name, p.num+1)
		}
		return fmt.Sprintf("%s - Page %d", c.name, p.num+1)
	case pStatic:
		if zh {
			return s.statics[p.num].zh
		}
		return s.statics[p.num].en
	case pTunnel:
		return tunnelTitles[p.num]
	case pFarm:
		g := w.textGenFor(s, "farm-title", pi, noTopic)
		parts := []string{}
		for i := 0; i < 5; i++ {
			parts = append(parts, g.term(g.r.IntN(len(Topics))))
		}
		if zh {
			return fmt.Sprintf("%s 免费 大全 第%d页", joinSpace(parts), p.num)
		}
		return fmt.Sprintf("%s free best links page %d", joinSpace(parts), p.num)
	}
	return w.itemTitle(s, pi)
}

var tunnelTitles = map[int32]string{2: "政务公开 - 部门导航", 3: "部门网站", 4: "县市区及直属单位"}

func joinSpace(xs []string) string {
	n := 0
	for _, x := range xs {
		n += len(x) + 1
	}
	b := make([]byte, 0, n)
	for i, x := range xs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, x...)
	}
	return string(b)
}

// isbn13 makes a valid ISBN-13 (978 prefix, correct check digit).
func isbn13(r *rand.Rand, lang int) string {
	digits := []int{9, 7, 8}
	if lang == langZH {
		digits = append(digits, 7)
	} else {
		digits = append(digits, 1)
	}
	for len(digits) < 12 {
		digits = append(digits, r.IntN(10))
	}
	sum := 0
	for i, d := range digits {
		if i%2 == 0 {
			sum += d
		} else {
			sum += 3 * d
		}
	}
	digits = append(digits, (10-sum%10)%10)
	b := make([]byte, 13)
	for i, d := range digits {
		b[i] = byte('0' + d)
	}
	return string(b)
}

func plural(n string) string {
	if strings.HasSuffix(n, "y") {
		return n[:len(n)-1] + "ies"
	}
	return n + "s"
}
