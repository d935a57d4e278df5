package simweb

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/publicsuffix"
)

// New builds the web of cfg. Building is deterministic and takes tens of
// milliseconds for the default 300 sites; no HTML is kept.
func New(cfg Config) *Web {
	cfg = cfg.withDefaults()
	w := &Web{
		cfg:    cfg,
		byHost: map[string]*site{},
		epoch:  time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC),
	}
	b := &builder{w: w, r: newRand(cfg.Seed, "build"), keys: map[string]bool{}}
	b.makeSites()
	for _, s := range w.sites {
		b.makePages(s)
	}
	b.makeHierarchy()
	b.makeTunnels()
	b.makeFriends()
	for _, s := range w.sites {
		if (s.kind == KindShop || s.kind == KindBookstore) && !s.down && len(s.items) > 0 {
			w.shops = append(w.shops, s)
		}
	}
	w.byTopic = make([][]int, len(Topics))
	for _, s := range w.sites {
		if s.topic >= 0 && s.tunnel == 0 && s.kind != KindShop {
			w.byTopic[s.topic] = append(w.byTopic[s.topic], s.id)
		}
	}
	return w
}

type builder struct {
	w    *Web
	r    *rand.Rand
	keys map[string]bool
	// name pool cursors
	prov, city, county, brandZ, brandE int
}

// kindShares splits the sites among the kinds, in per mille.
var kindShares = []struct {
	kind  SiteKind
	share int
}{
	{KindPortal, 40}, {KindAuthority, 170}, {KindGovPortal, 50}, {KindBookstore, 110},
	{KindShop, 90}, {KindForum, 90}, {KindLinkFarm, 60}, {KindAds, 20}, {KindContent, 0},
}

func (b *builder) makeSites() {
	n := b.w.cfg.Sites
	var kinds []SiteKind
	for _, ks := range kindShares {
		c := n * ks.share / 1000
		if ks.kind == KindContent {
			c = n - len(kinds)
		}
		if c < 1 {
			c = 1
		}
		if ks.kind == KindAuthority && c < 3 {
			c = 3
		}
		if ks.kind == KindAds && c > len(adHosts) {
			c = len(adHosts)
		}
		for i := 0; i < c && len(kinds) < n; i++ {
			kinds = append(kinds, ks.kind)
		}
	}
	// Authorities: mostly forestry, a national one first.
	authTopics := []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 5, 5, 4, 3}
	contentTopics := []int{1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5}
	shopTopics := []int{4, 5, 2}
	nAuth, nContent, nShop, nForum := 0, 0, 0, 0
	for _, k := range kinds {
		s := &site{id: len(b.w.sites), kind: k, topic: noTopic, gate: -1, parent: -1}
		switch k {
		case KindPortal:
			s.lang = b.lang(0.3)
		case KindAuthority:
			s.topic = authTopics[nAuth%len(authTopics)]
			s.lang = langZH
			if nAuth > 2 && chance(b.r, 0.08) {
				s.lang = langEN
			}
			nAuth++
		case KindGovPortal:
			s.lang = langZH
		case KindBookstore:
			s.topic = 0
			s.lang = b.lang(0.4)
		case KindShop:
			s.topic = shopTopics[nShop%len(shopTopics)]
			s.lang = b.lang(0.35)
			nShop++
		case KindContent:
			s.topic = contentTopics[nContent%len(contentTopics)]
			s.lang = b.lang(0.3)
			nContent++
		case KindForum:
			if nForum%2 == 1 {
				s.topic = 1 + (nForum/2)%5
			}
			s.lang = b.lang(0.3)
			nForum++
		case KindLinkFarm:
			s.lang = b.lang(0.4)
		}
		b.w.sites = append(b.w.sites, s)
	}
	b.rankAuthorities()
	for _, s := range b.w.sites {
		b.name(s)
		b.traits(s)
		b.w.byHost[s.host] = s
		if s.alias != "" {
			b.w.byHost[s.alias] = s
		}
		if s.kind == KindAds {
			b.w.ads = append(b.w.ads, s)
		}
	}
}

func (b *builder) lang(pEN float64) int {
	if chance(b.r, pEN) {
		return langEN
	}
	return langZH
}

// rankAuthorities gives every authority a rank: per topic, the first is
// national, then a quarter provinces, a third cities, the rest counties.
func (b *builder) rankAuthorities() {
	byTopic := map[int][]*site{}
	for _, s := range b.w.sites {
		if s.kind == KindAuthority {
			byTopic[s.topic] = append(byTopic[s.topic], s)
		}
	}
	for _, list := range byTopic {
		n := len(list)
		for i, s := range list {
			switch {
			case i == 0:
				s.rank = "national"
			case i <= 1+n/4:
				s.rank = "province"
			case i <= 1+n/4+n/3:
				s.rank = "city"
			default:
				s.rank = "county"
			}
		}
	}
	for _, s := range b.w.sites {
		if s.kind == KindGovPortal {
			s.rank = "city"
			if chance(b.r, 0.4) {
				s.rank = "county"
			}
		}
	}
}

// Host names and display names.

var authSuffix = map[int][2]string{ // topic -> pinyin abbreviation, Chinese office name
	1: {"ly", "林业局"}, 2: {"wl", "文化和旅游局"}, 3: {"jr", "地方金融管理局"}, 4: {"ty", "体育局"}, 5: {"wj", "卫生健康委员会"},
}
var authNational = map[int][2]string{
	1: {"forestry-china", "国家林业和草原局"}, 2: {"travel-china", "文化和旅游部"}, 3: {"finance-china", "国家金融监督管理总局"},
	4: {"sport-china", "国家体育总局"}, 5: {"health-china", "国家卫生健康委员会"},
}
var enAuthName = map[int][2]string{
	1: {"forests", "Department of Forestry"}, 2: {"tourism", "Tourism Board"}, 3: {"financial-services", "Financial Services Commission"},
	4: {"sport", "Sports Council"}, 5: {"health", "Department of Health"},
}
var contentSuffixZH = map[int][2]string{1: {"linye", "林业网"}, 2: {"lvyou", "旅游网"}, 3: {"caijing", "财经网"}, 4: {"tiyu", "体育网"}, 5: {"jiankang", "健康网"}}
var contentSuffixEN = map[int][2]string{1: {"forestry", "Forestry"}, 2: {"travelguide", "Travel Guide"}, 3: {"markets", "Markets"}, 4: {"sportsdaily", "Sports Daily"}, 5: {"health", "Health"}}
var shopSuffixZH = map[int]string{2: "旅行装备商城", 4: "运动户外商城", 5: "健康药房"}
var shopSuffixEN = map[int]string{2: "Travel Gear", 4: "Outfitters", 5: "Pharmacy"}

func (b *builder) nextRegion(pool []region, cur *int) region {
	r := pool[*cur%len(pool)]
	if round := *cur / len(pool); round > 0 {
		r.pinyin += strconv.Itoa(round + 1)
	}
	*cur++
	return r
}

// brandZH and brandEN walk the brand pools; once a pool is used up they
// pair its names ("shuxianglanting", "maplecedar").
func (b *builder) brandZH() region {
	i, n := b.brandZ, len(brandZH)
	b.brandZ++
	r := brandZH[i%n]
	if round := i / n; round > 0 {
		o := brandZH[(i%n+round*7)%n]
		r = region{r.pinyin + o.pinyin, r.zh + o.zh}
	}
	return r
}

func (b *builder) brandEN() string {
	i, n := b.brandE, len(brandEN)
	b.brandE++
	s := brandEN[i%n]
	if round := i / n; round > 0 {
		s += brandEN[(i%n+round*7)%n]
	}
	return s
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func (b *builder) name(s *site) {
	var host, name string
	switch s.kind {
	case KindAuthority:
		host, name = b.authorityName(s)
	case KindGovPortal:
		r := b.nextRegion(cities, &b.city)
		if s.rank == "county" {
			r = b.nextRegion(counties, &b.county)
		}
		host, name, s.place = "www."+r.pinyin+".gov.cn", r.zh+"人民政府", r.zh
	case KindPortal:
		if s.lang == langEN {
			br := b.brandEN()
			host, name = "www."+br+pick(b.r, []string{"times", "post", "herald", "daily"})+".com", title(br)+" News"
		} else {
			br := b.brandZH()
			host, name = "www."+br.pinyin+pick(b.r, []string{"news.com.cn", "wang.com", "xinwen.cn"}), br.zh+"网"
		}
	case KindBookstore:
		s.style = b.r.IntN(2)
		if s.lang == langEN {
			br := b.brandEN()
			suf := pick(b.r, []string{"books", "bookshop", "reads", "pages"})
			host, name = "www."+br+suf+".com", title(br)+" "+title(suf)
		} else {
			br := b.brandZH()
			host, name = "www."+br.pinyin+pick(b.r, []string{"shu.com.cn", "books.cn", "shudian.com", "book.com"}), br.zh+pick(b.r, []string{"书城", "网上书店", "图书网"})
		}
	case KindShop:
		s.style = b.r.IntN(2)
		if s.lang == langEN {
			br := b.brandEN()
			host, name = "www."+br+pick(b.r, []string{"store", "outfitters", "shop"})+".com", title(br)+" "+shopSuffixEN[s.topic]
		} else {
			br := b.brandZH()
			host, name = "www."+br.pinyin+pick(b.r, []string{"mall.com.cn", "shop.cn", "go.com"}), br.zh+shopSuffixZH[s.topic]
		}
	case KindContent:
		s.style = b.r.IntN(2)
		if s.lang == langEN {
			br := b.brandEN()
			suf := contentSuffixEN[s.topic]
			host, name = "www."+br+suf[0]+pick(b.r, []string{".com", ".org"}), title(br)+" "+suf[1]
		} else {
			br := b.brandZH()
			suf := contentSuffixZH[s.topic]
			host, name = "www."+br.pinyin+suf[0]+pick(b.r, []string{".com", ".cn", ".com.cn", ".org.cn"}), br.zh+suf[1]
		}
	case KindForum:
		if s.lang == langEN {
			br := b.brandEN()
			host, name = "forum."+br+"talk.com", title(br)+" Forums"
		} else {
			br := b.brandZH()
			host, name = "bbs."+br.pinyin+"luntan.com", br.zh+"论坛"
		}
		if s.topic >= 0 {
			if s.lang == langEN {
				name = title(strings.Fields(name)[0]) + " " + topicNameEN[s.topic] + " Forum"
			} else {
				name = strings.TrimSuffix(name, "论坛") + topicNameZH[s.topic] + "论坛"
			}
		}
	case KindLinkFarm:
		n := 10 + b.r.IntN(890)
		if s.lang == langEN {
			host, name = fmt.Sprintf("www.best-%s-links%d.info", b.brandEN(), n), "Best Links Directory"
		} else {
			br := b.brandZH()
			host, name = fmt.Sprintf("www.%sdaohang%d.cn", br.pinyin, n), br.zh+"网址导航"
		}
	case KindAds:
		host, name = adHosts[len(b.w.ads)], "ads"
		b.w.ads = append(b.w.ads, s) // reset below
	}
	if s.kind == KindAds {
		b.w.ads = b.w.ads[:len(b.w.ads)-1]
	}
	key := siteKey(host)
	for i := 2; b.keys[key]; i++ { // keep one registrable domain per site
		host = strings.Replace(host, ".", strconv.Itoa(i)+".", 2)
		host = strings.Replace(host, strconv.Itoa(i)+".", ".", 1) // only the label after www
		key = siteKey(host)
	}
	b.keys[key] = true
	s.host, s.name, s.key = host, name, key
}

func (b *builder) authorityName(s *site) (host, name string) {
	if s.lang == langEN {
		place := placesEN[b.brandE%len(placesEN)]
		slug := strings.ToLower(strings.NewReplacer(" ", "", "the", "").Replace(place))
		b.brandE++
		s.place = place
		en := enAuthName[s.topic]
		return "www." + slug + "-" + en[0] + ".gov", place + " " + en[1]
	}
	suf := authSuffix[s.topic]
	switch s.rank {
	case "national":
		n := authNational[s.topic]
		s.place = "全国"
		if s.topic == 1 {
			return "www.forestry.gov.cn", n[1]
		}
		return "www." + n[0] + ".gov.cn", n[1]
	case "province":
		r := b.nextRegion(provinces, &b.prov)
		s.place = r.zh
		if s.topic == 1 {
			// Forestry bureaus are named as real provinces name them
			// (lyj.hunan.gov.cn), so a profile's host library finds them.
			return "lyj." + provinceAbbr(r.pinyin) + ".gov.cn", r.zh + "林业局"
		}
		return "www." + suf[0] + "j-" + r.pinyin + ".gov.cn", r.zh + suf[1]
	case "city":
		r := b.nextRegion(cities, &b.city)
		s.place = r.zh
		if s.topic == 1 {
			return "lyj." + r.pinyin + ".gov.cn", r.zh + suf[1]
		}
		return "www." + r.pinyin + suf[0] + ".gov.cn", r.zh + suf[1]
	}
	r := b.nextRegion(counties, &b.county)
	s.place = r.zh
	return "www." + r.pinyin + suf[0] + "j.gov.cn", r.zh + suf[1]
}

// provinceAbbr is the short name some provinces use in host names.
func provinceAbbr(p string) string {
	switch p {
	case "zhejiang":
		return "zj"
	case "guangdong":
		return "gd"
	case "anhui":
		return "ah"
	case "guangxi":
		return "gxzf"
	}
	return p
}

// siteKey is the registrable domain of a host.
func siteKey(host string) string {
	k, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return host
	}
	return k
}

// traits decides each site's encoding, failures, robots rules and traps.
func (b *builder) traits(s *site) {
	r := newRand(b.w.cfg.Seed, "traits", s.host)
	if s.kind == KindAds {
		return
	}
	if s.lang == langZH && s.kind != KindLinkFarm && chance(r, 0.3) {
		s.gbk = true
		switch x := r.Float64(); {
		case x < 0.4:
			s.decl = declHeader | declMeta
		case x < 0.6:
			s.decl = declHeader
		case x < 0.85:
			s.decl = declMeta
		}
	}
	s.gzip = chance(r, 0.5)
	national := s.rank == "national"
	s.slow = !national && chance(r, 0.05)
	s.rateLimited = !national && chance(r, 0.04)
	s.flaky = !national && chance(r, 0.04)
	if !national && chance(r, 0.06) {
		s.errPct = between(r, 5, 15)
	}
	s.down = s.kind == KindContent && chance(r, 0.02)
	if chance(r, 0.45) || s.kind == KindBookstore || s.kind == KindShop {
		s.robots = true
		if chance(r, 0.3) {
			s.crawlDelay = pick(r, []string{"0.5", "1"})
		}
	}
	s.calendar = (s.kind == KindAuthority || s.kind == KindGovPortal || s.kind == KindPortal) && chance(r, 0.3)
	s.sessions = s.kind == KindForum || (s.kind == KindShop && chance(r, 0.3))
	s.legacy = (s.kind == KindAuthority || s.kind == KindContent || s.kind == KindGovPortal) && chance(r, 0.25)
	if s.kind != KindLinkFarm && chance(r, 0.2) {
		s.alias = strings.TrimPrefix(s.host, "www.")
		if s.alias == s.host {
			s.alias = ""
		}
	}
	if s.rateLimited {
		s.limiter = &limiter{rate: b.w.cfg.RateLimit}
	}
	s.idBase = 100 + r.IntN(90000)
	s.spacingH = between(r, 6, 72)
}

// Site sizes: item pages per kind (and rank).
func (b *builder) itemCount(s *site, r *rand.Rand) int {
	switch s.kind {
	case KindPortal:
		return between(r, 400, 800)
	case KindAuthority:
		switch s.rank {
		case "national":
			return between(r, 400, 500)
		case "province":
			return between(r, 180, 300)
		case "city":
			return between(r, 100, 180)
		}
		return between(r, 50, 110)
	case KindGovPortal:
		return between(r, 60, 140)
	case KindBookstore:
		return between(r, 150, 450)
	case KindShop:
		return between(r, 100, 280)
	case KindContent:
		return between(r, 60, 220)
	case KindForum:
		return between(r, 100, 300)
	case KindLinkFarm:
		return between(r, 30, 90)
	}
	return 0
}

func (b *builder) columnsOf(s *site) []colDef {
	zh := s.lang == langZH
	switch s.kind {
	case KindPortal:
		if zh {
			return portalColsZH
		}
		return portalColsEN
	case KindAuthority:
		if zh {
			return append(append([]colDef(nil), govTopicCols[s.topic]...), govAdminCols...)
		}
		return append(append([]colDef(nil), enTopicCols[s.topic]...), enAdminCols...)
	case KindGovPortal:
		return govPortalCols
	case KindBookstore:
		if zh {
			return bookColsZH
		}
		return bookColsEN
	case KindShop:
		if zh {
			return shopColsZH[s.topic]
		}
		return shopColsEN[s.topic]
	case KindContent:
		if zh {
			return zhContentCols[s.topic]
		}
		return append(append([]colDef(nil), enTopicCols[s.topic]...), enAdminCols[:1]...)
	case KindForum:
		var boards []colDef
		all := forumBoardsZH
		if !zh {
			all = forumBoardsEN
		}
		for _, c := range all {
			if s.topic < 0 || c.topic == s.topic || c.topic == noTopic {
				if s.topic >= 0 && c.topic == s.topic {
					c.weight = 6
				}
				boards = append(boards, c)
			}
		}
		return boards
	}
	return nil
}

// makePages fills a site's page table: home, static pages, then per
// column its list pages and its items.
func (b *builder) makePages(s *site) {
	r := newRand(b.w.cfg.Seed, "pages", s.host)
	s.index = map[string]int32{}
	add := func(p page) {
		s.pages = append(s.pages, p)
	}
	add(page{kind: pHome, topic: int8(s.topic)})
	switch s.kind {
	case KindAds:
		b.indexPages(s)
		return
	case KindLinkFarm:
		n := b.itemCount(s, r)
		for i := 1; i <= n; i++ {
			add(page{kind: pFarm, topic: noTopic, num: int32(i)})
		}
		b.indexPages(s)
		return
	case KindBookstore, KindShop:
		s.statics = append(append([]staticDef(nil), staticPages...), shopStatics...)
	case KindAuthority, KindGovPortal:
		if s.lang == langZH {
			s.statics = append(append([]staticDef(nil), staticPages...), govStatics...)
		} else {
			s.statics = staticPages
		}
	case KindForum:
		s.statics = staticPages[:2]
	default:
		s.statics = staticPages
	}
	for i := range s.statics {
		add(page{kind: pStatic, topic: noTopic, num: int32(i)})
	}
	if s.kind == KindGovPortal {
		for step := int32(2); step <= 4; step++ {
			add(page{kind: pTunnel, topic: noTopic, num: step})
		}
	}
	defs := b.columnsOf(s)
	total := b.itemCount(s, r)
	wsum := 0
	for _, d := range defs {
		wsum += d.weight
	}
	itemKind := pArticle
	switch s.kind {
	case KindBookstore, KindShop:
		itemKind = pProduct
	case KindForum:
		itemKind = pThread
	}
	per := int32(20)
	switch s.kind {
	case KindBookstore, KindShop:
		per = 24
	case KindForum:
		per = 30
	}
	if s.lang == langEN && s.kind != KindBookstore && s.kind != KindShop {
		per = 15
	}
	num := int32(0)
	for ci, d := range defs {
		n := int32(total * d.weight / wsum)
		if n < 3 {
			n = 3
		}
		c := column{colDef: d, n: n, perPage: per}
		c.lists = (n + per - 1) / per
		c.listFirst = int32(len(s.pages))
		for i := int32(0); i < c.lists; i++ {
			add(page{kind: pList, topic: int8(b.listTopic(s, d)), col: int16(ci), num: i})
		}
		c.first = int32(len(s.pages))
		for i := int32(0); i < n; i++ {
			t, sub := b.itemTopic(s, d, r)
			add(page{kind: itemKind, topic: int8(t), col: int16(ci), num: num, sub: int8(sub)})
			s.items = append(s.items, int32(len(s.pages)-1))
			num++
		}
		s.cols = append(s.cols, c)
	}
	b.indexPages(s)
	for _, pi := range s.items {
		if int(s.pages[pi].topic) == s.topic && s.topic >= 0 {
			s.topical = append(s.topical, pi)
		}
	}
	// A few hot search queries, linked from the header (robots may forbid).
	for i := 0; i < 5; i++ {
		t := s.topic
		if t < 0 {
			t = r.IntN(len(Topics))
		}
		s.searchQ = append(s.searchQ, pick(r, topicWords(t, s.lang)))
	}
}

// listTopic is the topic of a column's list pages: a list of topic items is
// a topic page; a list of administrative items is not.
func (b *builder) listTopic(s *site, d colDef) int {
	if d.mixed || d.topic < 0 {
		return noTopic
	}
	if s.kind == KindBookstore {
		return 0
	}
	return d.topic
}

// itemTopic chooses the topic of one item: mostly the column's, with
// off-topic items in topic columns and topic items in mixed columns.
func (b *builder) itemTopic(s *site, d colDef, r *rand.Rand) (topic, sub int) {
	switch s.kind {
	case KindBookstore:
		sub = d.topic
		if sub == 0 && chance(r, 0.15) {
			sub = 1 + r.IntN(len(Topics)-1)
		}
		return 0, sub
	case KindShop:
		return s.topic, s.topic
	}
	site := s.topic
	if d.mixed {
		if site >= 0 && chance(r, 0.5) {
			return site, site
		}
		return noTopic, noTopic
	}
	if d.topic < 0 {
		if chance(r, 0.05) {
			t := r.IntN(len(Topics))
			return t, t
		}
		return noTopic, noTopic
	}
	x := r.Float64()
	switch {
	case x < 0.88:
		return d.topic, d.topic
	case x < 0.96:
		t := r.IntN(len(Topics))
		return t, t
	}
	return noTopic, noTopic
}

func (b *builder) indexPages(s *site) {
	for i, p := range s.pages {
		path := b.w.path(s, p)
		if _, dup := s.index[path]; dup {
			panic(fmt.Sprintf("simweb: duplicate path %s on %s", path, s.host))
		}
		s.index[path] = int32(i)
	}
}

// makeHierarchy links authorities of one topic: national -> provinces ->
// cities -> counties.
func (b *builder) makeHierarchy() {
	byRank := map[int]map[string][]*site{}
	for _, s := range b.w.sites {
		if s.kind != KindAuthority || s.lang != langZH {
			continue
		}
		if byRank[s.topic] == nil {
			byRank[s.topic] = map[string][]*site{}
		}
		byRank[s.topic][s.rank] = append(byRank[s.topic][s.rank], s)
	}
	for _, ranks := range byRank {
		up := map[string]string{"province": "national", "city": "province", "county": "city"}
		for _, rank := range []string{"province", "city", "county"} {
			parents := ranks[up[rank]]
			if len(parents) == 0 {
				parents = ranks["national"]
			}
			if len(parents) == 0 {
				continue
			}
			for i, s := range ranks[rank] {
				p := parents[i%len(parents)]
				s.parent = p.id
				p.children = append(p.children, s.id)
			}
		}
	}
}

// makeTunnels hides about a fifth of the county and city authorities and
// of the content sites in clusters of one to three sites of one topic,
// reachable only through one to four pages of a government portal.
func (b *builder) makeTunnels() {
	var gates []*site
	for _, s := range b.w.sites {
		if s.kind == KindGovPortal {
			gates = append(gates, s)
		}
	}
	if len(gates) == 0 {
		return
	}
	cands := map[int][]*site{}
	for _, s := range b.w.sites {
		hidden := (s.kind == KindAuthority && (s.rank == "county" || s.rank == "city")) || (s.kind == KindContent && !s.down)
		if hidden && chance(b.r, 0.22) {
			cands[s.topic] = append(cands[s.topic], s)
		}
	}
	topics := make([]int, 0, len(cands))
	for t := range cands {
		topics = append(topics, t)
	}
	sort.Ints(topics)
	g := 0
	for _, t := range topics {
		list := cands[t]
		for len(list) > 0 {
			size := between(b.r, 1, 3)
			if size > len(list) {
				size = len(list)
			}
			cluster := list[:size]
			list = list[size:]
			gate := gates[g%len(gates)]
			g++
			length := between(b.r, 1, 4)
			var ids []int
			for _, s := range cluster {
				ids = append(ids, s.id)
			}
			for _, s := range cluster {
				s.tunnel, s.gate = length, gate.id
				for _, o := range ids {
					if o != s.id {
						s.cluster = append(s.cluster, o)
					}
				}
				gate.gated = append(gate.gated, s.id)
				gate.gateAt = append(gate.gateAt, length)
			}
		}
	}
	// A hidden site is nobody's child: its parent does not link to it.
	for _, s := range b.w.sites {
		kept := s.children[:0]
		for _, c := range s.children {
			if b.w.sites[c].tunnel == 0 {
				kept = append(kept, c)
			}
		}
		s.children = kept
	}
}

// competitors never link to each other.
func competitors(a, b *site) bool {
	switch a.kind {
	case KindBookstore, KindShop, KindPortal:
		return a.kind == b.kind
	}
	return false
}

// makeFriends draws the site graph: each site links from its footer to a
// few sites, mostly of its own topic (linkage locality), never to a
// competitor, and to a hidden site only from inside its cluster.
func (b *builder) makeFriends() {
	w := b.w
	var open []*site // sites any other site may link to
	byTopic := map[int][]*site{}
	var portals, govs, farms []*site
	for _, s := range w.sites {
		if s.tunnel > 0 || s.kind == KindAds || s.kind == KindLinkFarm {
			if s.kind == KindLinkFarm {
				farms = append(farms, s)
			}
			continue
		}
		open = append(open, s)
		byTopic[s.topic] = append(byTopic[s.topic], s)
		switch s.kind {
		case KindPortal:
			portals = append(portals, s)
		case KindGovPortal:
			govs = append(govs, s)
		}
	}
	for _, s := range w.sites {
		r := newRand(w.cfg.Seed, "friends", s.host)
		seen := map[int]bool{s.id: true}
		add := func(o *site) {
			if o == nil || seen[o.id] || competitors(s, o) {
				return
			}
			seen[o.id] = true
			s.friends = append(s.friends, o.id)
		}
		addFrom := func(list []*site, n int) {
			for i := 0; i < n*3 && n > 0 && len(list) > 0; i++ {
				before := len(s.friends)
				add(list[r.IntN(len(list))])
				if len(s.friends) > before {
					n--
				}
			}
		}
		switch s.kind {
		case KindAds:
			continue
		case KindLinkFarm:
			addFrom(open, 20)
			addFrom(farms, 3)
			continue
		case KindPortal:
			for t := range Topics {
				addFrom(byTopic[t], 4)
			}
			addFrom(govs, 2)
			continue
		}
		for _, o := range s.cluster {
			add(w.sites[o])
		}
		if s.parent >= 0 {
			add(w.sites[s.parent])
		}
		same := 4
		if s.topic < 0 {
			same = 0
		}
		addFrom(byTopic[s.topic], same)
		addFrom(open, 2)
		addFrom(portals, 1)
		if s.kind == KindAuthority || s.kind == KindGovPortal {
			addFrom(govs, 1)
		}
		if s.kind == KindForum || (s.kind == KindContent && chance(r, 0.3)) {
			addFrom(farms, 1)
		}
	}
}
