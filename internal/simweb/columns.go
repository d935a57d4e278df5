package simweb

// Column tables: the sections of each kind of site, by language. A column
// with topic noTopic holds pages about administration or nothing in
// particular; mixed columns hold a share of topic pages and the rest
// administrative ones.

type colDef struct {
	slug, name string
	topic      int  // noTopic for administrative sections
	mixed      bool // half topical, half administrative
	weight     int  // relative number of items
}

// authority topical columns, Chinese.
var govTopicCols = map[int][]colDef{
	1: {{"lyyw", "林业要闻", 1, false, 4}, {"zcfg", "政策法规", 1, false, 2}, {"zlyh", "造林绿化", 1, false, 3}, {"slzy", "森林资源", 1, false, 2},
		{"slfh", "森林防火", 1, false, 2}, {"yhsw", "有害生物防治", 1, false, 2}, {"zrbh", "自然保护地", 1, false, 2}, {"kjtg", "科技推广", 1, false, 2}},
	2: {{"wlyw", "文旅要闻", 2, false, 4}, {"lyxl", "旅游线路", 2, false, 3}, {"jqjs", "景区介绍", 2, false, 3}, {"lyfw", "旅游服务", 2, false, 2}, {"whyc", "文化遗产", 2, false, 2}},
	3: {{"jryw", "金融要闻", 3, false, 4}, {"zbsc", "资本市场", 3, false, 3}, {"jrjg", "金融监管", 3, false, 2}, {"jrzs", "金融知识", 3, false, 2}},
	4: {{"tyyw", "体育要闻", 4, false, 4}, {"jjty", "竞技体育", 4, false, 3}, {"qmjs", "全民健身", 4, false, 3}, {"sshd", "赛事活动", 4, false, 2}},
	5: {{"wjyw", "卫健要闻", 5, false, 4}, {"jbfk", "疾病防控", 5, false, 3}, {"ylfw", "医疗服务", 5, false, 2}, {"jkkp", "健康科普", 5, false, 3}, {"fybj", "妇幼保健", 5, false, 2}},
}

// govAdminCols are the administrative sections of every government site.
var govAdminCols = []colDef{
	{"tzgg", "通知公告", noTopic, true, 4}, {"zwgk", "政务公开", noTopic, false, 4}, {"djgz", "党建工作", noTopic, false, 3}, {"rsxx", "人事信息", noTopic, false, 2},
	{"gzdt", "工作动态", noTopic, true, 3},
}

// govPortalCols are the sections of a general government portal.
var govPortalCols = []colDef{
	{"zwyw", "政务要闻", noTopic, false, 4}, {"tzgg", "通知公告", noTopic, false, 3}, {"zcwj", "政策文件", noTopic, false, 2},
	{"bmdt", "部门动态", noTopic, true, 3}, {"bsfw", "办事服务", noTopic, false, 1},
}

// English topical sections (content sites and English authorities).
var enTopicCols = map[int][]colDef{
	1: {{"news", "News", 1, false, 3}, {"management", "Forest Management", 1, false, 3}, {"wildfire", "Wildfire", 1, false, 2}, {"forest-health", "Forest Health", 1, false, 2}, {"research", "Research", 1, false, 2}},
	2: {{"destinations", "Destinations", 2, false, 3}, {"guides", "Travel Guides", 2, false, 3}, {"hotels", "Hotels", 2, false, 2}, {"tips", "Travel Tips", 2, false, 2}, {"food", "Food and Drink", 2, true, 1}},
	3: {{"markets", "Markets", 3, false, 3}, {"stocks", "Stocks", 3, false, 3}, {"economy", "Economy", 3, false, 2}, {"investing", "Investing", 3, false, 2}, {"banking", "Banking", 3, false, 1}},
	4: {{"football", "Football", 4, false, 3}, {"basketball", "Basketball", 4, false, 2}, {"tennis", "Tennis", 4, false, 2}, {"athletics", "Athletics", 4, false, 2}, {"olympics", "Olympics", 4, false, 1}},
	5: {{"conditions", "Conditions", 5, false, 3}, {"nutrition", "Nutrition", 5, false, 2}, {"fitness", "Fitness", 5, true, 2}, {"medicine", "Medicine", 5, false, 2}, {"wellness", "Wellness", 5, false, 2}},
}

var enAdminCols = []colDef{
	{"press", "Press Releases", noTopic, true, 1}, {"events", "Events", noTopic, false, 1}, {"careers", "Careers", noTopic, false, 1},
}

// Chinese content-site sections per topic.
var zhContentCols = map[int][]colDef{
	1: {{"news", "林业资讯", 1, false, 3}, {"jishu", "营林技术", 1, false, 3}, {"shuzhong", "树种介绍", 1, false, 2}, {"bingchong", "病虫害防治", 1, false, 2}, {"chanye", "林业产业", 1, false, 2}, {"qiye", "企业动态", noTopic, true, 1}},
	2: {{"gonglue", "旅游攻略", 2, false, 3}, {"youji", "游记", 2, false, 3}, {"jingdian", "景点", 2, false, 2}, {"jiudian", "酒店民宿", 2, false, 2}, {"meishi", "美食", 2, true, 1}},
	3: {{"gushi", "股市", 3, false, 3}, {"hongguan", "宏观", 3, false, 2}, {"jijin", "基金", 3, false, 2}, {"gongsi", "公司", 3, false, 2}, {"licai", "理财", 3, false, 2}},
	4: {{"zuqiu", "足球", 4, false, 3}, {"lanqiu", "篮球", 4, false, 3}, {"zonghe", "综合体育", 4, false, 2}, {"jianshen", "健身", 4, false, 2}},
	5: {{"jibing", "疾病", 5, false, 3}, {"yangsheng", "养生", 5, false, 2}, {"yiyao", "医药", 5, false, 2}, {"muying", "母婴", 5, false, 2}, {"xinli", "心理", 5, true, 1}},
}

// Portal channels: one per topic plus general ones.
var portalColsZH = []colDef{
	{"book", "读书", 0, false, 2}, {"green", "生态林业", 1, false, 2}, {"travel", "旅游", 2, false, 2}, {"finance", "财经", 3, false, 3},
	{"sports", "体育", 4, false, 3}, {"health", "健康", 5, false, 2}, {"society", "社会", noTopic, false, 3}, {"ent", "娱乐", noTopic, false, 3},
	{"auto", "汽车", noTopic, false, 2}, {"tech", "科技", noTopic, false, 2},
}
var portalColsEN = []colDef{
	{"books", "Books", 0, false, 2}, {"environment", "Environment", 1, false, 2}, {"travel", "Travel", 2, false, 2}, {"business", "Business", 3, false, 3},
	{"sports", "Sports", 4, false, 3}, {"health", "Health", 5, false, 2}, {"world", "World", noTopic, false, 3}, {"entertainment", "Entertainment", noTopic, false, 3},
	{"tech", "Tech", noTopic, false, 2}, {"opinion", "Opinion", noTopic, true, 2},
}

// Bookstore categories; the topic is the subject books of the category
// lean to (a product page is always a books page).
var bookColsZH = []colDef{
	{"wenxue", "文学", 0, false, 3}, {"xiaoshuo", "小说", 0, false, 3}, {"tongshu", "童书", 0, false, 2}, {"sheke", "社科", 0, false, 2},
	{"lishi", "历史", 0, false, 2}, {"jingguan", "经济管理", 3, false, 2}, {"keji", "科技", 1, false, 1}, {"lvyou", "旅游地图", 2, false, 1},
	{"jiankang", "保健养生", 5, false, 1}, {"tiyu", "体育运动", 4, false, 1},
}
var bookColsEN = []colDef{
	{"fiction", "Fiction", 0, false, 3}, {"mystery", "Mystery and Thrillers", 0, false, 2}, {"children", "Children's Books", 0, false, 2},
	{"history", "History", 0, false, 2}, {"business", "Business and Money", 3, false, 2}, {"nature", "Nature and Forestry", 1, false, 1},
	{"travel", "Travel", 2, false, 1}, {"health", "Health and Fitness", 5, false, 1}, {"sports", "Sports", 4, false, 1}, {"poetry", "Poetry", 0, false, 1},
}

// Shop categories per goods topic.
var shopColsZH = map[int][]colDef{
	2: {{"xiangbao", "旅行箱包", 2, false, 3}, {"lubing", "户外露营", 2, false, 2}, {"yongpin", "旅行用品", 2, false, 2}, {"dengshan", "登山装备", 2, false, 2}},
	4: {{"paobu", "跑步装备", 4, false, 3}, {"qiulei", "球类运动", 4, false, 2}, {"qicai", "健身器材", 4, false, 2}, {"fushi", "运动服饰", 4, false, 3}},
	5: {{"baojian", "保健食品", 5, false, 3}, {"qixie", "医疗器械", 5, false, 2}, {"yaoxiang", "家庭药箱", 5, false, 2}, {"huli", "个人护理", 5, false, 2}},
}
var shopColsEN = map[int][]colDef{
	2: {{"luggage", "Luggage", 2, false, 3}, {"camping", "Camping", 2, false, 2}, {"accessories", "Travel Accessories", 2, false, 2}},
	4: {{"running", "Running", 4, false, 3}, {"ball-sports", "Ball Sports", 4, false, 2}, {"fitness", "Fitness Equipment", 4, false, 2}, {"apparel", "Apparel", 4, false, 2}},
	5: {{"supplements", "Supplements", 5, false, 3}, {"devices", "Health Devices", 5, false, 2}, {"first-aid", "First Aid", 5, false, 2}},
}

// Forum boards.
var forumBoardsZH = []colDef{
	{"dushu", "读书交流", 0, false, 1}, {"linye", "林业技术", 1, false, 1}, {"lvyou", "驴友天地", 2, false, 1}, {"gushi", "股市论坛", 3, false, 1},
	{"tiyu", "体育沙龙", 4, false, 1}, {"jiankang", "健康问答", 5, false, 1}, {"guanshui", "灌水专区", noTopic, false, 2}, {"zhanwu", "站务公告", noTopic, false, 1},
}
var forumBoardsEN = []colDef{
	{"books", "Book Talk", 0, false, 1}, {"forestry", "Woodlands and Forestry", 1, false, 1}, {"travel", "Travel Talk", 2, false, 1}, {"stocks", "Stocks and Investing", 3, false, 1},
	{"sports", "Sports Chat", 4, false, 1}, {"health", "Health Questions", 5, false, 1}, {"offtopic", "Off Topic", noTopic, false, 2}, {"meta", "Site Announcements", noTopic, false, 1},
}

// topicNameZH and topicNameEN name the topics in page text.
var topicNameZH = []string{"图书", "林业", "旅游", "财经", "体育", "健康"}
var topicNameEN = []string{"Books", "Forestry", "Travel", "Finance", "Sports", "Health"}

// static pages: path, Chinese title, English title.
type staticDef struct{ path, zh, en string }

var staticPages = []staticDef{
	{"/about.html", "关于我们", "About Us"}, {"/contact.html", "联系我们", "Contact"}, {"/sitemap.html", "网站地图", "Site Map"},
}
var shopStatics = []staticDef{
	{"/help/shipping.html", "配送说明", "Shipping"}, {"/help/payment.html", "支付方式", "Payment"}, {"/help/returns.html", "退换货政策", "Returns"},
}
var govStatics = []staticDef{
	{"/jgsz/ldxx.html", "领导信息", "Leadership"}, {"/jgsz/nsjg.html", "内设机构", "Departments"}, {"/jgsz/zyzz.html", "主要职责", "Responsibilities"},
}
