package simweb

// Name pools for hosts, site names and the places and people the text
// talks about. Host names look real but only resolve through simweb;
// every page says in its footer that the site is simulated.

// region is a place with a pinyin form (for host names) and a Chinese name.
type region struct{ pinyin, zh string }

var provinces = []region{
	{"hunan", "湖南省"}, {"hubei", "湖北省"}, {"jiangxi", "江西省"}, {"fujian", "福建省"},
	{"zhejiang", "浙江省"}, {"anhui", "安徽省"}, {"sichuan", "四川省"}, {"yunnan", "云南省"},
	{"guizhou", "贵州省"}, {"guangxi", "广西壮族自治区"}, {"guangdong", "广东省"}, {"heilongjiang", "黑龙江省"},
	{"jilin", "吉林省"}, {"liaoning", "辽宁省"}, {"shaanxi", "陕西省"}, {"gansu", "甘肃省"},
	{"henan", "河南省"}, {"hebei", "河北省"}, {"shandong", "山东省"}, {"shanxi", "山西省"},
	{"jiangsu", "江苏省"}, {"hainan", "海南省"}, {"qinghai", "青海省"}, {"neimenggu", "内蒙古自治区"},
	{"xinjiang", "新疆维吾尔自治区"}, {"xizang", "西藏自治区"}, {"ningxia", "宁夏回族自治区"}, {"chongqing", "重庆市"},
}

var cities = []region{
	{"changde", "常德市"}, {"zhuzhou", "株洲市"}, {"yueyang", "岳阳市"}, {"huaihua", "怀化市"},
	{"yichang", "宜昌市"}, {"xiangyang", "襄阳市"}, {"ganzhou", "赣州市"}, {"jian", "吉安市"},
	{"sanming", "三明市"}, {"nanping", "南平市"}, {"lishui", "丽水市"}, {"quzhou", "衢州市"},
	{"huangshan", "黄山市"}, {"anqing", "安庆市"}, {"yaan", "雅安市"}, {"leshan", "乐山市"},
	{"puer", "普洱市"}, {"lincang", "临沧市"}, {"qiandongnan", "黔东南州"}, {"zunyi", "遵义市"},
	{"baise", "百色市"}, {"hechi", "河池市"}, {"shaoguan", "韶关市"}, {"meizhou", "梅州市"},
	{"yichun", "伊春市"}, {"mudanjiang", "牡丹江市"}, {"baishan", "白山市"}, {"dandong", "丹东市"},
	{"hanzhong", "汉中市"}, {"tianshui", "天水市"}, {"xinyang", "信阳市"}, {"chengde", "承德市"},
	{"linyi", "临沂市"}, {"changzhi", "长治市"}, {"chenzhou", "郴州市"}, {"shangrao", "上饶市"},
}

var counties = []region{
	{"jingzhou", "靖州县"}, {"huitong", "会同县"}, {"chongyi", "崇义县"}, {"suichuan", "遂川县"},
	{"jiangle", "将乐县"}, {"youxi", "尤溪县"}, {"longquan", "龙泉市"}, {"kaihua", "开化县"},
	{"qimen", "祁门县"}, {"yuexi", "岳西县"}, {"tianquan", "天全县"}, {"mabian", "马边县"},
	{"jingdong", "景东县"}, {"cangyuan", "沧源县"}, {"jinping", "锦屏县"}, {"chishui", "赤水市"},
	{"leye", "乐业县"}, {"huanjiang", "环江县"}, {"ruyuan", "乳源县"}, {"pingyuan", "平远县"},
	{"tieli", "铁力市"}, {"hailin", "海林市"}, {"fusong", "抚松县"}, {"kuandian", "宽甸县"},
	{"foping", "佛坪县"}, {"huixian", "徽县"}, {"shangcheng", "商城县"}, {"weichang", "围场县"},
	{"mengyin", "蒙阴县"}, {"qinyuan", "沁源县"}, {"yizhang", "宜章县"}, {"wuyuan", "婺源县"},
	{"anji", "安吉县"}, {"lushi", "卢氏县"}, {"wuyishan", "武夷山市"}, {"lichuan", "利川市"},
}

var placesEN = []string{
	"Oregon", "Vermont", "Maine", "Montana", "Colorado", "British Columbia", "Ontario", "Quebec",
	"Bavaria", "Scotland", "Wales", "Cumbria", "Tasmania", "Queensland", "Otago", "Lapland",
	"Minnesota", "Wisconsin", "Georgia", "the Pacific Northwest", "New England", "the Highlands",
	"Alberta", "Yorkshire", "Cornwall", "Tuscany", "Provence", "Andalusia", "Kyoto", "Hokkaido",
}

// Surnames and given names for authors, reporters and forum users.
var surnamesZH = []string{"王", "李", "张", "刘", "陈", "杨", "赵", "黄", "周", "吴", "徐", "孙", "胡", "朱", "高", "林", "何", "郭", "马", "罗", "梁", "宋", "郑", "谢", "韩", "唐", "冯", "于", "董", "萧"}
var givenZH = []string{"伟", "芳", "娜", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰", "娟", "涛", "明", "超", "秀英", "华", "平", "建国", "志强", "海燕", "晓东", "文博", "思远", "雨桐", "子涵", "浩然", "欣怡"}
var firstEN = []string{"James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "David", "Elizabeth", "William", "Susan", "Richard", "Sarah", "Thomas", "Karen", "Daniel", "Emily", "Matthew", "Laura", "Anna", "Peter", "Helen", "George", "Grace", "Oliver", "Sophie", "Henry", "Clara", "Samuel"}
var lastEN = []string{"Smith", "Johnson", "Brown", "Taylor", "Miller", "Wilson", "Moore", "Anderson", "Thomas", "Jackson", "White", "Harris", "Martin", "Thompson", "Walker", "Young", "Allen", "King", "Wright", "Scott", "Green", "Baker", "Adams", "Nelson", "Hill", "Campbell", "Mitchell", "Carter", "Roberts", "Turner"}

// Brand-like syllables for commercial and media host names.
var brandZH = []region{
	{"shuxiang", "书香"}, {"mofang", "墨坊"}, {"qingteng", "青藤"}, {"wenyuan", "文渊"}, {"boya", "博雅"},
	{"hanmo", "翰墨"}, {"yuedu", "悦读"}, {"zhiyin", "知音"}, {"jinjuan", "锦卷"}, {"lanting", "兰亭"},
	{"yunshu", "云书"}, {"songfeng", "松风"}, {"mingde", "明德"}, {"huaxia", "华夏"}, {"tianyi", "天一"},
	{"xinghe", "星河"}, {"jiuzhou", "九州"}, {"baicao", "百草"}, {"kangle", "康乐"}, {"yuntu", "云途"},
	{"feiyang", "飞扬"}, {"chuanqi", "传奇"}, {"lvtu", "旅途"}, {"shanshui", "山水"}, {"jinniu", "金牛"},
	{"caifu", "财富"}, {"jinxiu", "锦绣"}, {"jianbu", "健步"}, {"kangjian", "康健"}, {"linhai", "林海"},
	{"lvyin", "绿荫"}, {"senyuan", "森源"}, {"qingshan", "青山"}, {"zhongyuan", "中原"}, {"dongfang", "东方"},
	{"nanfeng", "南风"}, {"beichen", "北辰"}, {"xiyu", "西域"}, {"changjiang", "长江"}, {"huanghe", "黄河"},
}
var brandEN = []string{"maple", "harbor", "owl", "lantern", "cedar", "willow", "quill", "inkwell", "summit", "compass", "atlas", "meridian", "beacon", "falcon", "riverside", "oakwood", "bluebird", "northstar", "evergreen", "granite", "harvest", "pioneer", "keystone", "lighthouse", "birch", "redwood", "timber", "canopy", "trailhead", "wayfarer"}

// adHosts serve the ad blocks; their names match the ad-host lists real
// topic profiles carry.
var adHosts = []string{"googleads.g.doubleclick.net", "pos.baidu.com", "cpro.baidustatic.com", "ads.adnxs-sim.com", "click.union-ads.cn", "ad.adsrvr-sim.org"}
