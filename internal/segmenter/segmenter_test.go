package segmenter

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func mustNew(t testing.TB, o Options) *Segmenter {
	t.Helper()
	sg, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return sg
}

func loadPage(t testing.TB, file, url string) record.Page {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return record.Page{URL: url, Status: 200, HTML: string(b), Meta: record.Meta(`{"k":1}`)}
}

// TestGolden compares whole docs with testdata/*.golden.json.
func TestGolden(t *testing.T) {
	cases := []struct{ file, url string }{
		{"zh-article.html", "http://www.forestry.example.cn/lyyw/2017/0401/a.html"},
		{"en-article.html", "https://news.example.com/science/2019/thinning.html"},
		{"hub.html", "http://www.forestry.example.cn/lyyw/"},
	}
	sg := mustNew(t, Options{})
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			d := sg.Segment(loadPage(t, c.file, c.url))
			got, err := json.MarshalIndent(d, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", strings.TrimSuffix(c.file, ".html")+".golden.json")
			if *update {
				if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if strings.TrimSpace(string(got)) != strings.TrimSpace(string(want)) {
				t.Errorf("doc differs from %s (go test -update to accept):\n%s", golden, got)
			}
		})
	}
}

func TestChineseArticle(t *testing.T) {
	d := mustNew(t, Options{}).Segment(loadPage(t, "zh-article.html", "http://www.forestry.example.cn/lyyw/2017/0401/a.html"))
	checks := []struct {
		name string
		ok   bool
	}{
		{"title cleaned of site affixes: " + d.Title, d.Title == "浙江推进森林抚育经营"},
		{"published in +08:00: " + d.Published, d.Published == "2017-04-01T08:00:00+08:00"},
		{"source: " + d.Source, d.Source == "浙江日报"},
		{"author: " + d.Author, d.Author == "张三 李四"},
		{"lang: " + d.Lang, d.Lang == "zh"},
		{"topic page: " + d.PageType, d.PageType == "topic"},
		{"content has the paragraphs", strings.Contains(d.Content, "科学确定抚育方式。\n\n会议指出") && strings.Contains(d.Content, "同步提升")},
		{"no share bar", !strings.Contains(d.Content, "分享到")},
		{"no hidden text", !strings.Contains(d.Content, "隐藏")},
		{"no related list", !strings.Contains(d.Content, "储备林")},
		{"no script text", !strings.Contains(d.Content, "不该出现") && d.Author != "不该出现"},
		{"canonical absolute: " + d.Canonical, d.Canonical == "http://www.forestry.example.cn/lyyw/2017/0401/a.html"},
		{"meta passed through", string(d.Meta) == `{"k":1}`},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s", c.name)
		}
	}
	kinds := map[string]string{}
	for _, b := range d.Blocks {
		kinds[b.Path] = b.Kind
	}
	for path, want := range map[string]string{
		"body>div#top": record.BlockNav, "body>div.banner": record.BlockAd,
		"body>div.main>div#content": record.BlockMain, "body>div.footer": record.BlockFooter,
	} {
		if kinds[path] != want {
			t.Errorf("block %s: kind %q, want %q (blocks %v)", path, kinds[path], want, kinds)
		}
	}
	var related int
	for _, l := range d.Links {
		if strings.HasPrefix(l.URL, "mailto:") || strings.HasPrefix(l.URL, "tel:") || strings.HasPrefix(l.URL, "javascript:") {
			t.Errorf("link %s should be skipped", l.URL)
		}
		if l.Anchor == "江西启动国家储备林建设项目试点工作" {
			related++
			if !l.Internal || l.Block == 0 || !strings.Contains(l.Context, "福建加快") {
				t.Errorf("related link: %+v", l)
			}
		}
		if l.Anchor == "安徽林长制改革示范区建设取得新进展" && l.Internal {
			t.Errorf("off-site link marked internal: %+v", l)
		}
		if l.Anchor == "广告" && l.URL != "https://pos.baidu.com/x?id=1" {
			t.Errorf("image anchor: %+v", l)
		}
		if len([]rune(l.Context)) > DefaultContextLen {
			t.Errorf("context over %d chars: %q", DefaultContextLen, l.Context)
		}
	}
	if related != 1 {
		t.Errorf("related link found %d times", related)
	}
}

func TestEnglishArticle(t *testing.T) {
	d := mustNew(t, Options{}).Segment(loadPage(t, "en-article.html", "https://news.example.com/science/2019/thinning.html"))
	if d.Title != "Forest thinning boosts carbon storage, study finds" {
		t.Errorf("title %q", d.Title)
	}
	if d.Published != "2019-11-20T08:02:00Z" || d.Author != "Jane Doe" {
		t.Errorf("published %q author %q", d.Published, d.Author)
	}
	if !strings.HasPrefix(d.Content, "Thinning young forests") || strings.Contains(d.Content, "Tweet") ||
		strings.Contains(d.Content, "Wildfire") || strings.Contains(d.Content, "Copyright") {
		t.Errorf("content:\n%s", d.Content)
	}
	found := false
	for _, l := range d.Links {
		if l.Anchor == "the methods" {
			found = true
			if l.URL != "https://news.example.com/science/methods.html" || !l.Nofollow {
				t.Errorf("base href / nofollow: %+v", l)
			}
		}
	}
	if !found {
		t.Error("link 'the methods' missing")
	}
}

func TestHubPage(t *testing.T) {
	d := mustNew(t, Options{}).Segment(loadPage(t, "hub.html", "http://www.forestry.example.cn/lyyw/"))
	if d.PageType != "hub" {
		t.Errorf("page type %q, want hub", d.PageType)
	}
}

// TestTeaserPagesAreHubs: a home page and a channel page of the simulated
// web (simweb's lyj.hubei.gov.cn/ and www.forestry.gov.cn/slfh/) carry a
// teaser beside their menus, and the text of their headings and footer
// kept β_page under μ: their content is a teaser, so they are hubs, and
// the articles of the golden files stay topic pages.
func TestTeaserPagesAreHubs(t *testing.T) {
	sg := mustNew(t, Options{})
	for _, c := range []struct{ file, url, want string }{
		{"home-teaser.html", "http://lyj.hubei.gov.cn/", "hub"},
		{"channel-teaser.html", "http://www.forestry.gov.cn/slfh/", "hub"},
		{"zh-article.html", "http://www.forestry.example.cn/lyyw/2017/0401/a.html", "topic"},
		{"en-article.html", "https://news.example.com/science/forests.html", "topic"},
	} {
		if d := sg.Segment(loadPage(t, c.file, c.url)); d.PageType != c.want {
			t.Errorf("%s: page type %q, want %s (content %d bytes)", c.file, d.PageType, c.want, len(d.Content))
		}
	}
}

func TestTimeZoneOption(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no tzdata")
	}
	d := mustNew(t, Options{Location: ny}).Segment(loadPage(t, "zh-article.html", "http://www.forestry.example.cn/a.html"))
	if d.Published != "2017-04-01T08:00:00-04:00" {
		t.Errorf("published %q", d.Published)
	}
}

func TestSiteRules(t *testing.T) {
	rules := []topic.ExtractRule{{
		Site: "forestry.example.cn", Title: "div.main h1", Published: `re:发布时间：([^　<]+)`,
		Source: ".info", Content: "#content p", Fields: map[string]string{"keywords": "meta[name=keywords]@content"},
	}}
	sg := mustNew(t, Options{Rules: rules})
	d := sg.Segment(loadPage(t, "zh-article.html", "http://www.forestry.example.cn/a.html"))
	if d.Title != "浙江推进森林抚育经营" || d.Published != "2017-04-01T08:00:00+08:00" || d.Source != "浙江日报" {
		t.Errorf("title %q published %q source %q", d.Title, d.Published, d.Source)
	}
	if d.Fields["keywords"] != "森林抚育,造林" || strings.Contains(d.Content, "分享") {
		t.Errorf("fields %v content %q", d.Fields, d.Content)
	}
	other := sg.Segment(loadPage(t, "zh-article.html", "http://other.example.org/a.html"))
	if other.Fields != nil {
		t.Errorf("rule applied to another site: %v", other.Fields)
	}
}

// TestSiteRuleTitleNearestContent: a title selector that also matches
// the site's logo (forestry.yaml's "h1, .title" on forestry.gov.cn) gives
// the article's title, the match nearest the rule's content, on every
// page of the site: the logo's is the same on each.
func TestSiteRuleTitleNearestContent(t *testing.T) {
	rules := []topic.ExtractRule{{Site: "forestry.example.cn", Title: "h1, .title", Content: ".TRS_Editor, #content"}}
	sg := mustNew(t, Options{Rules: rules})
	for _, c := range []struct{ name, body, want string }{
		{"before", `<div class="header"><h1><a href="/">国家林业和草原局</a></h1></div><div class="nav"><a href="/a">首页</a></div>
			<div class="article"><div class="title">森林抚育经营技术规程发布</div><div class="TRS_Editor"><p>森林抚育是提高森林质量的重要措施。</p><p>第二段。</p></div></div>`, "森林抚育经营技术规程发布"},
		{"inside", `<div class="header"><h1>国家林业和草原局</h1></div>
			<div id="content"><h1>宜林地造林模式</h1><p>宜林地造林模式介绍。</p><h2 class="title">小标题</h2><p>更多。</p></div>`, "宜林地造林模式"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := record.Page{URL: "http://www.forestry.example.cn/c/" + c.name + ".html", Status: 200, ContentType: "text/html",
				HTML: "<html><head><title>国家林业和草原局</title></head><body>" + c.body + "</body></html>"}
			if d := sg.Segment(p); d.Title != c.want {
				t.Errorf("title %q, want %q", d.Title, c.want)
			}
		})
	}
}

type fakeTokenizer struct{}

func (fakeTokenizer) Tokens(s string) []string { return strings.Fields(strings.ToLower(s)) }

func TestTokensAndBlocks(t *testing.T) {
	sg := mustNew(t, Options{Tokenizer: fakeTokenizer{}, LinkTokens: true, KeepHTML: true})
	p := loadPage(t, "en-article.html", "https://news.example.com/science/2019/thinning.html")
	d := sg.Segment(p)
	if len(d.Tokens) == 0 || d.Tokens[0] != "forest" || d.HTML != p.HTML {
		t.Errorf("tokens %v, html kept %v", d.Tokens[:min(3, len(d.Tokens))], d.HTML == p.HTML)
	}
	for _, l := range d.Links {
		if l.Anchor != "" && len(l.Tokens) == 0 {
			t.Errorf("link without tokens: %+v", l)
		}
	}
	brs := sg.SegmentBlocks(p)
	if len(brs) != len(d.Blocks) {
		t.Fatalf("%d block records for %d blocks", len(brs), len(d.Blocks))
	}
	links := 0
	for _, b := range brs {
		links += len(b.Links)
		if b.URL != p.URL || string(b.Meta) != `{"k":1}` || b.Kind == "" || b.Path == "" {
			t.Errorf("block record %+v", b)
		}
	}
	if links != len(d.Links) {
		t.Errorf("block records hold %d links, doc %d", links, len(d.Links))
	}
}

// TestBadInput: no crash, no hang, a best-effort doc or an error.
func TestBadInput(t *testing.T) {
	garbage := make([]byte, 1<<16)
	for i := range garbage {
		garbage[i] = byte(i*7919 + i/3)
	}
	huge := "<html><body>" + strings.Repeat("<p>森林抚育经营 forest management text.</p>", 1<<20/40*50) + "</body></html>"
	cases := []struct {
		name, html string
		maxBytes   int
	}{
		{"empty", "", 0},
		{"garbage", string(garbage), 0},
		{"invalid utf8", "<p>\xff\xfe abc \xc3\x28 森林</p>", 0},
		{"deep", strings.Repeat("<div>", 100000) + strings.Repeat("深层文字, deep text. ", 20) + strings.Repeat("</div>", 100000), 0},
		{"deep inline", strings.Repeat("<b><i>", 60000) + "x", 0},
		{"deep tables", strings.Repeat("<table><tr><td>", 30000) + "x", 0},
		{"50MB", huge, 2 << 20},
		// Inputs that were super-linear (found by FuzzSegment stalling):
		// the heading was compared with every run of title parts joined
		// (parts³), and every short anchor's TextSim walked the whole
		// title's bigrams (links × title).
		{"title of many parts", "<title>" + strings.Repeat("a_", 3000) + "</title><h1>zz</h1><p>x</p>", 0},
		{"huge title, many links", "<title>" + strings.Repeat("森林抚育经营", 20000) + "</title>" +
			strings.Repeat(`<a href="/x">森林</a> `, 20000), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sg := mustNew(t, Options{MaxBytes: c.maxBytes})
			done := make(chan record.Doc, 1)
			go func() { done <- sg.Segment(record.Page{URL: "http://x.example/", HTML: c.html}) }()
			select {
			case d := <-done:
				if c.name == "deep" && !strings.Contains(d.Content+d.Error, "深层文字") && d.Error == "" {
					t.Errorf("deep page lost its text: %+v", d)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("hang")
			}
		})
	}
}

// TestManyBlocks: --emit blocks hands each block its links without a scan
// of every link per block (blocks × links).
func TestManyBlocks(t *testing.T) {
	html := strings.Repeat("<div><a href='/a'>x</a>y</div>", 50000)
	sg := mustNew(t, Options{MaxLinks: 50000})
	done := make(chan []record.BlockRecord, 1)
	go func() { done <- sg.SegmentBlocks(record.Page{URL: "http://x.example/", HTML: html}) }()
	select {
	case brs := <-done:
		links := 0
		for _, b := range brs {
			links += len(b.Links)
			if len(b.Links) > 1 {
				t.Fatalf("block %d holds %d links, want 1", b.Block.ID, len(b.Links))
			}
		}
		if links != 50000 {
			t.Errorf("%d links in block records, want 50000", links)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("hang")
	}
}

func TestContextAround(t *testing.T) {
	text := strings.Repeat("前", 300) + "ANCHOR" + strings.Repeat("后", 300)
	s := strings.Index(text, "ANCHOR")
	got := contextAround(text, s, s+6, 200)
	if n := len([]rune(got)); n > 200 || !strings.Contains(got, "ANCHOR") {
		t.Errorf("context of %d runes: %q", n, got)
	}
}

func FuzzSegment(f *testing.F) {
	for _, name := range []string{"zh-article.html", "en-article.html", "hub.html"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	sg := mustNew(f, Options{Tokenizer: fakeTokenizer{}, LinkTokens: true})
	f.Fuzz(func(t *testing.T, html string) {
		d := sg.Segment(record.Page{URL: "http://fuzz.example/a/b.html", HTML: html})
		if strings.HasPrefix(d.Error, "segment: internal error") {
			t.Fatalf("panic: %s", d.Error)
		}
		for _, l := range d.Links {
			if len([]rune(l.Context)) > DefaultContextLen {
				t.Fatalf("context too long: %q", l.Context)
			}
		}
	})
}

// TestPublishedRules: the date of record of official documents, and a
// zoned metadata time shown at the offset the page prints it with.
func TestPublishedRules(t *testing.T) {
	para := strings.Repeat("森林抚育经营是提高森林质量的关键措施，各地要科学确定抚育方式。", 8)
	cases := []struct{ name, html, want string }{
		{"成文日期 before the posting date",
			`<html><head><meta name="pubdate" content="2022-01-28"></head><body><table><tr><td>成文日期：</td><td>2022年01月27日</td></tr>` +
				`<tr><td>发布日期：</td><td>2022年01月28日</td></tr></table><div class="content"><p>` + para + `</p></div></body></html>`,
			"2022-01-27"},
		{"page's own offset",
			`<html><head><meta property="article:published_time" content="2022-02-06T12:48:06+00:00"></head><body>` +
				`<div class="info">发表时间： 06/02/2022 - 13:48</div><div class="content"><p>` + para + `</p></div></body></html>`,
			"2022-02-06T13:48:06+01:00"},
		{"no printed time keeps the metadata's",
			`<html><head><meta property="article:published_time" content="2022-02-06T12:48:06+00:00"></head><body>` +
				`<div class="content"><p>` + para + `</p></div></body></html>`,
			"2022-02-06T12:48:06Z"},
	}
	sg := mustNew(t, Options{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := sg.Segment(record.Page{URL: "http://www.example.gov.cn/a.html", HTML: c.html})
			if d.Published != c.want {
				t.Errorf("published %q, want %q", d.Published, c.want)
			}
		})
	}
}

// TestRelatedSection: a related-stories or readers' comments section
// after the article is not content, even when it is as long as the
// article and built like it.
func TestRelatedSection(t *testing.T) {
	para := "<p>" + strings.Repeat("Living a true experience of love is one of the great pleasures of life, and we learn it slowly. ", 6) + "</p>"
	teaser := "<p>" + strings.Repeat("Optimism asks us to expect the best and to make the best happen, every single day. ", 6) + "</p>"
	cases := []struct{ name, heading string }{
		{"by words", `<h3>Você pode gostar...</h3>`},
		{"by class", `<h3 class="relatedpoststitle">More</h3>`},
		{"comments", `<h3>12 Comments</h3>`},
		{"comments, count after", `<h2>Comments (2):</h2>`},
		{"reply", `<h3>Leave a Reply</h3>`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			html := `<html><body><div class="main"><article class="post">` + para + para + `</article>` +
				`<article class="post">` + c.heading + `<article class="post">` + teaser + `</article><article class="post">` + teaser + `</article></article></div></body></html>`
			d := mustNew(t, Options{}).Segment(record.Page{URL: "http://blog.example.com/a", HTML: html})
			if !strings.Contains(d.Content, "Living a true") || strings.Contains(d.Content, "Optimism") {
				t.Errorf("content:\n%s", d.Content)
			}
		})
	}
}

// TestFirstEntry: on a page of dated entries (a blog's front page) the
// content is the first entry, even when a later one is longer, and the
// entry's own date line dates it.
func TestFirstEntry(t *testing.T) {
	post := func(title, date, text string, n int) string {
		return `<tr><td><table class="entry"><tr><td class="title">` + title + `</td><td>` + date + `</td></tr>` +
			`<tr><td class="body">` + strings.Repeat(text, n) + `</td></tr></table></td></tr>`
	}
	html := `<html><body><div class="side">博客精选(截止2006年8月10日)</div><table>` +
		post("湘菜粤菜 兵分两路", "2005-06-14 03:25:55", "湘菜浓妆淡抹，粤菜却是明艳照人，家乡炖的老鸡汤香味浓郁。", 12) +
		post("女孩经典游戏", "2005-06-10 05:42:56", "那会儿小女生们爱玩跳房子，只要一支粉笔、一块石子儿就可以搞定。", 30) +
		`</table></body></html>`
	d := mustNew(t, Options{}).Segment(record.Page{URL: "http://blog.example.com/", HTML: html})
	if !strings.Contains(d.Content, "湘菜浓妆淡抹") || strings.Contains(d.Content, "跳房子") {
		t.Errorf("content is not the first entry:\n%s", d.Content)
	}
	if d.Published != "2005-06-14T03:25:55+08:00" {
		t.Errorf("published %q, want the first entry's date", d.Published)
	}
}

// TestConcurrentSegment: one Segmenter serves several workers (segment
// --workers); the class/id memo is shared. Run with -race.
func TestConcurrentSegment(t *testing.T) {
	sg := mustNew(t, Options{Tokenizer: fakeTokenizer{}, LinkTokens: true})
	pages := []record.Page{
		loadPage(t, "zh-article.html", "http://www.forestry.example.cn/lyyw/2017/0401/a.html"),
		loadPage(t, "en-article.html", "https://news.example.com/science/2019/thinning.html"),
		loadPage(t, "hub.html", "http://www.forestry.example.cn/lyyw/"),
	}
	want := make([]string, len(pages))
	for i, p := range pages {
		b, _ := json.Marshal(sg.Segment(p))
		want[i] = string(b)
	}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < 5; r++ {
				for i, p := range pages {
					if b, _ := json.Marshal(sg.Segment(p)); string(b) != want[i] {
						t.Errorf("page %d differs when segmented concurrently", i)
					}
				}
			}
		}()
	}
	wg.Wait()
}
