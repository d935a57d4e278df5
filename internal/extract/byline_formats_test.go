package extract

import "testing"

// TestZoneAuthorFormats: common byline layouts of Chinese and English
// news pages, written for this test (not taken from any page), each
// under a title and above the story.
func TestZoneAuthorFormats(t *testing.T) {
	for _, c := range []struct{ before, want string }{
		{"发布时间：2021-03-02 10:20　来源：新华网　作者：张三", "张三"},
		{"2021-03-02 10:20:11 来源: 人民网 作者: 李四 责任编辑: 王五", "李四"},
		{"本报讯（记者 孙八 通讯员 周九）昨天，市里召开会议。", "孙八 周九"},
		{"文/赵六", "赵六"},
		{"记者 钱七 摄影 郑十", "钱七"},
		{"来源：央视新闻客户端 | 编辑：刘一", ""}, // an editor is not the author
		{"作者：陈二 | 来源：光明日报 | 2021-01-01", "陈二"},
		{"【作者】吴三 【来源】某某网", "吴三"},
		{"新华社北京3月2日电（记者 冯四、褚五）", "冯四 褚五"},
		{"责任编辑：卫六", ""},
		{"本报记者 蒋七 实习生 沈八", "蒋七 沈八"},
		{"作者：韩九 杨十", "韩九 杨十"},
		{"撰文：朱一 摄影：秦二", "朱一"},
		{"央视网消息（记者 尤三）：", "尤三"},
		{"By JANE DOE, Associated Press", "JANE DOE"},
		{"Posted by John Smith on March 3, 2015", "John Smith"},
		{"Written by Anna Lee | Updated 3 hours ago", "Anna Lee"},
		{"文｜林一", "林一"},
		{"文 | 林一", "林一"},
		{"■本报记者 何二", "何二"},
		{"□记者 吕三", "吕三"},
		{"作者：施四（某某大学教授）", "施四"},
		{"记者：张五", "张五"},
		{"通讯员 孔六 记者 曹七", "孔六 曹七"},
		{"2022-01-05 08:00 来源：人民日报 作者：严八 字号：大 中 小", "严八"},
		{"时间：2022-01-05　作者：华九　点击数：120", "华九"},
		{"作者：金十　　发布时间：2022-01-05", "金十"},
		{"稿件来源：某某市教育局 作者：魏一 审核：陶二", "魏一"},
		{"发布日期：2022-01-05 浏览次数：33 作者：姜三 来源：某某局", "姜三"},
		{"记者｜戚四 编辑｜谢五", "戚四"},
		{"本报记者 邹六 摄", "邹六"},
		{"撰稿：喻七　审核：柏八", "喻七"},
		{"【字体：大 中 小】 作者：水九 来源：本站", "水九"},
		{"作者：窦十、章一", "窦十、章一"},
		{"By Mary O'Neil and Tom Ray, Staff Writers", "Mary O'Neil and Tom Ray"},
		{"BY KAREN SMITH | The Daily Star", "KAREN SMITH"},
	} {
		z := Zone{Before: "某某标题\n\n" + c.before + "\n\n正文开始了，这是一段很长的正文。"}
		if got := z.Author(); got != c.want {
			t.Errorf("%q: got %q want %q", c.before, got, c.want)
		}
	}
}
