package segmenter

import (
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// TestExtendChunks: an article cut into chunks by an ad slot, each chunk
// in a wrapper of its own two levels down, is extracted whole; the
// navigation beside it is not. Without the growing only the longer chunk
// is kept, unless the kin rule (kin.go) finds the other chunk by its
// markup.
func TestExtendChunks(t *testing.T) {
	chunk := func(s string, n int) string {
		return `<div class="grid"><div class="grid-item">` + strings.Repeat("<p>"+s+"</p>", n) + `</div></div>`
	}
	html := `<html><body><nav><a href="/a">Home</a> <a href="/b">World</a> <a href="/c">Sport</a></nav>` +
		`<main><article><div class="chunks">` +
		chunk("The latest wave of startups has a new angle on banking, and it is not a kind one to customers.", 3) +
		`<div class="ad"><a href="http://ads.example/x">Advertisement</a></div>` +
		chunk("In fact, the idea that the answer lies in a friendlier digital bank feels like a story we heard before.", 5) +
		`</div></article></main><footer><a href="/about">About us</a></footer></body></html>`
	for _, c := range []struct {
		name  string
		tune  Tuning
		whole bool
	}{{"grown", Tuning{}, true}, {"not grown", Tuning{NoExtend: true, NoKin: true}, false},
		{"not grown, kin", Tuning{NoExtend: true}, true}} {
		t.Run(c.name, func(t *testing.T) {
			d := mustNew(t, Options{Tuning: c.tune}).Segment(record.Page{URL: "http://news.example.com/a", HTML: html})
			if !strings.Contains(d.Content, "In fact") {
				t.Fatalf("content lost the longer chunk:\n%s", d.Content)
			}
			if got := strings.Contains(d.Content, "The latest wave"); got != c.whole {
				t.Errorf("first chunk kept = %v, want %v:\n%s", got, c.whole, d.Content)
			}
			if strings.Contains(d.Content, "Sport") || strings.Contains(d.Content, "About us") {
				t.Errorf("navigation in content:\n%s", d.Content)
			}
		})
	}
}

// TestExtendStopsAtLinks: a wrapper that adds a list of links is not
// taken into the content.
func TestExtendStopsAtLinks(t *testing.T) {
	var links strings.Builder
	for i := 0; i < 12; i++ {
		links.WriteString(`<li><a href="/s` + string(rune('a'+i)) + `">Another story headline that is long enough to count</a></li>`)
	}
	html := `<html><body><div class="page"><div class="story">` +
		strings.Repeat("<p>Michigan health authorities are reporting a case of the illness, the first this year.</p>", 5) +
		`</div><ul>` + links.String() + `</ul></div></body></html>`
	d := mustNew(t, Options{}).Segment(record.Page{URL: "http://news.example.com/a", HTML: html})
	if !strings.Contains(d.Content, "Michigan") || strings.Contains(d.Content, "Another story") {
		t.Errorf("content:\n%s", d.Content)
	}
}

// TestRunawayTitle: a <title> that is never closed no longer swallows the
// page.
func TestRunawayTitle(t *testing.T) {
	body := strings.Repeat("<p>Choi Kyung-ju won his seventh title on the tour on Sunday, three shots clear of the field.</p>", 4)
	html := "<html><head><title>Choi Wins 7th Title (The Times)ntById(\"font\");\nfunction goPrint() {}\n" +
		"<script>var x;</script></head><body><div>" + body + "</div></body></html>"
	d := mustNew(t, Options{}).Segment(record.Page{URL: "http://news.example.com/a", HTML: html})
	if !strings.Contains(d.Content, "seventh title") {
		t.Errorf("content lost:\n%q", d.Content)
	}
	if d.Title != `Choi Wins 7th Title (The Times)ntById("font");` {
		t.Errorf("title %q", d.Title)
	}
	if got := closeRunawayTitle("<title>a</title><p>b"); got != "<title>a</title><p>b" {
		t.Errorf("closed title changed: %q", got)
	}
	// "</titlevalue" is no end tag: the parser reads on, so the title runs away.
	if got := closeRunawayTitle("<title id=t>A - B</titlevalue=\"true\" -->\n<body><p>b"); got != "<title id=t>A - B</title></titlevalue=\"true\" -->\n<body><p>b" {
		t.Errorf("title closed by another tag name: %q", got)
	}
	if got := closeRunawayTitle("<TITLE>a</TITLE >\n<p>b"); got != "<TITLE>a</TITLE >\n<p>b" {
		t.Errorf("closed title changed: %q", got)
	}
}

// TestExtendNotIntoTail: prose after the article in a sibling of another
// kind (a comment, a notice) is not taken in; with the loose variant it
// is.
func TestExtendNotIntoTail(t *testing.T) {
	html := `<html><body><div class="wrap"><div class="story">` +
		strings.Repeat("<p>The council approved the new budget on Monday after a long debate in the chamber.</p>", 5) +
		`</div><div><p>Anonymous wrote: this is the worst decision the council has made in years, frankly.</p></div></div></body></html>`
	for _, c := range []struct {
		tune Tuning
		want bool
	}{{Tuning{}, false}, {Tuning{ExtendLoose: true}, true}} {
		d := mustNew(t, Options{Tuning: c.tune}).Segment(record.Page{URL: "http://news.example.com/a", HTML: html})
		if got := strings.Contains(d.Content, "Anonymous wrote"); got != c.want {
			t.Errorf("loose=%v: tail kept = %v, want %v:\n%s", c.tune.ExtendLoose, got, c.want, d.Content)
		}
	}
}

// TestFigureCaption: a picture's caption and credit inside the article
// are left out of the content; the paragraphs around it stay.
func TestFigureCaption(t *testing.T) {
	para := "<p>Former governor Deval Patrick spoke with business owners during a campaign stop on Tuesday.</p>"
	html := `<html><body><article>` + para + `<figure><img src="a.jpg"><figcaption>Patrick, left, speaks with an owner. Photo: Meg Kinnard, AP</figcaption></figure>` +
		strings.Repeat(para, 4) + `</article></body></html>`
	d := mustNew(t, Options{}).Segment(record.Page{URL: "http://news.example.com/a", HTML: html})
	if !strings.Contains(d.Content, "Deval Patrick") || strings.Contains(d.Content, "Meg Kinnard") {
		t.Errorf("content:\n%s", d.Content)
	}
}

// TestExtendSameKindAfter: after the best chunk, a further chunk of the
// same tag sharing a class word ("body-text" and "body-text last") is
// more of the article and is taken in.
func TestExtendSameKindAfter(t *testing.T) {
	html := `<html><body><article><div class="body-text">` +
		strings.Repeat("<p>Zimbabwe's president and his wife are under house arrest at their compound in Harare, officials said.</p>", 5) +
		`</div><div class="body-text last"><p>Whatever the outcome, the events could signal a once-in-a-generation change for the country.</p></div>` +
		`</article></body></html>`
	d := mustNew(t, Options{}).Segment(record.Page{URL: "http://news.example.com/a", HTML: html})
	if !strings.Contains(d.Content, "house arrest") || !strings.Contains(d.Content, "once-in-a-generation") {
		t.Errorf("content:\n%s", d.Content)
	}
}
