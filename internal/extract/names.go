package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// surnames are the single-character Chinese family names of the Hundred
// Family Surnames (百家姓) and the common modern ones missing from it
// (付, 肖, 闫, 覃 …): together they cover nearly every person in China.
// A byline without a cue word is taken for a name only when it starts
// with one of them.
const surnames = "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张孔曹严华金魏陶姜戚谢邹喻柏水窦章" +
	"云苏潘葛奚范彭郎鲁韦昌马苗凤花方俞任袁柳酆鲍史唐费廉岑薛雷贺倪汤滕殷罗毕郝邬安常" +
	"乐于时傅皮卞齐康伍余元卜顾孟平黄和穆萧尹姚邵湛汪祁毛禹狄米贝明臧计伏成戴谈宋茅庞" +
	"熊纪舒屈项祝董梁杜阮蓝闵席季麻强贾路娄危江童颜郭梅盛林刁钟徐邱骆高夏蔡田樊胡凌霍" +
	"虞万支柯昝管卢莫经房裘缪干解应宗丁宣贲邓郁单杭洪包诸左石崔吉钮龚程嵇邢滑裴陆荣翁" +
	"荀羊於惠甄曲家封芮羿储靳汲邴糜松井段富巫乌焦巴弓牧隗山谷车侯宓蓬全郗班仰秋仲伊宫" +
	"宁仇栾暴甘钭厉戎祖武符刘景詹束龙叶幸司韶郜黎蓟薄印宿白怀蒲邰从鄂索咸籍赖卓蔺屠蒙" +
	"池乔阴郁胥能苍双闻莘党翟谭贡劳逄姬申扶堵冉宰郦雍却璩桑桂濮牛寿通边扈燕冀郏浦尚农" +
	"温别庄晏柴瞿阎充慕连茹习宦艾鱼容向古易慎戈廖庾终暨居衡步都耿满弘匡国文寇广禄阙东" +
	"欧殳沃利蔚越夔隆师巩厍聂晁勾敖融冷訾辛阚那简饶空曾毋沙乜养鞠须丰巢关蒯相查后荆红" +
	"游竺权逯盖益桓公" +
	"付肖闫覃冼麦练谌揭邝佘区粟银兰税母官仝谯" +
	"趙錢孫衛蔣韓楊許張嚴華陶薑謝鄒竇蘇潘葛範鄭馮陳魯韋鳳貝鮑湯殷羅畢鄔樂時齊顧孟黃穆蕭" +
	"堯邵湯汪禹臧計戴談龐紀項董閔賈婁顏鍾徐駱樊淩萬盧繆鄧龔嚴鄭陸榮翁葉黎龍劉聶鄺譚賴喬" +
	"閻溫連廖歐師鞏關"

// compoundSurnames are the two-character family names.
var compoundSurnames = []string{
	"欧阳", "司马", "上官", "诸葛", "东方", "皇甫", "尉迟", "公孙", "慕容", "长孙", "宇文",
	"司徒", "司空", "令狐", "夏侯", "独孤", "轩辕", "端木", "南宫", "西门", "万俟", "闻人",
	"赫连", "澹台", "公冶", "宗政", "濮阳", "淳于", "单于", "太叔", "申屠", "仲孙", "钟离",
	"鲜于", "闾丘", "呼延", "拓跋", "百里", "东郭", "歐陽", "司馬", "諸葛", "長孫",
}

var surnameSet = func() map[rune]bool {
	m := map[rune]bool{}
	for _, r := range surnames {
		m[r] = true
	}
	return m
}()

// orgSuffixes end the names of organisations and media, never of people.
var orgSuffixes = []string{
	"网", "報", "报", "社", "台", "站", "刊", "局", "部", "委", "厅", "院", "所", "会", "馆",
	"处", "办", "室", "中心", "公司", "集团", "频道", "大学", "学院", "学校", "政府", "杂志",
	"周刊", "日报", "晚报", "时报", "在线", "论坛", "博客", "新闻", "门户", "文章", "专栏",
}

// notNames are words that start with a surname character but are common
// labels on Chinese pages.
var notNames = map[string]bool{
	"时间": true, "日期": true, "文章": true, "文字": true, "高清": true, "安全": true,
	"平台": true, "明天": true, "于是": true, "马上": true, "张贴": true, "通讯": true,
	"通知": true, "公告": true, "公开": true, "国内": true, "国际": true, "国家": true,
	"东西": true, "关于": true, "相关": true, "更多": true, "全部": true, "全文": true,
	"和平": true, "文化": true, "成功": true, "经济": true, "应用": true, "宣传": true,
	"原文": true, "编辑": true, "作者": true, "记者": true, "来源": true, "发布": true,
	"华人": true, "高级": true, "方法": true, "方式": true, "司法": true, "政府": true,
	"简介": true, "房产": true, "江南": true, "山东": true, "广东": true, "上海": true, "北京": true, "天津": true,
}

// LooksLikeChineseName tells whether s is a Chinese personal name: two or
// three Han characters starting with a family name, or three or four
// starting with a compound one (欧阳, 司马 …), not an organisation or a
// common label.
func LooksLikeChineseName(s string) bool {
	n := utf8.RuneCountInString(s)
	if n < 2 || n > 4 {
		return false
	}
	for _, r := range s {
		if !unicode.Is(unicode.Han, r) {
			return false
		}
	}
	if notNames[s] {
		return false
	}
	for _, suf := range orgSuffixes {
		if strings.HasSuffix(s, suf) {
			return false
		}
	}
	for _, c := range compoundSurnames {
		if strings.HasPrefix(s, c) {
			return n >= 3
		}
	}
	r, _ := utf8.DecodeRuneInString(s)
	// Four characters after a one-character surname are rarely a name
	// (简体中文, 国家林业局) and rarely needed: such names come with a cue.
	return surnameSet[r] && n <= 3
}

// namesOnly tells whether v is one to six Chinese names separated by
// spaces or 、, or a short run of capitalised Latin words.
func namesOnly(v string) bool {
	toks := nameTokens(v)
	if len(toks) == 0 || len(toks) > 6 {
		return false
	}
	for _, t := range toks {
		if !LooksLikeChineseName(t) {
			return false
		}
	}
	return true
}

func nameTokens(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool {
		return isSpaceRune(r) || r == '、' || r == ',' || r == '，' || r == '/' || r == ';' || r == '；'
	})
}

func isSpaceRune(r rune) bool {
	return unicode.IsSpace(r) || r == '\u3000' || r == '\u00a0'
}

// agencies are bylines that name who published a story, not who wrote
// it: wire services and the words for "staff", "this paper", "unknown"
// and "administrator", squashed (lower case, no spaces or punctuation).
var agencies = map[string]bool{
	"ap": true, "associatedpress": true, "theassociatedpress": true, "afp": true,
	"agencefrancepresse": true, "reuters": true, "thomsonreuters": true, "upi": true,
	"dpa": true, "efe": true, "ansa": true, "xinhua": true, "bloomberg": true,
	"pressassociation": true, "staff": true, "staffwriter": true, "staffreports": true,
	"editorialstaff": true, "admin": true, "administrator": true, "anonymous": true,
	"unknown": true, "editor": true, "webmaster": true,
	"新华社": true, "中新社": true, "中国新闻社": true, "新华网": true, "中新网": true,
	"人民网": true, "央视网": true, "本报": true, "本站": true, "本网": true, "网络": true,
	"综合": true, "佚名": true, "未知": true, "匿名": true, "管理员": true, "编辑部": true,
}

// IsAgency tells whether a byline names a wire agency or a generic
// publisher ("AFP", "Associated Press", "新华社", "佚名", "admin") rather
// than a person: such a byline is not the author.
func IsAgency(v string) bool {
	sq := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, v)
	return agencies[sq]
}
