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
