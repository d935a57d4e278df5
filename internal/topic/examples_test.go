package topic

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// examplesDir holds the profiles shipped with the project.
var examplesDir = filepath.Join("..", "..", "examples", "topics")

// TestExampleProfilesLoad loads every profile in examples/topics, so the
// examples cannot rot.
func TestExampleProfilesLoad(t *testing.T) {
	names, err := filepath.Glob(filepath.Join(examplesDir, "*.y*ml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 3 {
		t.Fatalf("found %d profiles in %s, want bookstores, forestry and travel at least", len(names), examplesDir)
	}
	for _, name := range names {
		t.Run(filepath.Base(name), func(t *testing.T) {
			p, err := Load(name)
			if err != nil {
				t.Fatal(err)
			}
			if p.Description == "" || len(p.Keywords) == 0 || len(p.Rules) == 0 {
				t.Errorf("profile lacks description, keywords or rules: %d keywords, %d rules", len(p.Keywords), len(p.Rules))
			}
		})
	}
}

func loadExample(t *testing.T, name string) *Profile {
	t.Helper()
	p, err := Load(filepath.Join(examplesDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func ruleByName(t *testing.T, p *Profile, name string) Rule {
	t.Helper()
	for _, r := range p.Rules {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("profile %s has no rule %q", p.Name, name)
	return Rule{}
}

// TestBookstoreRules checks each of the eight rules of paper 0 (docs/algorithms.md §1) on
// snippets of Chinese and English bookstore pages, and on near misses.
func TestBookstoreRules(t *testing.T) {
	p := loadExample(t, "bookstores.yaml")
	if len(p.Rules) != 8 {
		t.Fatalf("bookstores has %d rules, want the paper's 8", len(p.Rules))
	}
	cases := []struct {
		rule  string
		text  string
		match bool
	}{
		{"price", "市场价：¥45.00 当当价：¥32.90", true},
		{"price", "定价：32元", true},
		{"price", "售价 28.80 元 包邮", true},
		{"price", "￥59.00 (7.5折)", true},
		{"price", "List Price: $27.99", true},
		{"price", "Price: £8.99 Free delivery", true},
		{"price", "our price USD 14.50", true},
		{"price", "RMB 120", true},
		{"price", "价格政策调整的讨论持续升温", false},
		{"price", "The price of oil rose 3 percent today", false},
		{"buy_online", "加入购物车 收藏商品", true},
		{"buy_online", "立即购买", true},
		{"buy_online", "Add to Cart", true},
		{"buy_online", "add to basket | Add to wishlist", true},
		{"buy_online", "Buy Now with 1-Click", true},
		{"buy_online", "购物中心周末客流量大增", false},
		{"buy_online", "Now we buy fewer paper books", false},
		{"publisher", "出版社：人民文学出版社", true},
		{"publisher", "中华书局 2018-06", true},
		{"publisher", "Publisher: Penguin Classics (2003)", true},
		{"publisher", "Oxford University Press, 2015", true},
		{"publisher", "出版业的数字化转型", false},
		{"publisher", "press conference held in Beijing", false},
		{"author", "作者：余华", true},
		{"author", "[美] 海明威 著，孙致礼 译", true},
		{"author", "by Haruki Murakami (Author), Jay Rubin (Translator)", true},
		{"author", "Author: George Orwell", true},
		{"author", "著名作家莫言今日来访", false},
		{"author", "the authority said on Monday", false},
		{"title", "书名：活着", true},
		{"title", "《百年孤独》（精装）", true},
		{"title", "Book Title: Nineteen Eighty-Four", true},
		{"title", "书桌上放着一本旧书", false},
		{"title", "an untitled painting", false},
		{"edition", "版次：1 印次：3", true},
		{"edition", "2017年4月第1版", true},
		{"edition", "2nd Edition", true},
		{"edition", "Paperback – January 1, 2003", true},
		{"edition", "装帧：平装", true},
		{"edition", "今天的版面安排", false},
		{"edition", "The edition of the festival was cancelled", false},
		{"summary", "内容简介 《活着》讲述了……", true},
		{"summary", "编辑推荐", true},
		{"summary", "Book Description", true},
		{"summary", "About the Book: a classic of dystopian fiction", true},
		{"summary", "会议简要介绍了工作进展", false},
		{"summary", "in summary, the results were mixed", false},
		{"isbn", "ISBN：9787506365437", true},
		{"isbn", "ISBN 978-7-5063-6543-7", true},
		{"isbn", "ISBN-10: 0-306-40615-2", true},
		{"isbn", "ISBN-13: 978-0306406157", true},
		{"isbn", "isbn 7-5063-4353-6", true},
		{"isbn", "ISBN 7506365437", true},
		{"isbn", "条形码：9787020024759", true},
		{"isbn", "978-7-5063-6543-7 （书号）", true},
		{"isbn", "订单号 9787506365", false},
		{"isbn", "电话 0571-88888888", false},
		{"isbn", "ISBN 号码查询说明", false},
	}
	for _, c := range cases {
		t.Run(c.rule+"/"+c.text, func(t *testing.T) {
			if got := ruleByName(t, p, c.rule).Match(c.text); got != c.match {
				t.Errorf("rule %s on %q = %v, want %v", c.rule, c.text, got, c.match)
			}
		})
	}
}

// TestBookstorePages scores whole pages: product pages of Chinese and
// English bookstores pass the page threshold, other pages do not.
func TestBookstorePages(t *testing.T) {
	p := loadExample(t, "bookstores.yaml")
	pages, err := filepath.Glob(filepath.Join("testdata", "pages", "*.txt"))
	if err != nil || len(pages) < 4 {
		t.Fatalf("pages: %v %v", pages, err)
	}
	for _, name := range pages {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.HasPrefix(filepath.Base(name), "book-")
			score, matched := p.RuleScore(string(data))
			if got := score >= p.Thresholds.Page; got != want {
				t.Errorf("score %.3f (rules %v), relevant = %v, want %v", score, matched, got, want)
			}
		})
	}
}

// TestForestryProfile checks what paper 4 needs: a real domain
// dictionary of at least 200 terms (with Latin names), a ranked host
// library, and rules that tell forestry pages from near misses.
func TestForestryProfile(t *testing.T) {
	p := loadExample(t, "forestry.yaml")
	if len(p.Dictionary) < 200 {
		t.Errorf("dictionary has %d terms, want at least 200", len(p.Dictionary))
	}
	dict := map[string]bool{}
	for _, w := range p.Dictionary {
		dict[w] = true
	}
	for _, w := range []string{"造林模式", "宜林地", "迹地拨交", "小班", "林班", "细班", "林相图", "褐斑病",
		"抚育间伐", "森林经营方案", "封山育林", "天然林保护", "退耕还林", "郁闭度", "蓄积量", "立地条件",
		"树种", "混交林", "采伐限额", "Pinus massoniana", "Cunninghamia lanceolata", "林长制"} {
		if !dict[w] {
			t.Errorf("dictionary lacks %q", w)
		}
	}
	ranks := map[string]int{}
	for _, h := range p.Hosts {
		ranks[h.Rank]++
	}
	for _, r := range []string{RankNational, RankProvince, RankCity, RankCounty} {
		if ranks[r] == 0 {
			t.Errorf("no host of rank %s", r)
		}
	}
	if h, ok := p.HostRank("www.forestry.gov.cn"); !ok || h.Rank != RankNational {
		t.Errorf("www.forestry.gov.cn: %+v %v", h, ok)
	}
	if e, ok := p.ExtractFor("www.forestry.gov.cn"); !ok || e.Site != "forestry.gov.cn" {
		t.Errorf("ExtractFor(www.forestry.gov.cn) = %+v %v", e, ok)
	}
	for _, e := range p.Extract {
		for _, s := range []string{e.Title, e.Published, e.Source, e.Author, e.Content} {
			if s == "" {
				continue
			}
			if _, err := ParseSelector(s); err != nil {
				t.Errorf("site %s selector %q: %v", e.Site, s, err)
			}
		}
	}
	cases := []struct {
		text     string
		relevant bool
	}{
		{"以小班为单位编制森林抚育作业设计，执行采伐限额，做好松材线虫病防治和森林防火。", true},
		{"林班内各小班郁闭度0.7，蓄积量每公顷120立方米；实施封山育林和补植补造，编制森林经营方案。", true},
		{"幼儿园小班开学啦，孩子们学唱儿歌。", false},
		{"今日沪深两市成交额突破万亿元。", false},
	}
	for _, c := range cases {
		s, m := p.RuleScore(c.text)
		if (s >= p.Thresholds.Page) != c.relevant {
			t.Errorf("RuleScore(%q) = %.2f %v, want relevant=%v", c.text, s, m, c.relevant)
		}
	}
}

// TestTravelRules checks each travel rule on a positive and a negative
// snippet.
func TestTravelRules(t *testing.T) {
	p := loadExample(t, "travel.yaml")
	cases := []struct {
		rule  string
		text  string
		match bool
	}{
		{"ticket", "门票价格：旺季190元，淡季150元", true},
		{"ticket", "Admission: $25 for adults", true},
		{"ticket", "演唱会门禁系统升级", false},
		{"scenic_spot", "黄山风景区是国家5A级旅游景区，开放时间 6:30-17:00", true},
		{"scenic_spot", "Opening hours: 9am–5pm daily", true},
		{"scenic_spot", "公司开放日活动报名", false},
		{"lodging", "酒店预订 大床房 含早 入住日期 2024-10-01", true},
		{"lodging", "Check-in from 3 pm; double room from $80 per night", true},
		{"lodging", "住院部床位紧张", false},
		{"route", "经典线路 第1天 杭州—千岛湖 第2天 千岛湖—黄山", true},
		{"route", "Day 1: arrive in Xi'an. Day 2: Terracotta Army guided tour", true},
		{"route", "公交线路调整公告", false},
		{"guide", "西湖旅游攻略：最佳旅游时间是春秋两季", true},
		{"guide", "A travel guide to Yunnan", true},
		{"guide", "季度财务报告", false},
	}
	for _, c := range cases {
		if got := ruleByName(t, p, c.rule).Match(c.text); got != c.match {
			t.Errorf("rule %s on %q = %v, want %v", c.rule, c.text, got, c.match)
		}
	}
	if p.Synonyms["旅行"] != 1.0 || p.Synonyms["酒店"] < 0.5 || p.Synonyms["交通"] >= 0.5 {
		t.Errorf("synonyms: 旅行 %v 酒店 %v 交通 %v", p.Synonyms["旅行"], p.Synonyms["酒店"], p.Synonyms["交通"])
	}
}
