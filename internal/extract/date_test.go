package extract

import (
	"testing"
	"time"
)

var cst = time.FixedZone("+08:00", 8*3600)

func TestParseDate(t *testing.T) {
	cases := []struct{ in, want string }{
		{"2017年4月1日 08:00", "2017-04-01T08:00:00+08:00"},
		{"发布时间：2017年04月01日 下午3时30分", "2017-04-01T15:30:00+08:00"},
		{"2017-4-1", "2017-04-01"},
		{"2017/04/01", "2017-04-01"},
		{"2017.04.01 21:23:57", "2017-04-01T21:23:57+08:00"},
		{"Apr 1, 2017", "2017-04-01"},
		{"April 1st, 2017 at 3:04 pm", "2017-04-01T15:04:00+08:00"},
		{"Sat, 01 Apr 2017 08:00:00 GMT", "2017-04-01T08:00:00Z"},
		{"2019-11-20T08:02:00Z", "2019-11-20T08:02:00Z"},
		{"2019-11-20T08:02:00.123-05:00", "2019-11-20T08:02:00-05:00"},
		{"1998年3月", "1998-03"},
		{"2018", "2018"},
		{"20170401", "2017-04-01"},
		{"2017-02-30", ""},
		{"no date here", ""},
		{"电话 12017-04-01", ""},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			d, ok := ParseDate(c.in, cst)
			got := ""
			if ok {
				got = d.String()
			}
			if got != c.want {
				t.Errorf("ParseDate(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestFindAuthorSource(t *testing.T) {
	cases := []struct{ text, author, source string }{
		{"发布时间：2017-04-01 来源：浙江日报 作者：张三 李四", "张三 李四", "浙江日报"},
		{"光明日报记者 王建宏 张文攀\n正文", "王建宏 张文攀", ""},
		{"正文……（姚峰 上海报道）", "姚峰", ""},
		{"来源：巴彦淖尔日报 编辑：苏亮", "", "巴彦淖尔日报"}, // an editor is not the author
		{"By Jane Doe and John Roe\nText", "Jane Doe and John Roe", ""},
		{"作者： size=\"20\" 来源：", "", ""},
	}
	for _, c := range cases {
		if got := FindAuthor(c.text); got != c.author {
			t.Errorf("FindAuthor(%q) = %q, want %q", c.text, got, c.author)
		}
		if got := FindSource(c.text); got != c.source {
			t.Errorf("FindSource(%q) = %q, want %q", c.text, got, c.source)
		}
	}
}

func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2017年4月1日 08:00", "Apr 1, 2017", "2019-11-20T08:02:00+08:00", "1998年3月", "Sat, 01 Apr 2017 08:00:00 GMT", "1491004800"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := ParseDate(s, cst)
		if !ok {
			return
		}
		out := d.String()
		again, ok := ParseDate(out, cst)
		if !ok || again.String() != out {
			t.Fatalf("ParseDate(%q) = %q, which parses back as %q", s, out, again.String())
		}
	})
}
