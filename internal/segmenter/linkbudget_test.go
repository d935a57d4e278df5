package segmenter

import (
	"fmt"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// TestLinkBounds: past MaxLinks links are dropped and counted; past
// MaxContextBytes contexts are left out and counted.
func TestLinkBounds(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("<html><body><p>")
	for i := range 50 {
		fmt.Fprintf(&sb, `<a href="/p/%d">link number %d</a> some words between links `, i, i)
	}
	sb.WriteString(`<a href="javascript:void(0)">js</a> <a href="#top">top</a></p></body></html>`)
	page := record.Page{URL: "http://bounds.example/", Status: 200, HTML: sb.String()}

	sg, _ := New(Options{})
	d := sg.Segment(page)
	if len(d.Links) != 50 || d.LinksDropped != 0 || d.ContextsDropped != 0 {
		t.Fatalf("defaults: %d links, %d dropped, %d contexts dropped", len(d.Links), d.LinksDropped, d.ContextsDropped)
	}
	ctx := len(d.Links[0].Context)

	sg, _ = New(Options{MaxLinks: 10, MaxContextBytes: 3*ctx + ctx/2})
	d = sg.Segment(page)
	if len(d.Links) != 10 || d.LinksDropped != 40 {
		t.Errorf("MaxLinks 10: %d links kept, %d dropped; want 10 and 40 (javascript: and # are no links)", len(d.Links), d.LinksDropped)
	}
	if d.Links[9].URL != "http://bounds.example/p/9" {
		t.Errorf("the first links in document order are not the ones kept: last kept %s", d.Links[9].URL)
	}
	with := 0
	total := 0
	for _, l := range d.Links {
		if l.Context != "" {
			with++
			total += len(l.Context)
		}
	}
	if with < 3 || total > 3*ctx+ctx/2 || d.ContextsDropped != 10-with {
		t.Errorf("context budget %d: %d links with context (%d bytes), %d dropped", 3*ctx+ctx/2, with, total, d.ContextsDropped)
	}
}
