package segmenter

import (
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// commentedStoryPage is a story of short paragraphs followed by a
// comment thread in which one reader wrote a long comment, with more
// commas than the story: by its score alone the comment would be the
// content.
func commentedStoryPage() string {
	var sb strings.Builder
	sb.WriteString(`<html><head><title>New laptop due next year</title></head><body>
<div class="wrapper"><div class="menu">`)
	for i := 0; i < 30; i++ {
		sb.WriteString(`<a href="/s">Section of the site</a> `)
	}
	sb.WriteString(`</div><div class="article"><h1>New laptop due next year</h1><div class="story-body">`)
	for _, s := range []string{
		"STORY-ONE The maker plans a smaller model of its laptop for the first half of next year, an analyst said in a note to investors on Monday.",
		"STORY-TWO The new model is expected to bring the keyboard of the larger one, which was released last month to good reviews.",
		"STORY-THREE Prices were not given in the note, and the maker did not answer a request for comment on the plans.",
		"STORY-FOUR The analyst has a good record on the maker's plans, though some of his dates have slipped in the past.",
		"STORY-FIVE Sales of laptops rose in the last quarter after two years of decline, the figures of a market research firm show.",
		"STORY-SIX Shops expect the smaller model to sell well to students, who make up a large share of the market.",
	} {
		sb.WriteString("<p>" + s + "</p>")
	}
	sb.WriteString(`</div></div>
<div id="comments"><h3>Comments</h3><div class="comment"><div class="username"><a href="/u/1">reader1</a></div><div class="comment-text">`)
	for i := 0; i < 4; i++ {
		sb.WriteString("COMMENT I agree, but it begs the question, who is in charge, really, of the design, the costs, the supply chain, and the plans, and why did it take them so long, years in fact, to admit the keyboard, which everyone hated, was broken? ")
	}
	sb.WriteString(`</div></div><div class="comment"><div class="comment-text">COMMENT Nice, finally.</div></div></div>
</div></body></html>`)
	return sb.String()
}

// TestCandidatesInNoise: the story is the content, not the comment that
// outscores it; with the rule off (Tuning.NoiseCandidates) the comment
// is.
func TestCandidatesInNoise(t *testing.T) {
	for _, off := range []bool{false, true} {
		d := mustNew(t, Options{Tuning: Tuning{NoiseCandidates: off}}).
			Segment(record.Page{URL: "http://example.com/laptop", HTML: commentedStoryPage()})
		story, comment := strings.Contains(d.Content, "STORY-ONE") && strings.Contains(d.Content, "STORY-SIX"),
			strings.Contains(d.Content, "COMMENT")
		if story == off || comment != off {
			t.Errorf("rule off %v: content holds the story %v, the comment %v:\n%s", off, story, comment, d.Content)
		}
	}
}

// TestCandidatesAllInNoise: when every candidate but the page itself
// (the body) lies in noise, the best of them is still the content, not
// the whole page with its menu.
func TestCandidatesAllInNoise(t *testing.T) {
	var nav strings.Builder
	for i := 0; i < 40; i++ {
		nav.WriteString(`<a href="/s">Section of the site</a> `)
	}
	page := `<html><body><div class="menu">` + nav.String() + `</div>
<div class="sidebar"><p>ONLY-TEXT The shop is closed for the holidays, and will open again on the second of January, with new stock, new prices, and longer hours.</p></div></body></html>`
	d := mustNew(t, Options{Tuning: Tuning{NoFallback: true}}).Segment(record.Page{URL: "http://example.com/", HTML: page})
	if !strings.Contains(d.Content, "ONLY-TEXT") || strings.Contains(d.Content, "Section of the site") {
		t.Errorf("content is not the sidebar's text alone:\n%s", d.Content)
	}
}
