package simweb

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/net/publicsuffix"
)

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
		host, name = adHosts[b.adHost%len(adHosts)], "ads"
		b.adHost++
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
