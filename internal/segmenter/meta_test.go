package segmenter

import (
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// TestOpeningDateLine: a line of only a date among the content's first
// lines is its dateline; a date in a sentence or further down is not.
func TestOpeningDateLine(t *testing.T) {
	for _, c := range []struct {
		content, want string
	}{
		{"调查研究报告\n\n北京市妇女儿童工作委员会课题组\n\n2003年5月\n\n为了贯彻落实……", "2003-05"},
		{"By Nathan Willis\nMarch 25, 2015\n\nThe Arduino has been …", "2015-03-25"},
		{"Title\n\nOn 25 March 2015 the board met.", ""}, // a date inside a sentence
		{"一\n\n二\n\n三\n\n四\n\n2003年5月", ""},              // too far down
		{"2017", ""}, // a bare year is no dateline
	} {
		got := ""
		if d, ok := openingDateLine(c.content, time.UTC); ok {
			got = d.String()
		}
		if got != c.want {
			t.Errorf("openingDateLine(%q) = %q, want %q", c.content, got, c.want)
		}
	}
}

// TestNotAuthors: the site's own name, a label of its host, the source
// outlet and the wire agencies are not authors; people are, a person
// given as the source included.
func TestNotAuthors(t *testing.T) {
	h := &head{meta: map[string]string{"og:site_name": "BBC News"}}
	not := notAuthors(h, "https://www.folha.uol.com.br/mundo/x.shtml", "东方网")
	for v, want := range map[string]bool{
		"BBC News": true, "bbc  news": true, "Folha": true, "东方网": true, "AFP": true,
		"Jane Doe": false, "王建宏": false, "uol": false,
	} {
		if got := not(v, false); got != want {
			t.Errorf("not(%q) = %v, want %v", v, got, want)
		}
	}
	if notAuthors(h, "", "尹娟")("尹娟", false) {
		t.Error("a person given as the source was taken for an outlet")
	}
}

// TestNotAuthorsCanonicalHost: a page served from another host (a mirror,
// an archive, a test fixture) still names its site in rel=canonical and
// og:url, and a label of that host is not the author either.
func TestNotAuthorsCanonicalHost(t *testing.T) {
	for _, h := range []*head{
		{canonical: "https://www1.folha.uol.com.br/esporte/x.shtml", meta: map[string]string{}},
		{meta: map[string]string{"og:url": "https://www1.folha.uol.com.br/esporte/x.shtml"}},
	} {
		not := notAuthors(h, "http://mirror.example.org/page.html", "")
		if !not("folha", false) || not("Bruno Rodrigues", false) || not("Folha Silva", false) {
			t.Errorf("canonical %q og:url %q: folha %v, Bruno Rodrigues %v", h.canonical, h.meta["og:url"], not("folha", false), not("Bruno Rodrigues", false))
		}
	}
	// An Organization named like the host is the site, whatever its words.
	org := notAuthors(&head{meta: map[string]string{}}, "https://www.cbsnews.com/news/x/", "")
	if !org("CBS News", true) || org("CBS News", false) {
		t.Errorf("CBS News on cbsnews.com: as an Organization %v (want true), as a person %v (want false)", org("CBS News", true), org("CBS News", false))
	}
	// A personal site is named after its author.
	if notAuthors(&head{canonical: "https://hakibenita.com/x"}, "http://mirror.example.org/a", "")("Haki Benita", false) {
		t.Error("Haki Benita on hakibenita.com taken for the site")
	}
}

// TestPublishedMetaAndJSONLD: the meta published time and the JSON-LD
// datePublished, the earlier when both carry their offset (or differ by
// more than an unknown offset can); a modified time only after both.
func TestPublishedMetaAndJSONLD(t *testing.T) {
	page := func(meta, ld string) string {
		return `<html><head>` + meta + `<script type="application/ld+json">{"@type":"NewsArticle",` + ld +
			`}</script></head><body><article><p>The story, long enough to be the content of the page, with a sentence or two more.</p></article></body></html>`
	}
	for _, c := range []struct {
		name, meta, ld, want string
	}{
		{"JSON-LD earlier, both zoned",
			`<meta property="article:published_time" content="2024-12-07T12:43:39Z">`,
			`"datePublished":"2024-12-06T22:00:40.000Z"`, "2024-12-06T22:00:40Z"},
		{"meta earlier",
			`<meta property="article:published_time" content="2015-10-15T02:19:15Z">`,
			`"datePublished":"2015-12-11T14:28:34Z"`, "2015-10-15T02:19:15Z"},
		{"JSON-LD without offset, within 14 hours",
			`<meta property="article:published_time" content="2019-11-19T11:21:08Z">`,
			`"datePublished":"2019-11-19T06:21:00"`, "2019-11-19T11:21:08Z"},
		{"modified meta after JSON-LD",
			`<meta property="article:modified_time" content="2025-01-07T09:08:22+00:00">`,
			`"datePublished":"2020-07-10T14:15:42+00:00"`, "2020-07-10T14:15:42Z"},
		{"modified meta alone",
			`<meta property="article:modified_time" content="2025-01-07T09:08:22+00:00">`,
			`"headline":"x"`, "2025-01-07T09:08:22Z"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := mustNew(t, Options{}).Segment(record.Page{URL: "http://news.example.com/a", HTML: page(c.meta, c.ld)})
			if d.Published != c.want {
				t.Errorf("published %q, want %q", d.Published, c.want)
			}
		})
	}
}
