package scoring

import (
	"context"
	"fmt"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

func TestParseStrategy(t *testing.T) {
	for _, tc := range []struct {
		in    string
		base  string
		learn bool
		bad   bool
	}{
		{"shark", "shark", false, false},
		{"shark+learned", "shark", true, false},
		{"block-shark+learned", "block-shark", true, false},
		{"learned", "learned", true, false},
		{"learned+learned", "", false, true},
		{"ipagerank+learned", "", false, true},
		{"nope+learned", "", false, true},
		{"nope", "", false, true},
	} {
		base, learn, err := ParseStrategy(tc.in)
		if (err != nil) != tc.bad || base != tc.base || learn != tc.learn {
			t.Errorf("ParseStrategy(%q) = %q, %v, %v", tc.in, base, learn, err)
		}
	}
}

// learnDocs is a small crawl of one site where the pages under /b/ are on
// topic and those under /a/ are not, though their links look alike: each
// doc links to two new pages in each directory with the same anchors.
func learnDocs() []record.Doc {
	var docs []record.Doc
	for i := range 30 {
		dir, content := "a", "city river city"
		if i%2 == 1 {
			dir, content = "b", "forest tree forest"
		}
		d := record.Doc{URL: fmt.Sprintf("http://s.cn/%s/p%d.html", dir, i), Title: "page", Content: content,
			Tokens: []string{}, Blocks: []record.Block{{ID: 1, Kind: record.BlockLinks}}}
		for _, c := range []string{"a", "b"} {
			for k := range 2 {
				d.Links = append(d.Links, record.Link{URL: fmt.Sprintf("http://s.cn/%s/p%d.html", c, 100+4*i+k),
					Anchor: "more pages", Context: "see also more pages", Block: 1})
			}
		}
		if i > 0 {
			d.Parent = fmt.Sprintf("http://s.cn/%s/p%d.html", map[bool]string{true: "a", false: "b"}[i%2 == 0], i-1)
			d.Anchor = "more pages"
		}
		d.Tokens = fields{}.Tokens(d.Content)
		docs = append(docs, d)
	}
	// Each doc (but the first) was reached by a link of the one before.
	for i := 1; i < len(docs); i++ {
		prev := &docs[i-1]
		prev.Links = append(prev.Links, record.Link{URL: docs[i].URL, Anchor: "more pages", Context: "see also more pages", Block: 1})
	}
	return docs
}

func scoreAll(t *testing.T, strategy string, docs []record.Doc) [][]record.ScoredLink {
	t.Helper()
	m := newTestModel(t, &topic.Profile{Description: "forest tree"})
	cfg := Config{Page: DefaultPageOptions(), Links: DefaultLinkOptions()}
	cfg.Links.Strategy = strategy
	cfg.Page.SimScale = 0
	sc := newScorer(t, m, cfg, nil)
	var out [][]record.ScoredLink
	for i := range docs {
		d := docs[i]
		sd, err := sc.Score(context.Background(), &d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sd.Links)
	}
	return out
}

func TestLearnedDeterministic(t *testing.T) {
	a := scoreAll(t, "shark+learned", learnDocs())
	b := scoreAll(t, "shark+learned", learnDocs())
	for i := range a {
		for j := range a[i] {
			if a[i][j].Priority != b[i][j].Priority {
				t.Fatalf("doc %d link %d: %v then %v", i, j, a[i][j].Priority, b[i][j].Priority)
			}
		}
	}
}

func TestLearnedColdStartIsBase(t *testing.T) {
	docs := learnDocs()
	for _, base := range []string{LinksShark, LinksBlockShark, LinksHeuristic, LinksBestFirst} {
		plain := scoreAll(t, base, docs[:1])
		learned := scoreAll(t, base+learnSuffix, docs[:1])
		for j := range plain[0] {
			if plain[0][j].Priority != learned[0][j].Priority || plain[0][j].Pruned != learned[0][j].Pruned {
				t.Errorf("%s: cold start link %d: %v, base %v", base, j, learned[0][j], plain[0][j])
			}
		}
	}
	alone := scoreAll(t, LinksLearned, docs[:1])
	for j, l := range alone[0] {
		if l.Priority != 0.5 {
			t.Errorf("learned alone, cold start link %d: priority %v, want 0.5", j, l.Priority)
		}
	}
}

func TestLearnedSeparatesDirectories(t *testing.T) {
	for _, strategy := range []string{"shark+learned", "learned"} {
		out := scoreAll(t, strategy, learnDocs())
		last := out[len(out)-1]
		// Links 0,1 lead to /a/, 2,3 to /b/ with the same anchor and context.
		a, b := last[0].Priority, last[2].Priority
		if !(b > a+0.05) {
			t.Errorf("%s: after the crawl, /b/ link %v, /a/ link %v: want /b/ clearly above", strategy, b, a)
		}
		plain := scoreAll(t, "shark", learnDocs())
		if pa, pb := plain[len(plain)-1][0].Priority, plain[len(plain)-1][2].Priority; pa != pb {
			t.Fatalf("shark alone tells the links apart (%v, %v): the test shows nothing", pa, pb)
		}
	}
}

// replayStore is a Store that replays a crawl.
type replayStore struct{ pages []record.Replay }

func (replayStore) PageScores(context.Context, []string) (map[string]float64, error) {
	return map[string]float64{}, nil
}
func (replayStore) Edges(context.Context, func(record.Edge) error) error { return nil }
func (r replayStore) Replay(_ context.Context, fn func(record.Replay) error) error {
	for _, p := range r.pages {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

func TestLearnedReplay(t *testing.T) {
	var pages []record.Replay
	for i := range 20 {
		pages = append(pages, record.Replay{URL: fmt.Sprintf("http://s.cn/b/x%d.html", i), Parent: "http://s.cn/", Score: 0.9},
			record.Replay{URL: fmt.Sprintf("http://s.cn/a/x%d.html", i), Parent: "http://s.cn/", Score: 0})
	}
	m := newTestModel(t, &topic.Profile{Description: "forest tree"})
	cfg := Config{Page: DefaultPageOptions(), Links: DefaultLinkOptions()}
	cfg.Links.Strategy = LinksShark + learnSuffix
	sc := newScorer(t, m, cfg, replayStore{pages})
	n, err := sc.ReplayCrawl(context.Background())
	if err != nil || n != 40 {
		t.Fatalf("replayed %d, %v; want 40", n, err)
	}
	d := record.Doc{URL: "http://s.cn/", Content: "city", Tokens: []string{"city"}, Links: []record.Link{
		{URL: "http://s.cn/a/y.html", Anchor: "next"}, {URL: "http://s.cn/b/y.html", Anchor: "next"}}}
	sd, err := sc.Score(context.Background(), &d)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := sd.Links[0].Priority, sd.Links[1].Priority; !(b > a) {
		t.Errorf("after replay /b/ %v, /a/ %v: want /b/ above", b, a)
	}
}
