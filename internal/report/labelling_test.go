package report

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// Hostile text as the web may put it in a title, a URL or a text.
const (
	hostileTitle   = `</script><script>alert(1)</script>"onmouseover=alert(2) x="`
	hostileURL     = `http://evil.example/"onmouseover=alert(3)<x>`
	hostileExcerpt = `<img src=x onerror=alert(4)>&amp; '"</textarea>`
)

// labellingFixture is a sample of four pages, one of them hostile, and
// two earlier labels: one of a page in the archive, one not.
func labellingFixture() *Labelling {
	s := &Sample{Threshold: 0.4, HasThreshold: true, Docs: 1234, Pages: []LabelPage{
		{URL: "http://a.example.cn/1", Link: "https://a.example.cn/1", Title: "造林模式", Excerpt: "宜林地造林", Score: 0.91, Relevant: true},
		{URL: hostileURL, Link: hostileURL, Title: hostileTitle, Excerpt: hostileExcerpt, Score: 0.45, Relevant: true},
		{URL: "http://a.example.cn/3", Link: "javascript:alert(5)", Title: "Three", Score: 0.39, Side: SideOther},
		{URL: "http://a.example.cn/4", Link: "http://a.example.cn/4", Score: 0.02, Side: SideOther, Band: 3},
	}, Bands: []Band{{Side: SideRelevant, Lo: 0.4, Hi: 0.55, Docs: 10, Shown: 2}, {Side: SideOther, Lo: 0.3, Hi: 0.4, Docs: 20, Shown: 1}},
		Found: map[string]LabelPage{"http://a.example.cn/old": {URL: "http://a.example.cn/old", Link: "http://a.example.cn/old", Title: "Old page", Score: 0.7, Relevant: true}}}
	return &Labelling{Sample: s, Archives: []string{"crawl.jsonl.zst"}, LabelsFile: "labels.jsonl", Seed: 1, Earlier: []jsonl.LabelEntry{
		{Label: record.Label{URL: "http://a.example.cn/old", Relevant: false}, Line: []byte(`{"url":"http://a.example.cn/old","relevant":false,"note":"mine"}`)},
		{Label: record.Label{URL: "http://gone.example.cn/", Relevant: true, Title: "Gone"}, Line: []byte(`{"url":"http://gone.example.cn/","relevant":true,"title":"Gone"}`)},
	}}
}

// TestLabellingSelfContained: the page with a labelling section has one
// script, inline, allowed by the Content-Security-Policy by its hash and
// nothing else; no resource from outside; its only links are the pages
// to label and the jump to the section.
func TestLabellingSelfContained(t *testing.T) {
	html, doc := renderPage(t, Page{Crawls: fixedCrawls(t), Labelling: labellingFixture()})
	scripts := doc.Find("script")
	if scripts.Length() != 1 {
		t.Fatalf("%d scripts, want 1", scripts.Length())
	}
	if _, ok := scripts.Attr("src"); ok || scripts.Parent().AttrOr("id", "") != "labelling" {
		t.Error("the script is not inline in the labelling section")
	}
	sum := sha256.Sum256([]byte(scripts.Text()))
	policy := doc.Find(`meta[http-equiv="Content-Security-Policy"]`).AttrOr("content", "")
	if !strings.Contains(policy, "script-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"';") || !strings.HasPrefix(policy, "default-src 'none';") {
		t.Errorf("policy %q does not allow the page's script by its hash alone", policy)
	}
	if doc.Find("link, img, iframe, object, embed, [src], [srcset]").Length() != 0 {
		t.Error("the page loads something")
	}
	if m := regexp.MustCompile(`(?i)url\(|@import`).FindString(strings.Replace(html, scripts.Text(), "", 1)); m != "" {
		t.Errorf("the page refers to something outside it: %q", m)
	}
	doc.Find("[href]").Each(func(_ int, s *goquery.Selection) {
		href := s.AttrOr("href", "")
		if href != "#labelling" && s.Closest("#labelling legend").Length() == 0 {
			t.Errorf("a link outside the pages to label: %q", href)
		}
	})
	// Without labelling: no script, and the policy allows none.
	_, doc = renderPage(t, Page{Crawls: fixedCrawls(t)})
	if p := doc.Find(`meta[http-equiv="Content-Security-Policy"]`).AttrOr("content", ""); !strings.Contains(p, "script-src 'none'") || doc.Find("script, #labelling").Length() != 0 {
		t.Errorf("a report without labelling: policy %q, %d scripts", p, doc.Find("script").Length())
	}
}

// TestLabellingEscapes: a hostile title, URL and excerpt stay text: no
// element or handler of theirs gets into the page, and the data the
// script reads is the text itself.
func TestLabellingEscapes(t *testing.T) {
	html, doc := renderPage(t, Page{Crawls: fixedCrawls(t), Labelling: labellingFixture()})
	if doc.Find("img, textarea, x").Length() != 0 || strings.Count(html, "<script>") != 1 {
		t.Fatal("hostile text made elements")
	}
	doc.Find("*").Each(func(_ int, s *goquery.Selection) {
		for _, a := range s.Nodes[0].Attr {
			if strings.HasPrefix(a.Key, "on") {
				t.Errorf("<%s> got the attribute %s=%q", s.Nodes[0].Data, a.Key, a.Val)
			}
		}
	})
	li := doc.Find("li[data-page]").Eq(1)
	if li.AttrOr("data-page", "") != hostileURL || li.AttrOr("data-title", "") != hostileTitle {
		t.Errorf("data of the hostile page: url %q title %q", li.AttrOr("data-page", ""), li.AttrOr("data-title", ""))
	}
	if li.Find("legend a").Text() != hostileTitle || li.Find(".excerpt").Text() != hostileExcerpt {
		t.Errorf("text of the hostile page: %q / %q", li.Find("legend a").Text(), li.Find(".excerpt").Text())
	}
	if href := doc.Find("li[data-page]").Eq(2).Find("a").AttrOr("href", ""); strings.HasPrefix(href, "javascript:") {
		t.Errorf("a javascript: link kept: %q", href)
	}
}

// TestLabellingItems: each page with its title, link, score, verdict and
// excerpt, grouped by score's verdict; earlier labels checked, with their
// own line for the export, after the sample.
func TestLabellingItems(t *testing.T) {
	_, doc := renderPage(t, Page{Crawls: fixedCrawls(t), Labelling: labellingFixture()})
	sec := doc.Find("#labelling")
	lists := sec.Find("ol.labels")
	if lists.Length() != 3 || lists.Eq(0).Find("li").Length() != 2 || lists.Eq(1).Find("li").Length() != 2 || lists.Eq(2).Find("li").Length() != 2 {
		t.Fatalf("lists of pages: %d", lists.Length())
	}
	first := lists.Eq(0).Find("li").First()
	if first.Find("legend a").AttrOr("href", "") != "https://a.example.cn/1" || first.Find("legend a").Text() != "造林模式" ||
		!strings.Contains(first.Find(".label-meta").Text(), "score 0.910, judged relevant") || first.Find(".excerpt").Text() != "宜林地造林" {
		t.Errorf("first page: %s", first.Text())
	}
	if got := lists.Eq(1).Find("li").Last().Find("legend a").Text(); got != "(no title)" {
		t.Errorf("a page without a title shows %q", got)
	}
	names := map[string]bool{}
	sec.Find("li[data-page]").Each(func(i int, li *goquery.Selection) {
		radios := li.Find(`input[type="radio"]`)
		name := radios.First().AttrOr("name", "")
		if radios.Length() != 3 || names[name] || radios.FilterFunction(func(_ int, r *goquery.Selection) bool { return r.AttrOr("name", "") == name }).Length() != 3 {
			t.Errorf("page %d: radio group %q", i, name)
		}
		names[name] = true
		if li.Find("fieldset > legend").Length() != 1 {
			t.Errorf("page %d: its choices are not named by a legend", i)
		}
	})
	old := lists.Eq(2).Find("li").First()
	if old.AttrOr("data-prior", "") != "no" || old.Find(`input[value="no"]`).AttrOr("checked", "x") == "x" || old.Find("legend a").Text() != "Old page" ||
		!strings.Contains(old.Find(".label-meta").Text(), "score 0.700") {
		t.Errorf("an earlier label of a page in the archive: %s", old.Text())
	}
	var line map[string]any
	if err := json.Unmarshal([]byte(old.AttrOr("data-line", "")), &line); err != nil || line["note"] != "mine" {
		t.Errorf("the earlier label's line: %q (%v)", old.AttrOr("data-line", ""), err)
	}
	gone := lists.Eq(2).Find("li").Last()
	if gone.AttrOr("data-prior", "") != "yes" || !strings.Contains(gone.Find(".label-meta").Text(), "no scored doc in the archive") || gone.Find("legend a").Text() != "Gone" {
		t.Errorf("an earlier label of a page not in the archive: %s", gone.Text())
	}
	if sec.Find(`input[checked]`).Length() != 6 {
		t.Errorf("%d inputs checked, want one a page", sec.Find(`input[checked]`).Length())
	}
	if sec.Find(".label-bar[hidden] #label-export").Length() != 1 || sec.Find("noscript").Length() != 1 {
		t.Error("without a script the export should stay hidden and a note say why")
	}
	if sec.AttrOr("data-key", "") == "" {
		t.Error("no storage key")
	}
	other := labellingFixture()
	other.Earlier[0].Relevant = true
	_, doc2 := renderPage(t, Page{Labelling: other})
	if doc2.Find("#labelling").AttrOr("data-key", "") == sec.AttrOr("data-key", "") {
		t.Error("a report made with other labels takes the marks stored for this one")
	}
}
