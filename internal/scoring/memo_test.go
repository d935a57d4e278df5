package scoring

import (
	"fmt"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

// TestSharedTextsScoreAlike: the similarities of anchors and contexts are
// computed once per distinct text of a page; a link among others that
// share its texts (and texts that are another link's anchor) gets the
// priority it gets alone on the page.
func TestSharedTextsScoreAlike(t *testing.T) {
	m := newTestModel(t, &topic.Profile{Description: "forest tree"})
	links := []record.Link{
		{URL: "http://a/1", Anchor: "home", Context: "forest river walks", Block: 1},
		{URL: "http://a/2", Anchor: "city", Context: "forest river walks", Block: 1},
		{URL: "http://a/3", Anchor: "forest river walks", Context: "tree", Block: 1},
		{URL: "http://a/4", Anchor: "tree", Context: "city", Block: 1},
		{URL: "http://a/5", Anchor: "home", Context: "city", Block: 1},
		{URL: "http://a/6", Anchor: "", Context: "", Block: 1},
	}
	page := func(ls ...record.Link) record.Doc {
		return record.Doc{URL: "http://a/", Tokens: []string{"forest", "city"},
			Blocks: []record.Block{{ID: 1, Kind: record.BlockLinks}}, Links: ls}
	}
	all := scoreOne(t, m, LinksShark, nil, page(links...))
	for i, l := range links {
		alone := scoreOne(t, m, LinksShark, nil, page(l))
		if got, want := all.Links[i].Priority, alone.Links[0].Priority; got != want {
			t.Errorf("link %d: %v among the others, %v alone", i+1, got, want)
		}
	}
	// The anchors differ in similarity, so the test can tell them apart.
	if p := priorities(all); p[0] == p[3] || p[3] == p[5] {
		t.Errorf("priorities %v do not tell the texts apart", p)
	}
}

// TestRuneSetPrefilter: the character set only ever rules out keywords the
// text cannot contain: mayContain is true whenever the text contains the
// term, and false for a term with a character the text lacks.
func TestRuneSetPrefilter(t *testing.T) {
	text := "四川省林业局召开森林抚育会议 forest ー"
	set := newRuneSet(text)
	for _, term := range []string{"林业", "森林抚育", "林业局", "forest", "ー", "四川省林业局召开"} {
		if !set.mayContain(term) {
			t.Errorf("%q: ruled out, but the text contains it", term)
		}
	}
	for _, term := range []string{"造林", "间伐", "林班"} {
		if set.mayContain(term) {
			t.Errorf("%q: not ruled out, but 造, 间 or 班 is not in the text", term)
		}
	}
}

// TestTextSimCache: the remembered similarity is the computed one, before
// and after the memory fills up and starts over, and it stays bounded.
func TestTextSimCache(t *testing.T) {
	m := newTestModel(t, &topic.Profile{Description: "forest tree"})
	texts := []string{"forest", "tree city", "river", "", "forest forest tree"}
	for round := 0; round < 2; round++ {
		for _, s := range texts {
			if got, want := m.TextSim(s), m.ShortSim(m.Text(s)); got != want {
				t.Errorf("round %d, %q: %v, want %v", round, s, got, want)
			}
		}
	}
	for i := 0; i <= textSimCacheSize; i++ {
		m.TextSim(fmt.Sprint("filler ", i))
	}
	if n := len(m.sims.m); n > textSimCacheSize {
		t.Errorf("%d texts remembered, limit %d", n, textSimCacheSize)
	}
	if got, want := m.TextSim("forest"), m.ShortSim(m.Text("forest")); got != want || got == 0 {
		t.Errorf("after the reset: %v, want %v (> 0)", got, want)
	}
	long := strings.Repeat("forest ", textSimMaxLen)
	if got, want := m.TextSim(long), m.ShortSim(m.Text(long)); got != want {
		t.Errorf("long text: %v, want %v", got, want)
	}
	if _, ok := m.sims.m[long]; ok {
		t.Errorf("a text over %d bytes was remembered", textSimMaxLen)
	}
}
