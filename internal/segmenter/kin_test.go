package segmenter

import (
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// splitStoryPage is a story cut in two: its lead paragraphs in one
// wrapper at the top, the rest in the main column after a block of
// links, every paragraph written as p.story-text. Teasers of other
// stories use the same class, one paragraph to a wrapper.
func splitStoryPage() string {
	para := func(s string) string {
		return `<p class="story-text">` + s + ` The council said the work would take most of the year, and that residents would be told of every closure in advance.</p>`
	}
	var sb strings.Builder
	sb.WriteString(`<html><head><title>Bridge to close for repairs</title></head><body>
<div class="top"><h1>Bridge to close for repairs</h1><div class="lead">`)
	sb.WriteString(para("LEAD-ONE The old bridge over the river will close in March for repairs to its deck and railings."))
	sb.WriteString(para("LEAD-TWO Engineers found cracks in the deck during the last inspection, the council said on Monday."))
	sb.WriteString(`</div><div class="promo"><a href="/a">Subscribe to our newsletter today</a> <a href="/b">Get the app for your phone</a> <a href="/c">Follow us on every network</a></div></div>
<div class="column"><div class="main"><div class="body">`)
	for _, s := range []string{"REST-ONE Traffic will be sent over the new bridge, two miles downstream.",
		"REST-TWO Buses will keep their routes, with stops moved to the detour.",
		"REST-THREE Shops near the bridge fear fewer customers during the works.",
		"REST-FOUR The repairs will cost four million, paid by the state and the town.",
		"REST-FIVE A public meeting about the works is planned for next month."} {
		sb.WriteString(para(s))
	}
	sb.WriteString(`</div></div></div><div class="more">`)
	for _, s := range []string{"TEASER-ONE A school in the north of the town opens a new library.", "TEASER-TWO The local team won its third game in a row on Sunday."} {
		sb.WriteString(`<div class="teaser"><h3><a href="/t">Other story</a></h3>` + para(s) + `</div>`)
	}
	sb.WriteString(`</div></body></html>`)
	return sb.String()
}

func TestKinParagraphs(t *testing.T) {
	for _, c := range []struct {
		name     string
		tune     Tuning
		wantLead bool
	}{
		{"on", Tuning{}, true},
		{"off", Tuning{NoKin: true}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			sg, err := New(Options{Tuning: c.tune})
			if err != nil {
				t.Fatal(err)
			}
			d := sg.Segment(record.Page{URL: "http://example.com/bridge", HTML: splitStoryPage()})
			for _, want := range []string{"REST-ONE", "REST-FIVE"} {
				if !strings.Contains(d.Content, want) {
					t.Errorf("content misses %s:\n%s", want, d.Content)
				}
			}
			for _, lead := range []string{"LEAD-ONE", "LEAD-TWO"} {
				if got := strings.Contains(d.Content, lead); got != c.wantLead {
					t.Errorf("content holds %s: %v, want %v:\n%s", lead, got, c.wantLead, d.Content)
				}
			}
			if c.wantLead && strings.Index(d.Content, "LEAD-TWO") > strings.Index(d.Content, "REST-ONE") {
				t.Errorf("the lead comes after the rest:\n%s", d.Content)
			}
			for _, noise := range []string{"TEASER", "newsletter"} {
				if strings.Contains(d.Content, noise) {
					t.Errorf("content keeps %s:\n%s", noise, d.Content)
				}
			}
		})
	}
}
