package topic

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestRuleMatchAndScore(t *testing.T) {
	src := `
rules:
  - {name: price, any: ['(定价|售价)[:：]?\s*[0-9.]+', '(?i)price:\s*\$[0-9.]+'], weight: 0.263}
  - {name: isbn, all: ['ISBN', '\b97[89][0-9]{10}\b'], not: ['二手'], weight: 0.1}
  - {name: cart, any: ['加入购物车', '(?i)add to cart'], weight: 0.137}
`
	p, err := Parse([]byte(src), "r.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, r := range p.Rules {
		sum += r.Weight
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Fatalf("weights sum to %v", sum)
	}
	cases := []struct {
		name    string
		text    string
		matched []string
		score   float64
	}{
		{"nothing", "今天天气很好", nil, 0},
		{"price zh", "定价：45.00元", []string{"price"}, 0.263 / 0.5},
		{"price en case", "PRICE: $12.99", []string{"price"}, 0.263 / 0.5},
		{"isbn needs both", "ISBN 书号", nil, 0},
		{"isbn all", "ISBN 9787111213826", []string{"isbn"}, 0.1 / 0.5},
		{"isbn not", "ISBN 9787111213826 二手书", nil, 0},
		{"all three", "售价 30 ISBN 9787111213826 Add to Cart", []string{"price", "isbn", "cart"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, m := p.RuleScore(c.text)
			if !slices.Equal(m, c.matched) || math.Abs(s-c.score) > 1e-9 {
				t.Errorf("RuleScore(%q) = %v %v, want %v %v", c.text, s, m, c.score, c.matched)
			}
		})
	}
}

func TestHostAndSiteLookups(t *testing.T) {
	src := `
hosts:
  - {host: "*.gov.cn", rank: other}
  - {host: "*.zj.gov.cn", rank: province}
  - {host: www.zj.gov.cn, rank: national}
ad_hosts: [doubleclick.net]
extract:
  - {site: "*", title: title}
  - {site: zj.gov.cn, title: h1}
  - {site: lyj.zj.gov.cn, title: h2}
`
	p, err := Parse([]byte(src), "h.yaml")
	if err != nil {
		t.Fatal(err)
	}
	hosts := []struct {
		host string
		rank string
		ok   bool
	}{
		{"www.zj.gov.cn", RankNational, true},
		{"lyj.zj.gov.cn", RankProvince, true},
		{"zj.gov.cn", RankProvince, true},
		{"www.forestry.gov.cn", RankOther, true},
		{"example.com", "", false},
		{"xzj.gov.cn.evil.com", "", false},
	}
	for _, c := range hosts {
		h, ok := p.HostRank(c.host)
		if ok != c.ok || h.Rank != c.rank {
			t.Errorf("HostRank(%s) = %+v %v, want rank %q %v", c.host, h, ok, c.rank, c.ok)
		}
	}
	sites := map[string]string{
		"lyj.zj.gov.cn":      "h2",
		"lyj.zj.gov.cn:8080": "h2",
		"www.zj.gov.cn":      "h1",
		"notzj.gov.cn":       "title",
	}
	for host, want := range sites {
		if e, ok := p.ExtractFor(host); !ok || e.Title != want {
			t.Errorf("ExtractFor(%s) = %+v %v, want title %q", host, e, ok, want)
		}
	}
	for host, want := range map[string]bool{"ad.doubleclick.net": true, "doubleclick.net:443": true, "notdoubleclick.net": false} {
		if got := p.IsAdHost(host); got != want {
			t.Errorf("IsAdHost(%s) = %v", host, got)
		}
	}
}

func TestParseSelector(t *testing.T) {
	cases := []struct {
		in         string
		css, attr  string
		isRegexp   bool
		wantErrSub string
	}{
		{in: "h1.title", css: "h1.title"},
		{in: "meta[name=pubdate]@content", css: "meta[name=pubdate]", attr: "content"},
		{in: `a[href^="mailto:x@y"]`, css: `a[href^="mailto:x@y"]`},
		{in: `re:发布时间[:：]\s*([0-9-]+)`, isRegexp: true},
		{in: "re:(", wantErrSub: "bad regex"},
		{in: "div >", wantErrSub: "bad CSS selector"},
		{in: " ", wantErrSub: "empty selector"},
	}
	for _, c := range cases {
		s, err := ParseSelector(c.in)
		if c.wantErrSub != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErrSub) {
				t.Errorf("ParseSelector(%q) error = %v, want %q", c.in, err, c.wantErrSub)
			}
			continue
		}
		if err != nil || s.CSS != c.css || s.Attr != c.attr || (s.Regexp != nil) != c.isRegexp {
			t.Errorf("ParseSelector(%q) = %+v, %v", c.in, s, err)
		}
	}
}

func TestSuggest(t *testing.T) {
	keys := profileKeys
	for in, want := range map[string]string{
		"threshold": "thresholds", "Keywords": "keywords", "dictionary_file": "dictionary_files",
		"linkstopwords": "link_stopwords", "adhosts": "ad_hosts", "zzz": "", "extracts": "extract",
	} {
		if got := suggest(in, keys); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRuleScoreConcurrent shares one profile between goroutines, as the
// stages do (run with -race).
func TestRuleScoreConcurrent(t *testing.T) {
	p := loadExample(t, "bookstores.yaml")
	text := "定价：32元 加入购物车 ISBN 9787506365437 作者：余华 出版社：作家出版社 Add to Cart"
	want, _ := p.RuleScore(text)
	done := make(chan float64)
	for range 8 {
		go func() {
			s := 0.0
			for range 50 {
				s, _ = p.RuleScore(text)
			}
			done <- s
		}()
	}
	for range 8 {
		if got := <-done; got != want {
			t.Errorf("concurrent RuleScore = %v, want %v", got, want)
		}
	}
}
