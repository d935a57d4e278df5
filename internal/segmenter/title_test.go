package segmenter

import (
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// TestTitleLogoHeading: the site's logo heading comes first in the page
// and matches a part of the <title>; the article's heading, nearer the
// content, is the title.
func TestTitleLogoHeading(t *testing.T) {
	zh := strings.Repeat("为进一步做好森林抚育工作，襄阳市林业局组织技术人员深入各县市区开展检查指导，确保任务按时完成。", 4)
	en := strings.Repeat("<p>The little roads of the county are the subject of this walking book, with maps and stories.</p>", 4)
	cases := []struct{ name, url, html, want string }{
		{"logo class", "http://lyj.xiangyang.gov.cn/a.html",
			`<html><head><title>湖北省保障森林抚育工作_襄阳市林业局</title></head><body>` +
				`<div class="top"><h1 class="logo">襄阳市林业局</h1></div><div class="nav"><a href="/">首页</a></div>` +
				`<div class="main"><h1>湖北省保障森林抚育工作</h1><div class="text"><p>` + zh + `</p></div></div></body></html>`,
			"湖北省保障森林抚育工作"},
		{"logo link", "http://www.willowbookshop.example/little-roads",
			`<html><head><title>Little Roads | Willow Bookshop</title></head><body>` +
				`<header><h1><a href="/">Willow Bookshop</a></h1></header>` +
				`<main><h1>Little Roads</h1><div class="post">` + en + `</div></main></body></html>`,
			"Little Roads"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := mustNew(t, Options{}).Segment(record.Page{URL: c.url, HTML: c.html})
			if d.Title != c.want {
				t.Errorf("title %q, want %q", d.Title, c.want)
			}
		})
	}
}

// TestTitleAffixes: without a heading, the parts of the <title> that
// name the site (og:site_name, the host) are stripped.
func TestTitleAffixes(t *testing.T) {
	cases := []struct{ title, url, siteName, want string }{
		{"湖北省保障森林抚育工作_襄阳市林业局", "http://a.example/1.html", "襄阳市林业局", "湖北省保障森林抚育工作"},
		{"Little Roads | Willow Bookshop", "http://www.willowbookshop.com/p/1", "", "Little Roads"},
		{"Willow Bookshop - Little Roads", "http://shop.example/p/1", "Willow Bookshop", "Little Roads"},
		{"Little Roads", "http://www.willowbookshop.com/p/1", "", "Little Roads"},
		{"森林防火工作会议召开——全面部署今冬明春工作_某某市人民政府网", "http://a.example/2.html", "", "森林防火工作会议召开——全面部署今冬明春工作"},
		{"投身外交(3)\uFFFD_读书频道_新浪网", "http://a.example/3.html", "", "投身外交(3)"},
		{"China and Europe, 1500–2000 and Beyond: What is Modern?", "http://a.example/4.html", "", "China and Europe, 1500–2000 and Beyond: What is Modern?"},
		{"日本无性婚姻问题严重(图)--雅虎新闻", "http://a.example/5.html", "", "日本无性婚姻问题严重(图)"},
		{"江城新闻 » 播客热潮迅速蔓延 挑逗传统传媒业", "http://a.example/6.html", "", "播客热潮迅速蔓延 挑逗传统传媒业"},
	}
	for _, c := range cases {
		h := &head{title: c.title, meta: map[string]string{}}
		if c.siteName != "" {
			h.meta["og:site_name"] = c.siteName
		}
		if got := cleanTitle(c.title, nil, nil, siteNames(h, c.url, nil)); got != c.want {
			t.Errorf("cleanTitle(%q) = %q, want %q", c.title, got, c.want)
		}
	}
}

// TestTitleSiteSuffixHeading: a heading that only ends the <title> (the
// site's name, written as a plain h1 above the story) is stripped from
// it, not taken as the title.
func TestTitleSiteSuffixHeading(t *testing.T) {
	got := cleanTitle("土豆不“土” 土豆无“土” 松花江网", []string{"松花江网"}, nil, nil)
	if got != "土豆不“土” 土豆无“土”" {
		t.Errorf("title %q", got)
	}
}

// TestTitleRepeatedHeading: two equal h1s (a logo written twice) do not
// override the <title>; an og:title equal to the article's h1 does.
func TestTitleRepeatedHeading(t *testing.T) {
	if got := cleanTitle("Veteran Wraps Baby in Flag, Photo Sparks Debate", []string{"Follow GMA", "Follow GMA"}, nil, nil); got != "Veteran Wraps Baby in Flag, Photo Sparks Debate" {
		t.Errorf("title %q", got)
	}
	if got := cleanTitle("Euro-Zone's Direct Injections To Banks May Not Happen Soon - Real Time Brussels",
		[]string{"ESM and Banks: Not So Soon", "ESM and Banks: Not So Soon"}, []string{"ESM and Banks: Not So Soon"}, nil); got != "ESM and Banks: Not So Soon" {
		t.Errorf("title %q", got)
	}
}
