package simweb

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/temoto/robotstxt"
	"golang.org/x/text/encoding/simplifiedchinese"
)

var (
	calmOnce sync.Once
	calmWeb  *Web
)

// calm is the default web without timing faults, shared by the tests.
func calm() *Web {
	calmOnce.Do(func() { calmWeb = New(Config{Seed: 1, NoFaults: true}) })
	return calmWeb
}

type response struct {
	status int
	header http.Header
	body   []byte
}

// get asks the handler for u directly (as a proxy would be asked).
func get(w *Web, u string) response {
	req := httptest.NewRequest("GET", u, nil)
	rec := httptest.NewRecorder()
	w.Handler().ServeHTTP(rec, req)
	return response{rec.Code, rec.Header(), rec.Body.Bytes()}
}

// siteWith returns the first site of w whose truth passes ok.
func siteWith(t *testing.T, w *Web, what string, ok func(SiteTruth) bool) SiteTruth {
	t.Helper()
	for _, s := range w.Sites() {
		if ok(s) {
			return s
		}
	}
	t.Fatalf("no site %s in the web", what)
	return SiteTruth{}
}

func hasTrait(s SiteTruth, trait string) bool {
	for _, x := range s.Traits {
		if x == trait {
			return true
		}
	}
	return false
}

func TestDeterministic(t *testing.T) {
	truth := func(seed int64) []byte {
		var b bytes.Buffer
		if err := New(Config{Seed: seed, Sites: 40}).WriteTruth(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	a, b, c := truth(7), truth(7), truth(8)
	if !bytes.Equal(a, b) {
		t.Error("same seed, different truth")
	}
	if bytes.Equal(a, c) {
		t.Error("different seeds, same truth")
	}
	w1, w2 := New(Config{Seed: 7, Sites: 40, NoFaults: true}), New(Config{Seed: 7, Sites: 40, NoFaults: true})
	urls := benchURLs(w1, 300)
	// Ask the second web in the opposite order: pages must not depend on
	// what was asked before.
	for i := len(urls) - 1; i >= 0; i-- {
		r2 := get(w2, urls[i])
		r1 := get(w1, urls[i])
		if r1.status != r2.status || !bytes.Equal(r1.body, r2.body) {
			t.Fatalf("%s: two webs of one seed answer differently", urls[i])
		}
	}
}

func TestVocabularies(t *testing.T) {
	if len(Topics) < 6 {
		t.Fatalf("%d topics, want at least 6", len(Topics))
	}
	for _, want := range []string{"books", "forestry", "travel"} {
		if TopicIndex(want) < 0 {
			t.Errorf("topic %s missing", want)
		}
	}
	for _, v := range Vocabularies() {
		seen := map[string]bool{}
		for _, w := range v.Words {
			if seen[w] {
				t.Errorf("%s/%s: %q twice", v.Topic, v.Lang, w)
			}
			seen[w] = true
			if v.Lang == "zh" && !strings.ContainsFunc(w, func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff }) && w != "B超" && w != "CT" {
				if !strings.ContainsAny(w, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
					t.Errorf("%s/zh: %q has no Chinese", v.Topic, w)
				}
			}
		}
		if len(v.Words) < 300 {
			t.Errorf("%s/%s: %d words, want at least 300", v.Topic, v.Lang, len(v.Words))
		}
	}
	for li, c := range lex.common {
		if len(c.nouns) < 50 || len(c.verbs) < 30 || len(c.adjs) < 20 || len(c.advs) < 10 {
			t.Errorf("common/%s too small: %d nouns %d verbs %d adjectives %d adverbs", langNames[li], len(c.nouns), len(c.verbs), len(c.adjs), len(c.advs))
		}
	}
}

func TestSize(t *testing.T) {
	st := calm().Stats()
	t.Logf("%+v", st)
	if st.Sites != DefaultSites {
		t.Errorf("%d sites, want %d", st.Sites, DefaultSites)
	}
	if st.Pages < 20000 || st.Pages > 60000 {
		t.Errorf("%d pages, want 20k-60k", st.Pages)
	}
	for _, topic := range Topics {
		if st.Relevant[topic] < 2500 {
			t.Errorf("only %d pages relevant to %s", st.Relevant[topic], topic)
		}
	}
	kinds := map[string]int{}
	for _, s := range calm().Sites() {
		kinds[s.Kind]++
	}
	for _, k := range kindNames {
		if kinds[k] == 0 {
			t.Errorf("no site of kind %s", k)
		}
	}
}

func TestProxyAndHostModes(t *testing.T) {
	w := calm()
	srv := httptest.NewServer(w.Handler())
	defer srv.Close()
	home := siteWith(t, w, "forestry authority", func(s SiteTruth) bool { return s.Kind == "authority" && s.Rank == "province" })
	u := home.Home

	viaProxy, err := proxyClient(srv.URL).Get(u)
	if err != nil {
		t.Fatal(err)
	}
	pBody, _ := io.ReadAll(viaProxy.Body)
	viaProxy.Body.Close()

	req, _ := http.NewRequest("GET", srv.URL+"/", nil)
	req.Host = home.Host
	viaHost, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	hBody, _ := io.ReadAll(viaHost.Body)
	viaHost.Body.Close()

	if viaProxy.StatusCode != 200 || viaHost.StatusCode != 200 {
		t.Fatalf("status proxy %d, host %d", viaProxy.StatusCode, viaHost.StatusCode)
	}
	if !bytes.Equal(pBody, hBody) || len(pBody) < 1000 {
		t.Errorf("proxy and Host modes differ (%d and %d bytes)", len(pBody), len(hBody))
	}
	if viaProxy.Header.Get("X-Simweb") == "" {
		t.Error("no X-Simweb header")
	}

	for _, tc := range []struct {
		name, method, url string
		status            int
	}{
		{"unknown host", "GET", "http://www.example.com/", http.StatusBadGateway},
		{"post", "POST", u, http.StatusMethodNotAllowed},
		{"missing page", "GET", u + "nope/none.html", http.StatusNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, tc.url, nil)
			resp, err := proxyClient(srv.URL).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Errorf("status %d, want %d", resp.StatusCode, tc.status)
			}
		})
	}
	// https through the proxy is refused, not tunnelled.
	req, _ = http.NewRequest(http.MethodConnect, srv.URL, nil)
	req.Host = home.Host + ":443"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("CONNECT: %d", resp.StatusCode)
	}
}

func TestRobots(t *testing.T) {
	w := calm()
	with := siteWith(t, w, "with crawl-delay", func(s SiteTruth) bool { return hasTrait(s, "crawl-delay") })
	without := siteWith(t, w, "without robots", func(s SiteTruth) bool { return !hasTrait(s, "robots") && s.Kind == "content" })
	r := get(w, "http://"+with.Host+"/robots.txt")
	if r.status != 200 {
		t.Fatalf("robots.txt of %s: %d", with.Host, r.status)
	}
	rob, err := robotstxt.FromBytes(r.body)
	if err != nil {
		t.Fatal(err)
	}
	g := rob.FindGroup("focuscrawl")
	if g.CrawlDelay <= 0 {
		t.Errorf("no Crawl-delay in\n%s", r.body)
	}
	if g.Test("/print/1.html") || g.Test("/search?q=x") || !g.Test("/") {
		t.Errorf("wrong rules in\n%s", r.body)
	}
	if rob.TestAgent("/", "BadBot") {
		t.Error("BadBot is not shut out")
	}
	pt, _ := w.Page("http://" + with.Host + "/search?q=x")
	if !pt.Disallowed {
		t.Error("truth does not mark a disallowed URL")
	}
	if r := get(w, "http://"+without.Host+"/robots.txt"); r.status != 404 {
		t.Errorf("robots.txt of a site without one: %d", r.status)
	}
}

// links returns the absolute URLs linked from a page body.
func links(t *testing.T, base string, body []byte) []string {
	t.Helper()
	var out []string
	for _, m := range linkRE.FindAllSubmatch(body, -1) {
		h := string(m[1])
		if strings.HasPrefix(h, "javascript:") {
			continue
		}
		h = strings.ReplaceAll(h, "&amp;", "&")
		if strings.HasPrefix(h, "/") {
			i := strings.Index(base[len("http://"):], "/")
			h = base[:len("http://")+i] + h
		}
		out = append(out, h)
	}
	return out
}

func linkWith(t *testing.T, base string, body []byte, part string) string {
	t.Helper()
	for _, l := range links(t, base, body) {
		if strings.Contains(l, part) {
			return l
		}
	}
	t.Fatalf("no link with %q on %s", part, base)
	return ""
}

func TestCalendarTrap(t *testing.T) {
	w := calm()
	s := siteWith(t, w, "with a calendar", func(s SiteTruth) bool { return hasTrait(s, "calendar") })
	u := linkWith(t, s.Home, get(w, s.Home).body, "/calendar/")
	seen := map[string]bool{}
	for i := 0; i < 40; i++ { // well past the months the truth file lists
		if seen[u] {
			t.Fatalf("calendar loops back to %s", u)
		}
		seen[u] = true
		r := get(w, u)
		if r.status != 200 {
			t.Fatalf("%s: %d", u, r.status)
		}
		pt, ok := w.Page(u)
		if !ok || pt.Trap != "calendar" || pt.Relevant(pt.Topic) || pt.Relevance["forestry"] != 0 {
			t.Fatalf("%s: truth %+v", u, pt)
		}
		u = linkWith(t, u, r.body, "month=")
		// The second month link is "next".
		all := links(t, u, r.body)
		for _, l := range all {
			if strings.Contains(l, "month=") {
				u = l
			}
		}
	}
}

func TestSessionTrap(t *testing.T) {
	w := calm()
	s := siteWith(t, w, "forum", func(s SiteTruth) bool { return s.Kind == "forum" })
	r := get(w, s.Home)
	u := linkWith(t, s.Home, r.body, "thread-")
	if !strings.Contains(u, "sid=") {
		t.Fatalf("forum link without a session id: %s", u)
	}
	r2 := get(w, u)
	if r2.status != 200 {
		t.Fatalf("%s: %d", u, r2.status)
	}
	u2 := linkWith(t, u, r2.body, "thread-")
	sid := func(x string) string { return x[strings.Index(x, "sid="):] }
	if sid(u) == sid(u2) {
		t.Error("the session id does not change from page to page")
	}
	pt, _ := w.Page(u)
	if pt.Trap != "session-id" || pt.Relevance[pt.Topic] != 0 || pt.Canonical == "" || strings.Contains(pt.Canonical, "sid=") {
		t.Errorf("truth of a session URL: %+v", pt)
	}
	canon, _ := w.Page(pt.Canonical)
	if canon.Trap != "" || canon.Status != 200 {
		t.Errorf("truth of the canonical URL: %+v", canon)
	}
}

func TestRedirects(t *testing.T) {
	w := calm()
	alias := siteWith(t, w, "with an alias", func(s SiteTruth) bool { return s.Alias != "" })
	r := get(w, "http://"+alias.Alias+"/about.html")
	if r.status != 301 || r.header.Get("Location") != "http://"+alias.Host+"/about.html" {
		t.Errorf("alias: %d %s", r.status, r.header.Get("Location"))
	}
	legacy := siteWith(t, w, "with legacy URLs", func(s SiteTruth) bool { return hasTrait(s, "legacy-redirects") && s.Topic != "" })
	var first string
	w.URLs(func(u string) error {
		if first == "" && strings.HasPrefix(u, "http://"+legacy.Host+"/show.asp") {
			first = u
		}
		return nil
	})
	chain := []int{}
	u := first
	for i := 0; i < 5; i++ {
		r := get(w, u)
		chain = append(chain, r.status)
		if r.status != 301 && r.status != 302 {
			break
		}
		u = r.header.Get("Location")
	}
	if fmt.Sprint(chain) != "[301 302 200]" {
		t.Errorf("legacy chain %v from %s", chain, first)
	}
	pt, _ := w.Page(first)
	final, _ := w.Page(u)
	if pt.Kind != "redirect" || pt.FinalURL != u || fmt.Sprint(pt.Relevance) != fmt.Sprint(final.Relevance) {
		t.Errorf("truth of a redirect %+v, of its end %+v", pt, final)
	}
}

func TestGBK(t *testing.T) {
	w := calm()
	decls := map[string]bool{}
	for _, s := range w.Sites() {
		if s.Charset != "gbk" {
			continue
		}
		decls[s.Declared] = true
		r := get(w, s.Home)
		if r.status != 200 {
			continue
		}
		if utf8.Valid(r.body) {
			t.Errorf("%s: GBK body is valid UTF-8", s.Host)
		}
		dec, err := simplifiedchinese.GBK.NewDecoder().Bytes(r.body)
		if err != nil || !bytes.Contains(dec, []byte(s.Name)) {
			t.Errorf("%s: GBK body does not decode to a page naming %s", s.Host, s.Name)
		}
		ct := r.header.Get("Content-Type")
		meta := bytes.Contains(r.body, []byte("charset=gbk")) || bytes.Contains(r.body, []byte(`charset="gb2312"`))
		switch s.Declared {
		case "header":
			if !strings.Contains(ct, "GBK") || meta {
				t.Errorf("%s: declared in the header only, got %q meta=%v", s.Host, ct, meta)
			}
		case "meta":
			if strings.Contains(ct, "charset") || !meta {
				t.Errorf("%s: declared in meta only, got %q meta=%v", s.Host, ct, meta)
			}
		case "none":
			if strings.Contains(ct, "charset") || meta {
				t.Errorf("%s: undeclared, got %q meta=%v", s.Host, ct, meta)
			}
		}
	}
	for _, d := range []string{"header", "meta", "header+meta", "none"} {
		if !decls[d] {
			t.Errorf("no GBK site declared by %s", d)
		}
	}
}

func TestFaults(t *testing.T) {
	w := New(Config{Seed: 1, SlowLatency: 30 * time.Millisecond, RateLimit: 5})
	down := siteWith(t, w, "down", func(s SiteTruth) bool { return hasTrait(s, "down") })
	if r := get(w, down.Home); r.status != 503 || r.header.Get("Retry-After") == "" {
		t.Errorf("dead host: %d Retry-After %q", r.status, r.header.Get("Retry-After"))
	}
	flaky := siteWith(t, w, "flaky", func(s SiteTruth) bool {
		return hasTrait(s, "flaky") && !hasTrait(s, "rate-limited") && !hasTrait(s, "slow")
	})
	if a, b := get(w, flaky.Home).status, get(w, flaky.Home).status; a != 503 || b != 200 {
		t.Errorf("flaky host: %d then %d, want 503 then 200", a, b)
	}
	limited := siteWith(t, w, "rate-limited", func(s SiteTruth) bool {
		return hasTrait(s, "rate-limited") && !hasTrait(s, "flaky") && !hasTrait(s, "slow")
	})
	got429 := false
	for i := 0; i < 20; i++ {
		r := get(w, limited.Home)
		if r.status == 429 {
			got429 = r.header.Get("Retry-After") == "1"
			break
		}
	}
	if !got429 {
		t.Error("20 quick requests to a rate-limited host and no 429 with Retry-After: 1")
	}
	slow := siteWith(t, w, "slow", func(s SiteTruth) bool {
		return hasTrait(s, "slow") && !hasTrait(s, "flaky") && !hasTrait(s, "rate-limited")
	})
	start := time.Now()
	get(w, slow.Home)
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Errorf("slow host answered in %s", d)
	}
	// 5xx pages are a fixed part of the truth.
	failing := siteWith(t, w, "5xx", func(s SiteTruth) bool {
		return hasTrait(s, "5xx") && !hasTrait(s, "flaky") && !hasTrait(s, "rate-limited") && !hasTrait(s, "slow")
	})
	n500 := 0
	w.URLs(func(u string) error {
		if !strings.HasPrefix(u, "http://"+failing.Host+"/") {
			return nil
		}
		pt, _ := w.Page(u)
		if pt.Status == 500 {
			n500++
			if r := get(w, u); r.status != 500 {
				t.Errorf("%s: truth says 500, got %d", u, r.status)
			}
		}
		return nil
	})
	if n500 == 0 {
		t.Errorf("%s answers no 500", failing.Host)
	}
	// NoFaults keeps the static faults and drops the timed ones.
	c := calm()
	if r := get(c, flaky.Home); r.status != 200 {
		t.Errorf("calm flaky host: %d", r.status)
	}
	if r := get(c, down.Home); r.status != 503 {
		t.Errorf("calm dead host: %d", r.status)
	}
}

func TestSeeds(t *testing.T) {
	w := calm()
	seeds, err := w.Seeds("forestry")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, u := range seeds {
		pt, ok := w.Page(u)
		if !ok || pt.Status != 200 {
			t.Errorf("seed %s: %+v", u, pt)
		}
		kinds[pt.SiteKind]++
		if pt.Tunnel > 0 {
			t.Errorf("seed %s is a hidden site", u)
		}
	}
	if kinds["portal"] == 0 || kinds["authority"] == 0 || len(seeds) > 8 {
		t.Errorf("seeds %v", seeds)
	}
	if _, err := w.Seeds("cooking"); err == nil {
		t.Error("unknown topic accepted")
	}
}

func TestPageTruthKinds(t *testing.T) {
	w := calm()
	book := siteWith(t, w, "bookstore", func(s SiteTruth) bool { return s.Kind == "bookstore" })
	var product string
	w.URLs(func(u string) error {
		if product == "" && strings.HasPrefix(u, "http://"+book.Host) {
			if pt, _ := w.Page(u); pt.Kind == "product" {
				product = u
			}
		}
		return nil
	})
	tests := []struct {
		url      string
		kind     string
		relevant string // topic the page is relevant to, "" none
	}{
		{book.Home, "home", "books"},
		{product, "product", "books"},
		{"http://" + book.Host + "/cart.html", "cart", ""},
		{"http://" + book.Host + "/about.html", "static", ""},
		{"http://" + book.Host + "/robots.txt", "robots", ""},
		{"http://" + book.Host + "/no/such/page", "error", ""},
	}
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			pt, ok := w.Page(tc.url)
			if !ok || pt.Kind != tc.kind {
				t.Fatalf("%s: %+v", tc.url, pt)
			}
			for _, topic := range Topics {
				if pt.Relevant(topic) != (topic == tc.relevant) {
					t.Errorf("%s: relevance %v", tc.url, pt.Relevance)
				}
			}
		})
	}
	if _, ok := w.Page("http://unknown.example/"); ok {
		t.Error("truth for a host the web does not serve")
	}
}

// TestBookstorePages checks that product pages carry what verify's rules
// look for (every page the price, the cart, author and publisher; most of
// them the ISBN and edition), and that shops of other goods carry prices
// but no books.
func TestBookstorePages(t *testing.T) {
	w := calm()
	check := func(kind, lang string, always, mostly, never []string) {
		s := siteWith(t, w, kind+"/"+lang, func(s SiteTruth) bool { return s.Kind == kind && s.Lang == lang && s.Charset == "utf-8" })
		var prods []string
		for _, l := range links(t, s.Home, get(w, s.Home).body) {
			if pt, _ := w.Page(l); pt.Kind == "product" && pt.Host == s.Host && len(prods) < 8 {
				prods = append(prods, l)
			}
		}
		if len(prods) < 4 {
			t.Fatalf("%s: %d products linked from the home page", s.Host, len(prods))
		}
		seen := map[string]int{}
		for _, prod := range prods {
			body := string(get(w, prod).body)
			for _, x := range always {
				if !strings.Contains(body, x) {
					t.Errorf("%s %s: no %q", kind, prod, x)
				}
			}
			for _, x := range mostly {
				if strings.Contains(body, x) {
					seen[x]++
				}
			}
			for _, x := range never {
				if strings.Contains(body, x) {
					t.Errorf("%s %s: has %q", kind, prod, x)
				}
			}
		}
		for _, x := range mostly {
			if seen[x] == 0 {
				t.Errorf("%s: %q on none of %d products", s.Host, x, len(prods))
			}
		}
	}
	check("bookstore", "zh", []string{"定价：", "售价：", "出版社：", "作者：", "加入购物车", "内容简介", "书名：《"}, []string{"ISBN：978", "版次："}, nil)
	check("bookstore", "en", []string{"List Price: $", "Publisher: ", "Author: ", "Add to Cart", "Book Description"}, []string{"ISBN-13: 978", "Edition: "}, nil)
	check("shop", "zh", []string{"市场价：", "加入购物车"}, nil, []string{"ISBN", "出版社", "作者："})
}

// TestStructure renders every page of a small web and checks the link
// graph: every link has truth and leads somewhere, hidden sites are
// reached only through their tunnels, competitors never link to each
// other, and on-topic pages link mostly to on-topic pages.
func TestStructure(t *testing.T) {
	if raceEnabled {
		t.Skip("renders every page of a web; no goroutines to check")
	}
	w := New(Config{Seed: 3, Sites: 30, NoFaults: true})
	var onTopic, onTopicRel, offTopic, offTopicRel int
	var checked int
	err := w.URLs(func(u string) error {
		from, _ := w.Page(u)
		if from.Status != 200 || from.Kind == "robots" {
			return nil
		}
		r := get(w, u)
		if r.status != 200 {
			t.Fatalf("%s: %d, truth %d", u, r.status, from.Status)
		}
		src := w.byHost[from.Host]
		for _, l := range links(t, u, r.body) {
			checked++
			to, ok := w.Page(l)
			if !ok || to.Status == 404 {
				t.Fatalf("%s links to %s, which has no page (%+v)", u, l, to)
			}
			dst := w.byHost[to.Host]
			if dst.tunnel > 0 && dst != src && src.id != dst.gate && !contains(dst.cluster, src.id) {
				t.Errorf("%s links to hidden site %s outside its tunnel", u, to.Host)
			}
			if dst != src && competitors(src, dst) {
				t.Errorf("competitors: %s links to %s", u, l)
			}
			if to.Host == from.Host && (to.Kind == "article" || to.Kind == "list") {
				if from.Relevant("forestry") {
					onTopic++
					if to.Relevant("forestry") {
						onTopicRel++
					}
				} else {
					offTopic++
					if to.Relevant("forestry") {
						offTopicRel++
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pOn, pOff := float64(onTopicRel)/float64(onTopic), float64(offTopicRel)/float64(offTopic)
	t.Logf("%d links checked; P(forestry target | forestry page) %.2f, P(forestry target | other page) %.2f", checked, pOn, pOff)
	if pOn < 0.6 || pOn < 3*pOff {
		t.Errorf("no linkage locality: %.2f vs %.2f", pOn, pOff)
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestTunnels checks the hidden clusters: each has a tunnel of 1 to 4
// pages, and the tunnel pages are irrelevant.
func TestTunnels(t *testing.T) {
	w := calm()
	lengths := map[int]int{}
	for _, s := range w.Sites() {
		if s.Tunnel == 0 {
			continue
		}
		lengths[s.Tunnel]++
		if s.Gate == "" {
			t.Errorf("%s: hidden without a gate", s.Host)
		}
		gate, _ := w.Site(s.Gate)
		if gate.Kind != "government" || gate.Relevance[s.Topic] != 0 {
			t.Errorf("%s: gate %+v", s.Host, gate)
		}
	}
	for n := 1; n <= 4; n++ {
		if lengths[n] == 0 {
			t.Errorf("no tunnel of length %d (%v)", n, lengths)
		}
	}
}

// TestConcurrent asks a web with every fault on from many goroutines at
// once: the rate limiter, the flaky hosts' memory and the buffer pool are
// shared.
func TestConcurrent(t *testing.T) {
	w := New(Config{Seed: 2, Sites: 30, SlowLatency: time.Millisecond})
	srv := httptest.NewServer(w.Handler())
	defer srv.Close()
	urls := benchURLs(w, 400)
	client := proxyClient(srv.URL)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := g; i < len(urls); i += 8 {
				resp, err := client.Get(urls[i])
				if err != nil {
					errs <- err
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				switch resp.StatusCode {
				case 200, 301, 302, 429, 500, 503:
				default:
					errs <- fmt.Errorf("%s: status %d", urls[i], resp.StatusCode)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestGzip(t *testing.T) {
	w := calm()
	s := siteWith(t, w, "gzip", func(s SiteTruth) bool { return hasTrait(s, "gzip") && s.Charset == "utf-8" })
	plain := get(w, s.Home)
	req := httptest.NewRequest("GET", s.Home, nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate")
	rec := httptest.NewRecorder()
	w.Handler().ServeHTTP(rec, req)
	if rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("no gzip from %s", s.Host)
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(body, plain.body) {
		t.Errorf("gzip body differs from the plain one (%v)", err)
	}
}
