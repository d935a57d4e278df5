package segmenter

import (
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// stepsPage is a how-to page whose intro and steps sit in wrappers of
// their own, far apart in the tree, with a menu and a footer around them.
func stepsPage() string {
	step := func(i int) string {
		return `<div class="outer"><span><span><div class="mod"><h3>Step ` + string(rune('0'+i)) + `</h3><p>Mix the flour with water, stir it for a minute and let the dough rest in a warm place for an hour or two.</p></div></span></span></div>`
	}
	var sb strings.Builder
	sb.WriteString(`<html><head><title>How to bake bread</title></head><body>
<div class="menu"><ul><li><a href="/a">Home</a></li><li><a href="/b">Recipes</a></li><li><a href="/c">Contact us</a></li></ul></div>
<div class="intro"><p>Baking bread at home is simple, cheap and rewarding, and it needs nothing but flour, water, salt and yeast.</p></div>
<div class="steps">`)
	for i := 1; i <= 6; i++ {
		sb.WriteString(`<section>` + step(i) + `</section>`)
	}
	sb.WriteString(`</div><div class="footer"><a href="/p">Privacy</a> <a href="/t">Terms</a></div></body></html>`)
	return sb.String()
}

func TestProseText(t *testing.T) {
	root, _, err := parseHTML(stepsPage())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := build(root)
	got := proseText(body)
	for _, want := range []string{"Baking bread at home", "Step 1", "Step 6", "let the dough rest"} {
		if !strings.Contains(got, want) {
			t.Errorf("prose text misses %q:\n%s", want, got)
		}
	}
	for _, noise := range []string{"Contact us", "Privacy"} {
		if strings.Contains(got, noise) {
			t.Errorf("prose text keeps %q:\n%s", noise, got)
		}
	}
	if n := strings.Count(got, "let the dough rest"); n != 6 {
		t.Errorf("prose text holds %d steps, want 6", n)
	}
}

func TestSecondOpinion(t *testing.T) {
	for _, c := range []struct {
		name  string
		tune  Tuning
		steps int // steps in the content
	}{
		{"off", Tuning{NoFallback: true}, -1},
		{"default", Tuning{}, 6},
		{"first answer not thin", Tuning{FallbackThin: 10}, -1},
		{"second answer not long enough", Tuning{FallbackRatio: 1000}, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			sg, err := New(Options{Tuning: c.tune})
			if err != nil {
				t.Fatal(err)
			}
			off, _ := New(Options{Tuning: Tuning{NoFallback: true}})
			first := strings.Count(off.Segment(record.Page{URL: "http://x.test/", HTML: stepsPage()}).Content, "let the dough rest")
			if first >= 6 {
				t.Fatalf("the first answer already holds %d steps: the page does not test the second opinion", first)
			}
			d := sg.Segment(record.Page{URL: "http://x.test/", HTML: stepsPage()})
			want := c.steps
			if want < 0 {
				want = first
			}
			if got := strings.Count(d.Content, "let the dough rest"); got != want {
				t.Errorf("content holds %d steps, want %d:\n%s", got, want, d.Content)
			}
			st := sg.FallbackStats(false)
			if st.Pages != 1 {
				t.Errorf("stats count %d pages, want 1", st.Pages)
			}
			if taken := st.Taken == 1; taken != (c.steps > 0) {
				t.Errorf("stats: second answer taken %d times", st.Taken)
			}
		})
	}
}

// TestProseTextWithoutProse: a page of a few short lines keeps those that
// are not links, since it has nothing else.
func TestProseTextWithoutProse(t *testing.T) {
	root, _, err := parseHTML(`<html><body><div class="nav"><a href="/">Home</a></div><p>A short note.</p><p><a href="/x">A link line</a></p></body></html>`)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := build(root)
	if got := proseText(body); got != "A short note." {
		t.Errorf("proseText = %q, want %q", got, "A short note.")
	}
}

// TestWeightedUpTo: counting a piece at a time gives weightedText's figure
// under the limit, pieces ending inside a CJK character or a space run
// included, and a figure at or over the limit above it.
func TestWeightedUpTo(t *testing.T) {
	texts := []string{
		"",
		"short text, two clauses; done",
		strings.Repeat("森林抚育提高森林质量。", 200),
		strings.Repeat("a\u3000森 b, ", 300),
		strings.Repeat("x", 511) + "森林" + strings.Repeat(" y", 400),
	}
	for _, s := range texts {
		full := weightedText(s)
		for _, limit := range []float64{1, 100, 750, full, full + 1, 1e9} {
			got := weightedUpTo(s, limit)
			switch {
			case full < limit && got != full:
				t.Errorf("weightedUpTo(%.20q…, %v) = %v, want %v", s, limit, got, full)
			case full >= limit && got < limit:
				t.Errorf("weightedUpTo(%.20q…, %v) = %v, under the limit though the text weighs %v", s, limit, got, full)
			}
		}
	}
}
