package segmenter

import (
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// TestMarkupAuthor: the byline marked up with schema.org itemprop or
// rel=author above the story is the author; a photo credit marked the
// same way and a related story's byline below the content are not.
func TestMarkupAuthor(t *testing.T) {
	story := strings.Repeat("<p>The city council approved the budget on Monday after a long and heated debate.</p>", 5)
	cases := []struct{ name, byline, want string }{
		{"itemprop name", `<div class="meta"><span itemprop="author" itemscope itemtype="http://schema.org/Person"><span itemprop="name">Hazel Sheffield</span></span></div>`, "Hazel Sheffield"},
		{"rel author", `<p class="by">By <a rel="author" href="/people/dan">Dan Goodin</a> and <a rel="author" href="/people/ann">Ann Lee</a></p>`, "Dan Goodin, Ann Lee"},
		{"degree after the name", `<div class="author_fmt">By <a rel="author" href="/brenda-goodman">Brenda  Goodman, MA</a></div>`, "Brenda Goodman"},
		{"photo credit skipped", `<figure><img src="a.jpg"><figcaption><span itemprop="author">Benoit Tessier/Reuters</span></figcaption></figure>`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			html := `<html><body><article><h1>Budget passes</h1>` + c.byline + `<div class="body">` + story + `</div></article>` +
				`<aside><div class="teaser"><a rel="author" href="/x">Someone Else</a></div></aside></body></html>`
			d := mustNew(t, Options{}).Segment(record.Page{URL: "http://news.example.com/a", HTML: html})
			if d.Author != c.want {
				t.Errorf("author %q, want %q", d.Author, c.want)
			}
		})
	}
}

// TestJSONLDInCDATA: JSON-LD wrapped in CDATA still gives its author.
func TestJSONLDInCDATA(t *testing.T) {
	html := `<html><head><script type="application/ld+json">
	<![CDATA[ {"@type":"BlogPosting","author":{"@type":"Person","name":"Dave Steer"}} ]]>
	</script></head><body><div>` + strings.Repeat("<p>We are changing how we ship releases, and here is why it matters.</p>", 4) + `</div></body></html>`
	d := mustNew(t, Options{}).Segment(record.Page{URL: "http://blog.example.com/a", HTML: html})
	if d.Author != "Dave Steer" {
		t.Errorf("author %q", d.Author)
	}
}

// TestClassByline: with no schema.org or rel=author mark, a short element
// whose class names an author or a byline gives the author: its names
// after "By", without the role, date or button that follow them, and
// before the meta author (which may name a column or an account). A
// block about the author (class="author-bio") or a label is not a
// byline, and each story's byline is its own: a second story's is not
// joined to the first's.
func TestClassByline(t *testing.T) {
	story := strings.Repeat("<p>The city council approved the budget on Monday after a long and heated debate.</p>", 5)
	cases := []struct{ name, head, byline, inside, want string }{
		{"class author", "", `<div class="author Mb(4px)"><a class="author-link" href="/author/ben">Ben Silverman</a><span class="role">Games Editor</span></div>`, "", "Ben Silverman"},
		{"by and follow", "", `<span class="pb-byline">By <a href="/people/steven">Steven Mufson</a></span><span class="pb-byline-follow"><a class="pb-author-follow">Follow</a></span>`, "", "Steven Mufson"},
		{"two names", "", `<p class="byline">By <a>Jane Doe</a> and <a>John Roe</a> <time>March 3, 2015</time></p>`, "", "Jane Doe, John Roe"},
		{"over meta author", `<meta name="article:author" content="Laurie Oakes">`, `<em class="byline">JOE HILDEBRAND </em>`, "", "JOE HILDEBRAND"},
		{"author name span, time after", "", `<div class="author-name">NATALIYA VASILYEVA</div><div class="author-date">8h</div>`, "", "NATALIYA VASILYEVA"},
		{"bio is not a byline", "", `<div class="author-bio">Writes about city politics for us.</div>`, "", ""},
		{"label is not a byline", "", `<a class="author-follow">Follow Author</a>`, "", ""},
		{"one word is not enough", "", `<span class="byline">Updated</span>`, "", ""},
		{"a comment's author is not the story's", "", "", `<div class="comments"><p class="comment-author">Jane Reader</p><p>Great piece, thanks for writing it.</p></div>`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			html := `<html><head>` + c.head + `</head><body><article><h1>Budget passes</h1>` + c.byline + `<div class="body">` + story + c.inside + `</div></article>` +
				`<aside><div class="teaser"><span class="byline">Someone Else</span></div></aside></body></html>`
			d := mustNew(t, Options{}).Segment(record.Page{URL: "http://news.example.com/a", HTML: html})
			if d.Author != c.want {
				t.Errorf("author %q, want %q", d.Author, c.want)
			}
		})
	}
}

// TestMetaAuthorHomePage: the home page a meta author carries after the
// name is dropped, not the whole value; a bare link is no author.
func TestMetaAuthorHomePage(t *testing.T) {
	body := `<body><div>` + strings.Repeat("<p>We are changing how we ship releases, and here is why it matters.</p>", 4) + `</div></body></html>`
	for meta, want := range map[string]string{
		"Bradley M. Kuhn (http://ebb.org/bkuhn/)": "Bradley M. Kuhn",
		"Jane Doe <https://jane.example.org>":     "Jane Doe",
		"https://plus.google.com/+JaneDoe":        "",
	} {
		html := `<html><head><meta name="author" content="` + meta + `"></head>` + body
		d := mustNew(t, Options{}).Segment(record.Page{URL: "http://blog.example.com/a", HTML: html})
		if d.Author != want {
			t.Errorf("meta author %q: author %q, want %q", meta, d.Author, want)
		}
	}
}

// TestJSONLDOrganizationAuthor: a JSON-LD author typed Person (or not
// typed) comes before one typed Organization, and an Organization that
// is the publisher (the outlet itself) is not the author.
func TestJSONLDOrganizationAuthor(t *testing.T) {
	for ld, want := range map[string]string{
		`{"@type":"NewsArticle","author":{"@type":"Organization","name":"CBS News"},"publisher":{"@type":"Organization","name":"CBS News"}}`:                                         "",
		`{"@type":"Article","author":{"@type":"Organization","name":"Contributors to Wikimedia projects"},"publisher":{"@type":"Organization","name":"Wikimedia Foundation, Inc."}}`: "Contributors to Wikimedia projects",
		`{"@type":"NewsArticle","author":[{"@type":"Organization","name":"CBS Detroit"},{"@type":"Person","name":"Jane Doe"}]}`:                                                      "Jane Doe",
		`{"@type":"NewsArticle","author":[{"@type":"Person","name":"Dave Steer"}]}`:                                                                                                  "Dave Steer",
		`{"@type":"NewsArticle","author":{"name":"Dave Steer"}}`:                                                                                                                     "Dave Steer",
		`{"@type":"NewsArticle","author":{"@type":"https://schema.org/Person","name":"Dave Steer"}}`:                                                                                 "Dave Steer",
	} {
		html := `<html><head><script type="application/ld+json">` + ld + `</script></head><body><div>` +
			strings.Repeat("<p>We are changing how we ship releases, and here is why it matters.</p>", 4) + `</div></body></html>`
		d := mustNew(t, Options{}).Segment(record.Page{URL: "http://www.example.com/a", HTML: html})
		if d.Author != want {
			t.Errorf("%s: author %q, want %q", ld, d.Author, want)
		}
	}
}
