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

// TestBookstoreRules checks each of the eight rules of seed 000 on
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
