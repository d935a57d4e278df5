package simweb

import (
	"fmt"
	"sync"
	"time"
)

// SiteKind is what a site is.
type SiteKind uint8

// The site kinds.
const (
	KindPortal    SiteKind = iota // news portal, channels of every topic
	KindAuthority                 // government authority of one topic, with a rank
	KindGovPortal                 // general government portal (carries tunnels)
	KindBookstore                 // online bookstore: books with price, ISBN, author, cart
	KindShop                      // shop of other goods: prices and carts, no books
	KindContent                   // topical media, company or institute site
	KindForum                     // forum, session ids in URLs
	KindLinkFarm                  // spam pages of links
	KindAds                       // ad server: click URLs that redirect
)

var kindNames = [...]string{"portal", "authority", "government", "bookstore", "shop", "content", "forum", "linkfarm", "ads"}

func (k SiteKind) String() string { return kindNames[k] }

// pageKind is what a page is.
type pageKind uint8

const (
	pHome pageKind = iota
	pList
	pArticle
	pProduct
	pThread
	pStatic
	pFarm
	pTunnel
	// Pages computed on demand, never in the page table.
	pCart
	pSearch
	pPrint
	pCalendar
	pLegacy
	pClick
)

var pageKindNames = [...]string{"home", "list", "article", "product", "thread", "static", "farm", "tunnel", "cart", "search", "print", "calendar", "redirect", "redirect"}

// page is one entry of a site's page table (12 bytes).
type page struct {
	kind  pageKind
	topic int8 // noTopic or an index into Topics
	col   int16
	num   int32 // list page number, item number, static index, tunnel step
	sub   int8  // subject topic of a product (books about travel …)
}

// column is one section of a site.
type column struct {
	colDef
	first, n  int32 // item pages: indexes first..first+n-1 of the page table
	listFirst int32 // list pages: indexes listFirst..listFirst+lists-1
	lists     int32
	perPage   int32
}

// Charset declarations of a GBK site.
const (
	declHeader = 1 << iota
	declMeta
)

// site is one simulated site: one registrable domain, one canonical host.
type site struct {
	id    int
	key   string // registrable domain
	host  string // canonical host
	alias string // a second host that answers 301 to host ("" none)
	name  string // display name
	kind  SiteKind
	topic int // noTopic for mixed or none
	lang  int
	rank  string
	place string // region name in text
	style int    // URL style variant

	gbk  bool
	gzip bool // compresses answers when asked
	decl int  // declHeader|declMeta for GBK sites (0: no declaration)

	slow, down, flaky, rateLimited bool
	errPct                         int // percent of pages answering 500
	robots                         bool
	crawlDelay                     string
	calendar, sessions, legacy     bool

	tunnel  int   // tunnel length when the site sits in a tunnelled cluster
	gate    int   // government portal carrying the tunnel, -1 none
	cluster []int // the other sites of the tunnelled cluster
	gated   []int // (gov portals) clusters' sites this portal leads to, by step
	gateAt  []int // step of each gated site

	parent   int
	children []int
	friends  []int // sites linked from every page's footer

	cols    []column
	pages   []page
	index   map[string]int32
	topical []int32 // item pages whose topic is the site's topic
	items   []int32 // every item page
	searchQ []string
	statics []staticDef

	idBase   int // number of the first item in URLs
	spacingH int // hours between two items' publication times

	limiter *limiter
	flakyMu sync.Mutex
	seen    map[string]bool // flaky: URLs already answered once with 503
}

// Web is a simulated web. It is safe for concurrent use.
type Web struct {
	cfg    Config
	sites  []*site
	byHost map[string]*site
	ads    []*site
	shops  []*site // where ads send their clicks
	// byKindTopic lists sites by kind and topic, for links and seeds.
	byTopic [][]int // topic -> sites whose topic it is and that are not tunnelled
	epoch   time.Time
}

// limiter is a token bucket.
type limiter struct {
	mu     sync.Mutex
	tokens float64
	last   time.Time
	rate   float64
}

func (l *limiter) allow(now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last.IsZero() {
		l.tokens = l.rate
	} else {
		l.tokens += now.Sub(l.last).Seconds() * l.rate
		if l.tokens > l.rate {
			l.tokens = l.rate
		}
	}
	l.last = now
	if l.tokens >= 1 {
		l.tokens--
		return true
	}
	return false
}

func (s *site) isItem(k pageKind) bool { return k == pArticle || k == pProduct || k == pThread }

func (s *site) homeURL() string { return "http://" + s.host + "/" }

func (s *site) url(path string) string { return "http://" + s.host + path }

func (s *site) String() string { return fmt.Sprintf("%s(%s)", s.host, s.kind) }
