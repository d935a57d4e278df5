package extract

import (
	"testing"
	"time"
)

func TestZoneAuthor(t *testing.T) {
	cases := []struct {
		name string
		z    Zone
		want string
	}{
		{"byline lines merged", Zone{Before: "标题\n\n本报实习生 王小明 周丽\n\n本报记者 李强 方芳\n\n2003-7-24 晚报"}, "王小明 周丽 李强 方芳"},
		{"place glued to 报道", Zone{After: "新京报记者 张伟 山东冠县报道\n\n【编辑:刘欢】"}, "张伟"},
		{"closing brackets", Zone{Tail: "……过一个平安的新春佳节。（陈晓 马丹）"}, "陈晓 马丹"},
		{"closing brackets with roles", Zone{Tail: "……。（记者 赵磊 通讯员 孙婷）"}, "赵磊 孙婷"},
		{"a bracket inside a title", Zone{Tail: "参演《奔跑吧 (越南版)》等节目\n"}, ""},
		{"nav is not a byline", Zone{Before: "民情\n\n记者调查 民意调查\n\n当前位置：洛阳"}, ""},
		{"spaced name and affiliation", Zone{Before: "作者: 赵 培：北京物资学院，北京"}, "赵培"},
		{"blog poster", Zone{After: "由海风张贴 @ 2005-06-14 03:25:55 (370) 共 11 篇评论"}, "海风"},
		{"forum poster", Zone{After: "oraclefan 发表于 2005-9-15 11:46:00"}, "oraclefan"},
		{"person as source", Zone{After: "来源: 尹丽"}, "尹丽"},
		{"medium as source", Zone{After: "来源：东方网"}, ""},
		{"bracketed on date line", Zone{Before: "2004年7月16日08:19 [ 黄明 ] 来源：[ 国际金融报 ]"}, "黄明"},
		{"category in brackets", Zone{Before: "2005-01-06 08:13 [房产] 来源：新华网"}, ""},
		{"pen name under the title", Zone{Title: "我是怎样走上这条路的", Before: "我是怎样走上这条路的\n\n茉莉\n\n【报道】正文"}, "茉莉"},
		{"pen name under the headline, the page title the site's", Zone{Title: "谢谢您访问本站",
			Head: "茉莉：我是怎样走上这条路的\n\n作者： 来源： 发布日期： 7/5/2005\n\n我是怎样走上这条路的\n\n茉莉\n\n【报道】正文"}, "茉莉"},
		{"name under a heading", Zone{Title: "显示", Before: "比赛的革命\n\n胡明", Head: "——对一个问题的分析"}, "胡明"},
		{"label under the title", Zone{Title: "某某通知", Before: "某某通知\n\n摘要\n\n正文"}, ""},
		{"issuing authority", Zone{Before: "发文机关： | 某某省人民政府\n成文日期： | 2022年01月27日"}, "某某省人民政府"},
		{"drafters", Zone{After: "执笔人：闵乐 赵兰 刘韬\n编辑： 吕峥 | 来源： 千龙网"}, "闵乐 赵兰 刘韬"},
		{"nickname after a colon", Zone{Before: "作者：放飞&心情 发表时间：2005-08-28"}, "放飞&心情"},
		{"an editor is not the author", Zone{After: "来源：新闻晨报\n\n编辑：山石"}, ""},
		{"an editor after the reporter", Zone{Before: "记者 王建宏", After: "责任编辑：山石"}, "王建宏"},
		{"English byline", Zone{Before: "By Jane Doe and John Roe\nText"}, "Jane Doe and John Roe"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.z.Author(); got != c.want {
				t.Errorf("Author() = %q, want %q", got, c.want)
			}
		})
	}
}

func TestEditor(t *testing.T) {
	if got := (Zone{After: "来源：新闻晨报\n\n责任编辑：山石"}).Editor(); got != "山石" {
		t.Errorf("Editor() = %q, want 山石", got)
	}
}

func TestIsAgency(t *testing.T) {
	for s, want := range map[string]bool{
		"AFP": true, "The Associated Press": true, "新华社": true, "佚名": true, "Reuters.": true,
		"Jane Doe": false, "王建宏": false, "Apple": false,
	} {
		if got := IsAgency(s); got != want {
			t.Errorf("IsAgency(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestLooksLikeChineseName(t *testing.T) {
	for s, want := range map[string]bool{
		"王建宏": true, "欧阳修": true, "简体中文": false, "欧阳海燕": true, "司马": false, "调查": false, "新华网": false,
		"东方网": false, "时间": false, "胡平": true, "张": false, "Smith": false, "马丹阳": true,
	} {
		if got := LooksLikeChineseName(s); got != want {
			t.Errorf("LooksLikeChineseName(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestLooseDate(t *testing.T) {
	cases := []struct{ in, want string }{
		{"06/02/2022 - 13:48", "2022-02-06T13:48:00+08:00"},   // day first
		{"9/17/2004 5:54:13 AM", "2004-09-17T05:54:13+08:00"}, // month > 12 second
		{"7/5/2005 9:23:57 PM", "2005-07-05T21:23:57+08:00"},  // AM/PM: US order
		{"25.12.2019", "2019-12-25"},
		{"13/13/2019", ""},
		{"2017-04-01 08:00", "2017-04-01T08:00:00+08:00"},
		{"1/2-2019", ""},
	}
	for _, c := range cases {
		d, _, _, ok := LooseDate(c.in, cst)
		got := ""
		if ok {
			got = d.String()
		}
		if got != c.want {
			t.Errorf("LooseDate(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Strict parsing leaves numeric day/month alone and never joins
	// mixed separators into one date.
	for _, s := range []string{"06/02/2022", "12/01/2004 - 01/01/2005", "2004 - 01/01"} {
		if d, ok := ParseDate(s, time.UTC); ok {
			t.Errorf("ParseDate(%q) = %q, want none", s, d.String())
		}
	}
}

func TestCleanAuthor(t *testing.T) {
	cases := []struct{ in, want string }{
		{"By Jane Doe", "Jane Doe"},
		{"Nikhil Marathe on March 10, 2015at 08:05", "Nikhil Marathe"},
		{"STEVEN DAVIDOFF SOLOMON JULY 29, 2016", "STEVEN DAVIDOFF SOLOMON"},
		{"JEFFREY GETTLEMAN JAN. 13, 2017", "JEFFREY GETTLEMAN"},
		{"Devindra Hardawar @devindra", "Devindra Hardawar"},
		{"Chris Pokorny@DawgsByNature", "Chris Pokorny"},
		{"Megan Rowe meganr@example.com", "Megan Rowe"},
		{"Tim Childers - Live Science Contributor", "Tim Childers"},
		{"Louis Jacobson on Monday, November 18th, 2019 at 11:04 a.m.", "Louis Jacobson"},
		{"Umair Irfan Updated", "Umair Irfan"},
		{"Matthew Digby , Minh Do", "Matthew Digby, Minh Do"},
		{"本报记者 张三", "张三"},
		{"赵 培：北京物资学院", "赵培"},
		{"李四 摄", "李四"},
		{"史蒂文的家_藍天 (stevenhgm)", "史蒂文的家_藍天 (stevenhgm)"},
		{"(Jane Doe)", "Jane Doe"},
		{"张三（实习）。", "张三（实习）"},
	}
	for _, c := range cases {
		if got := CleanAuthor(c.in); got != c.want {
			t.Errorf("CleanAuthor(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzAuthor(f *testing.F) {
	for _, s := range []string{"本报实习生 王小明 周丽\n本报记者 李强", "（陈晓 马丹）", "By Jane Doe on March 10, 2015",
		"由海风张贴 @ 2005-06-14", "作者: 赵 培：北京", "2004年7月16日08:19 [ 黄明 ] 来源：[ 报 ]", "Jane@x.com - Writer"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		z := Zone{Before: s, Head: s, Title: s[:len(s)/2]}
		if a := z.Author(); len(a) > len(s)+8 {
			t.Fatalf("author %q longer than its text %q", a, s)
		}
		CleanAuthor(s)
	})
}

// TestBylineName: a byline element's text down to the name it gives, and
// nothing for labels, one-word statuses and dates.
func TestBylineName(t *testing.T) {
	for in, want := range map[string]string{
		"By Steven Mufson":                     "Steven Mufson",
		"Written by Rob Ewaschuk":              "Rob Ewaschuk",
		"JANE DOE July 29, 2016":               "JANE DOE",
		"Jane Doe, Associated Press":           "Jane Doe",
		"By Brenda  Goodman, MA":               "Brenda Goodman",
		"Jane Doe, Ph.D.":                      "Jane Doe",
		"Posted By":                            "",
		"Analysis by":                          "",
		"CBS News":                             "",
		"OUR SPECIAL CORRESPONDENT":            "",
		"Ahead of the Ticker":                  "",
		"Walter Gibbs contributed reporting":   "",
		"STAN COLLYMORE 31/12/2007":            "",
		"Kevin Johnson and Kevin McCoy":        "Kevin Johnson and Kevin McCoy",
		"Michiel de Jong":                      "Michiel de Jong",
		"Follow Author":                        "",
		"About the author":                     "",
		"the city council approved the budget": "",
		"March 3, 2015":                        "",
	} {
		if got := BylineName(in); got != want {
			t.Errorf("BylineName(%q) = %q, want %q", in, got, want)
		}
	}
}
