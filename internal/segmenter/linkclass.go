package segmenter

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html/atom"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// NavWords are the built-in link stop words (paper 1's (docs/algorithms.md §2) StopWord feature):
// anchors of navigation, account, paging and sharing links, Chinese and
// English. The profile's link_stopwords extend them.
var NavWords = []string{
	"首页", "主页", "网站首页", "返回首页", "登录", "登陆", "注册", "退出", "下一页", "上一页",
	"首页", "尾页", "末页", "上一篇", "下一篇", "更多", "更多>>", "关于我们", "联系我们",
	"网站地图", "站点地图", "帮助", "帮助中心", "设为首页", "加入收藏", "收藏本站", "网站导航",
	"隐私政策", "免责声明", "版权声明", "法律声明", "意见反馈", "投诉", "招聘", "广告服务",
	"打印", "关闭", "关闭窗口", "返回顶部", "返回", "分享", "分享到", "微博", "微信", "订阅",
	"English", "繁体", "简体", "无障碍",
	"home", "homepage", "login", "log in", "sign in", "sign up", "register", "logout",
	"log out", "next", "previous", "prev", "next page", "previous page", "more", "read more",
	"about", "about us", "contact", "contact us", "sitemap", "site map", "help", "faq",
	"privacy", "privacy policy", "terms", "terms of use", "terms of service", "cookies",
	"cookie policy", "careers", "jobs", "advertise", "subscribe", "newsletter", "share",
	"tweet", "facebook", "twitter", "linkedin", "instagram", "youtube", "pinterest",
	"reddit", "email", "print", "back to top", "top", "skip to content", "menu", "search",
}

// AdHosts are the built-in ad servers and trackers (paper 1's
// StopAddress feature); a link to one of them or a subdomain is an ad
// link. The profile's ad_hosts extend them.
var AdHosts = []string{
	"doubleclick.net", "googlesyndication.com", "googleadservices.com", "google-analytics.com",
	"googletagmanager.com", "adservice.google.com", "adnxs.com", "criteo.com", "criteo.net",
	"taboola.com", "outbrain.com", "amazon-adsystem.com", "advertising.com", "adform.net",
	"rubiconproject.com", "pubmatic.com", "openx.net", "casalemedia.com", "moatads.com",
	"scorecardresearch.com", "quantserve.com", "zedo.com", "revcontent.com", "mgid.com",
	"smartadserver.com", "adsrvr.org", "bidswitch.net", "yieldmo.com", "media.net",
	"baidustatic.com", "pos.baidu.com", "cpro.baidu.com", "hm.baidu.com", "tanx.com",
	"alimama.com", "mmstat.com", "cnzz.com", "51.la", "union.sogou.com", "miaozhen.com",
	"admaster.com.cn", "irs01.com", "gridsumdissector.com", "allyes.com", "adsame.com",
	"e.qq.com", "gdt.qq.com", "l.qq.com", "union.360.cn", "lianmeng.360.cn",
}

// SpecialWords introduce relevant link blocks (paper 1's SpecialWords).
var SpecialWords = []string{
	"相关链接", "相关主题", "相关文章", "相关阅读", "相关新闻", "相关报道", "延伸阅读", "更多信息",
	"推荐阅读", "参考资料", "专题",
	"related", "see also", "further reading", "more on this", "read next", "references",
}

var (
	adHint     = regexp.MustCompile(`(?i)(^|[-_ ])(ad|ads|advert|advertisement|adsbygoogle|sponsor|sponsored|banner|guanggao|gg)([-_ 0-9]|$)`)
	navHint    = regexp.MustCompile(`(?i)nav|menu|breadcrumb|crumb|topbar|toolbar|pagination|pager|daohang|subnav|tabs`)
	footerHint = regexp.MustCompile(`(?i)footer|foot|copyright|bottom|colophon|banquan`)
)

// footerWords mark a short block as the page footer (lower case).
var footerWords = []string{"©", "copyright", "版权所有", "icp备", "icp证", "公网安备", "all rights reserved"}

func hasFooterText(text string) bool {
	low := strings.ToLower(text)
	for _, w := range footerWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// linkWords holds the stop words and ad hosts of one Segmenter.
type linkWords struct {
	stop         []string // lower case
	stopRunes    []int    // rune counts of stop
	maxStopRunes int
	byFirst      map[rune][]int  // stop words by their first rune
	adHosts      map[string]bool // lower case, without a path
	adPaths      []string        // entries with a path: host/path prefixes
	special      []string
}

func newLinkWords(extraStop, extraAd []string) *linkWords {
	lw := &linkWords{special: SpecialWords, adHosts: map[string]bool{}, byFirst: map[rune][]int{}}
	seen := map[string]bool{}
	for _, w := range append(append([]string{}, NavWords...), extraStop...) {
		w = strings.ToLower(strings.TrimSpace(w))
		if w != "" && !seen[w] {
			seen[w] = true
			n := utf8.RuneCountInString(w)
			r, _ := utf8.DecodeRuneInString(w)
			lw.byFirst[r] = append(lw.byFirst[r], len(lw.stop))
			lw.stop = append(lw.stop, w)
			lw.stopRunes = append(lw.stopRunes, n)
			lw.maxStopRunes = max(lw.maxStopRunes, n)
		}
	}
	for _, h := range append(append([]string{}, AdHosts...), extraAd...) {
		h = strings.ToLower(strings.Trim(strings.TrimSpace(h), "."))
		switch {
		case h == "":
		case strings.Contains(h, "/"):
			lw.adPaths = append(lw.adPaths, h)
		default:
			lw.adHosts[h] = true
		}
	}
	return lw
}

// isStop tells whether an anchor is a navigation word: it contains a stop
// word and is not much longer than it.
func (lw *linkWords) isStop(anchor string) bool {
	a := strings.TrimSpace(anchor)
	if a == "" || len(a) > 4*(lw.maxStopRunes+4) {
		return false
	}
	n := utf8.RuneCountInString(a)
	if n > lw.maxStopRunes+4 {
		return false // longer than any stop word allows
	}
	a = strings.ToLower(a)
	// Only the stop words starting with one of the anchor's runes can be
	// in it.
	for i, r := range a {
		for _, k := range lw.byFirst[r] {
			if n <= lw.stopRunes[k]+4 && strings.HasPrefix(a[i:], lw.stop[k]) {
				return true
			}
		}
	}
	return false
}

// isAd tells whether the host h of URL u (hostOf) is an ad server or one
// of its subdomains, or the URL starts with an ad host/path entry.
func (lw *linkWords) isAd(u, h string) bool {
	if h == "" {
		return false
	}
	for d := h; ; {
		if lw.adHosts[d] {
			return true
		}
		i := strings.IndexByte(d, '.')
		if i < 0 {
			break
		}
		d = d[i+1:]
	}
	if len(lw.adPaths) > 0 {
		full := h + pathPrefix(u)
		for _, a := range lw.adPaths {
			if strings.HasPrefix(full, a) {
				return true
			}
		}
	}
	return false
}

func pathPrefix(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return ""
	}
	rest := u[i+3:]
	if j := strings.IndexByte(rest, '/'); j >= 0 {
		return rest[j:]
	}
	return ""
}

// linkFeatures is paper 1's tuple for one link.
type linkFeatures struct {
	short, stop, ad, offsite, titleSim bool
}

func (f linkFeatures) noise() bool {
	return f.ad || f.stop || (f.short && !f.titleSim) || (f.offsite && f.short)
}

// textSimThreshold is the TextSim cut-off: the Dice coefficient of the
// character bigrams of the anchor and the title.
const textSimThreshold = 0.3

// shortAnchorBytes is paper 1's TextLen cut-off: navigation anchors are
// under 10 bytes, relevant ones 20–30.
const shortAnchorBytes = 10

func (lw *linkWords) features(la linkAt, title *bigramBag) linkFeatures {
	l := la.link
	f := linkFeatures{
		short:   len(strings.TrimSpace(l.Anchor)) < shortAnchorBytes,
		stop:    lw.isStop(l.Anchor),
		ad:      lw.isAd(l.URL, la.host),
		offsite: !l.Internal,
	}
	// TextSim only rescues a short anchor; long anchors never need it.
	if f.short && !f.ad && !f.stop {
		f.titleSim = title.dice(l.Anchor) >= textSimThreshold
	}
	return f
}

// classify sets the kind of every block.
func (lw *linkWords) classify(blocks []*block, title string) {
	tg := newBigramBag(title)
	for _, b := range blocks {
		b.kind = lw.kindOf(b, tg)
	}
}

func (lw *linkWords) kindOf(b *block, titleGrams *bigramBag) string {
	ld := 0.0
	if b.chars > 0 {
		ld = float64(b.linkChars) / float64(b.chars)
	}
	nLinks := len(b.links)
	ads, noise := 0, 0
	for _, l := range b.links {
		f := lw.features(l, titleGrams)
		if f.ad {
			ads++
		}
		if f.noise() {
			noise++
		}
	}
	text := b.w.String()
	switch {
	case nLinks > 0 && ads*2 >= nLinks:
		return record.BlockAd
	case b.n.anyHint(hintAd) && !b.main && (ld > 0.3 || b.chars < 20):
		return record.BlockAd
	case b.main:
		return record.BlockMain
	case b.n.tag == atom.Footer || (b.n.anyHint(hintFooter) && b.chars < 1500) ||
		(b.chars < 600 && hasFooterText(text)):
		return record.BlockFooter
	}
	linky := nLinks >= 2 && ld >= 0.5
	switch {
	case linky && lw.hasSpecial(text, b):
		return record.BlockLinks
	case linky && (b.n.tag == atom.Nav || b.n.anyHint(hintNav) || noise*2 >= nLinks):
		return record.BlockNav
	case b.n.tag == atom.Nav && nLinks > 0:
		return record.BlockNav
	case linky:
		return record.BlockLinks
	case b.chars-b.linkChars >= 50:
		return record.BlockText
	}
	return record.BlockOther
}

// hasSpecial tells whether the block is introduced by a hint word: in its
// own non-link text or its class/id.
func (lw *linkWords) hasSpecial(text string, b *block) bool {
	low := lowerHead(text, 400)
	for _, w := range lw.special {
		if strings.Contains(low, w) {
			return true
		}
	}
	return strings.Contains(strings.ToLower(b.n.class+" "+b.n.id), "related")
}

// lowerHead is strings.ToLower(s) cut to n bytes, lower-casing only the
// head of s: a rune lower-cased keeps at least a third of its bytes (the
// Kelvin sign K becomes k), so 3n bytes of s make n lower-cased.
func lowerHead(s string, n int) string {
	if end := 3*n + utf8.UTFMax; end < len(s) {
		for end > 0 && !utf8.RuneStart(s[end]) {
			end--
		}
		s = s[:end]
	}
	low := strings.ToLower(s)
	return low[:min(len(low), n)]
}

// bigramBag is the bag of character bigrams of a text (lower-cased,
// spaces dropped), each bigram packed in a uint64, with its size.
type bigramBag struct {
	m map[uint64]int
	n int
}

// bigramKeys appends the packed bigrams of s to dst.
func bigramKeys(dst []uint64, s string) []uint64 {
	prev := rune(-1)
	for _, r := range s {
		if isSpace(r) {
			continue
		}
		r = unicode.ToLower(r)
		if prev >= 0 {
			dst = append(dst, uint64(prev)<<32|uint64(r))
		}
		prev = r
	}
	return dst
}

func newBigramBag(s string) *bigramBag {
	keys := bigramKeys(nil, s)
	b := &bigramBag{m: make(map[uint64]int, len(keys)), n: len(keys)}
	for _, k := range keys {
		b.m[k]++
	}
	return b
}

// dice is the Dice coefficient of the bigrams of s and the bag, in time
// linear in s (the bag's size is known).
func (b *bigramBag) dice(s string) float64 {
	var buf [32]uint64
	keys := bigramKeys(buf[:0], s)
	if len(keys) == 0 || b.n == 0 {
		return 0
	}
	slices.Sort(keys)
	both := 0
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j] == keys[i] {
			j++
		}
		both += min(j-i, b.m[keys[i]])
		i = j
	}
	return 2 * float64(both) / float64(len(keys)+b.n)
}
