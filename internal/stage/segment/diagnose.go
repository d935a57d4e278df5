package segment

import (
	"fmt"
	"io"
	"sort"

	"github.com/focuscrawl/focuscrawl/internal/segmenter"
	"github.com/focuscrawl/focuscrawl/internal/segmenter/eval"
)

// missTally counts, per class of paragraph, the gold tokens the content
// missed (or the noise tokens it kept) and the paragraphs they came from.
type missTally struct {
	tokens map[string]int
	units  map[string]int
	total  int // gold tokens (misses) or extracted tokens (noise)
	// share is the per-page share of the class, summed over pages: its
	// mean is the part of 1 − recall (or 1 − precision) the class costs,
	// the way the eval averages over pages.
	share map[string]float64
	pages int
}

func newTally() *missTally {
	return &missTally{tokens: map[string]int{}, units: map[string]int{}, share: map[string]float64{}}
}

// attribute credits the tokens of bag (the missed gold or the kept noise)
// to the units that hold them, the units made mostly of such tokens
// first; a unit less than half made of them gets nothing (a navigation
// line shares words with any article). What no unit takes is
// "unattributed".
func (t *missTally) attribute(units []segmenter.Unit, kept bool, bag map[string]int, pageTotal int) {
	t.pages++
	t.total += pageTotal
	credit := func(class string, n int) {
		t.tokens[class] += n
		if pageTotal > 0 {
			t.share[class] += float64(n) / float64(pageTotal)
		}
	}
	type cand struct {
		class string
		bag   map[string]int
		share float64
	}
	var cs []cand
	for _, u := range units {
		if u.Kept != kept {
			continue
		}
		b := eval.Tokens(u.Text)
		n, in := 0, 0
		for tok, c := range b {
			n += c
			in += min(c, bag[tok])
		}
		if n == 0 || in*2 < n {
			continue
		}
		class := u.Where + " / " + u.Shape
		if kept {
			class = u.Shape
		}
		cs = append(cs, cand{class, b, float64(in) / float64(n)})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].share > cs[j].share })
	for _, c := range cs {
		got := 0
		for tok, k := range c.bag {
			m := min(k, bag[tok])
			bag[tok] -= m
			got += m
		}
		if got > 0 {
			credit(c.class, got)
			t.units[c.class]++
		}
	}
	rest := 0
	for _, c := range bag {
		rest += c
	}
	if rest > 0 {
		credit("unattributed", rest)
	}
}

// diagnosePage adds one page's missed gold and kept noise to the tallies.
func diagnosePage(miss, noise *missTally, html, content, gold string, tu segmenter.Tuning) {
	units := segmenter.Diagnose(html, tu)
	got, want := eval.Tokens(content), eval.Tokens(gold)
	missed, extra := map[string]int{}, map[string]int{}
	nWant, nGot := 0, 0
	for tok, c := range want {
		nWant += c
		if d := c - got[tok]; d > 0 {
			missed[tok] = d
		}
	}
	for tok, c := range got {
		nGot += c
		if d := c - want[tok]; d > 0 {
			extra[tok] = d
		}
	}
	miss.attribute(units, false, missed, nWant)
	noise.attribute(units, true, extra, nGot)
}

// writeDiagnosis prints one table of the classes of missed gold text and
// one of kept noise, as shares of each set's gold (extracted) tokens.
func writeDiagnosis(w io.Writer, sets []string, miss, noise map[string]*missTally) {
	for _, part := range []struct {
		title string
		tally map[string]*missTally
	}{{"missed gold text: mean per page of the share of gold tokens, % (paragraphs)", miss}, {"kept noise: mean per page of the share of extracted tokens, % (paragraphs)", noise}} {
		fmt.Fprintf(w, "\n%s\n\n| class |", part.title)
		classes := map[string]float64{}
		for _, s := range sets {
			fmt.Fprintf(w, " %s |", s)
			t := part.tally[s]
			for c, v := range t.share {
				classes[c] += v / float64(max(t.pages, 1))
			}
		}
		fmt.Fprint(w, "\n|---|")
		for range sets {
			fmt.Fprint(w, "---|")
		}
		fmt.Fprintln(w)
		names := make([]string, 0, len(classes))
		for c := range classes {
			names = append(names, c)
		}
		sort.Slice(names, func(i, j int) bool { return classes[names[i]] > classes[names[j]] })
		for _, c := range names {
			fmt.Fprintf(w, "| %s |", c)
			for _, s := range sets {
				t := part.tally[s]
				if t.pages == 0 || t.tokens[c] == 0 {
					fmt.Fprint(w, " – |")
					continue
				}
				fmt.Fprintf(w, " %.1f (%d) |", 100*t.share[c]/float64(t.pages), t.units[c])
			}
			fmt.Fprintln(w)
		}
	}
}
