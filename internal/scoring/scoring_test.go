package scoring

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/topic"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// fields is a test tokenizer: lower-cased words split on white space.
type fields struct{}

func (fields) Tokens(s string) []string { return strings.Fields(strings.ToLower(s)) }

// testIDF: forest 2, everything else 1.
func testIDF() *vsm.IDF {
	return vsm.NewIDF(map[string]float64{"forest": 2, "tree": 1, "city": 1, "river": 1}, 0, 1, 1)
}

func newTestModel(t *testing.T, p *topic.Profile) *Model {
	t.Helper()
	if p.Thresholds == (topic.Thresholds{}) {
		p.Thresholds = topic.Thresholds{Page: 0.5, Link: 0.2}
	}
	m, err := NewModel(p, fields{}, testIDF())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func TestNoTopicText(t *testing.T) {
	_, err := NewModel(&topic.Profile{Name: "x"}, fields{}, testIDF())
	if !errors.Is(err, ErrNoTopicText) {
		t.Fatalf("err = %v", err)
	}
}

func TestPageMethods(t *testing.T) {
	// Topic "forest tree": vector (forest 2, tree 1), unit (2,1)/√5.
	// Doc "forest city": (forest 2, city 1).
	rule := topic.Rule{Name: "price", Weight: 0.25, Any: []*regexp.Regexp{regexp.MustCompile(`price \d+`)}}
	rule2 := topic.Rule{Name: "isbn", Weight: 0.75, All: []*regexp.Regexp{regexp.MustCompile(`isbn`)}}
	m := newTestModel(t, &topic.Profile{Description: "forest tree", Rules: []topic.Rule{rule, rule2}})
	doc := &record.Doc{URL: "http://a/", Title: "forest", Content: "city price 12", Tokens: []string{"forest", "city"}}
	vec := m.DocVector(doc)
	tests := []struct {
		method string
		want   float64
	}{
		// cos = (2·2)/(√5·√5) = 0.8; no keywords, so no cover blend.
		{PageVSM, 0.8},
		// Pearson over the IDF table's vocabulary (city, forest, river,
		// tree): doc (1,2,0,0), topic (0,2,0,1)/√5 — scale does not
		// matter, use (0,2,0,1). n=4, Σx=3, Σy=3, Σxy=4, Σx²=5, Σy²=5:
		// r = (4·4−9)/√((20−9)(20−9)) = 7/11.
		{PagePearson, 7.0 / 11},
		// "price 12" matches rule price (0.25); no isbn: F = 0.25.
		{PageRules, 0.25},
		// combo vsm=0.5,rules=0.5: (0.8+0.25)/2 = 0.525.
		{PageCombo, 0.525},
	}
	for _, tc := range tests {
		t.Run(tc.method, func(t *testing.T) {
			o := DefaultPageOptions()
			o.Method, o.SimScale = tc.method, 0
			got, scores := m.PageScore(doc, vec, o)
			if !near(got, tc.want) {
				t.Errorf("score = %v, want %v (scores %v)", got, tc.want, scores)
			}
			if _, ok := scores[tc.method]; !ok {
				t.Errorf("scores lacks %s: %v", tc.method, scores)
			}
		})
	}
}

func TestDocWithoutTokensIsTokenized(t *testing.T) {
	m := newTestModel(t, &topic.Profile{Description: "forest tree"})
	d := &record.Doc{Title: "Forest", Content: "city"}
	// Title + content: forest, city → the same 0.8 as the tokenised doc.
	o := DefaultPageOptions()
	o.SimScale = 0
	if got, _ := m.PageScore(d, m.DocVector(d), o); !near(got, 0.8) {
		t.Errorf("score = %v, want 0.8", got)
	}
}

func TestSimScale(t *testing.T) {
	m := newTestModel(t, &topic.Profile{Description: "forest tree"})
	d := &record.Doc{Tokens: []string{"forest", "city"}}
	// cos = 0.8 (TestPageMethods); τ = 0.4: 1 − e^(−0.8/0.4) = 1 − e^−2.
	o := DefaultPageOptions()
	o.SimScale = 0.4
	if got, _ := m.PageScore(d, m.DocVector(d), o); !near(got, 1-math.Exp(-2)) {
		t.Errorf("calibrated = %v, want %v", got, 1-math.Exp(-2))
	}
}

func TestCJKKeywordInText(t *testing.T) {
	// The tokens hold 林业局, not 林业: the keyword counts from the text.
	m := newTestModel(t, &topic.Profile{Description: "森林", Keywords: []topic.Keyword{{Term: "林业", Weight: 1}, {Term: "森林", Weight: 1}}})
	page := m.IDF.Vector([]string{"林业局"})
	if got := m.keywordCover(page, "四川省林业局", 1); !near(got, 0.5) {
		t.Errorf("cover = %v, want 0.5", got)
	}
	if got := m.KeywordCover(page, 1); got != 0 {
		t.Errorf("cover without text = %v, want 0", got)
	}
}

func TestKeywordCover(t *testing.T) {
	// Keywords forest 3, river 1 (total 4). Topic vector: unit desc (2,1)/√5
	// over (forest, tree) + unit keywords (forest 2, river 1)/√5.
	// A doc with forest only holds 3/4 of the weight; with cover 0.5 that
	// saturates: K = min(1, 0.75/0.5) = 1.
	m := newTestModel(t, &topic.Profile{Description: "forest tree", Keywords: []topic.Keyword{{Term: "forest", Weight: 3}, {Term: "river", Weight: 1}}})
	page := m.IDF.Vector([]string{"forest", "city"})
	if got := m.KeywordCover(page, 0.5); got != 1 {
		t.Errorf("cover = %v, want 1", got)
	}
	// With river only: 1/4 / 0.5 = 0.5.
	if got := m.KeywordCover(m.IDF.Vector([]string{"river"}), 0.5); !near(got, 0.5) {
		t.Errorf("cover river = %v, want 0.5", got)
	}
}

func TestRaisingKeywordWeightNeverLowersScore(t *testing.T) {
	docs := [][]string{
		{"river"}, {"river", "city", "city"}, {"forest", "river"}, {"river", "tree", "forest", "city"},
	}
	for _, method := range []string{PageVSM, PagePearson, PageCombo} {
		for _, toks := range docs {
			prev := -1.0
			for _, w := range []float64{0.01, 0.1, 0.5, 1, 2, 5, 50, 1000} {
				m := newTestModel(t, &topic.Profile{Description: "forest tree city", Keywords: []topic.Keyword{{Term: "forest", Weight: 1}, {Term: "river", Weight: w}}})
				o := DefaultPageOptions()
				o.Method = method
				o.Combo = map[string]float64{PageVSM: 1, PagePearson: 1}
				d := &record.Doc{Tokens: toks}
				got, _ := m.PageScore(d, m.DocVector(d), o)
				if got < prev-1e-12 {
					t.Errorf("%s %v: weight %v lowered the score %v → %v", method, toks, w, prev, got)
				}
				prev = got
			}
		}
	}
}

// sharkDoc: a relevant page (score 0.8 under "forest tree") with three
// links: two in a links block, one in a nav block.
func sharkDoc() record.Doc {
	return record.Doc{
		URL: "http://a/", Tokens: []string{"forest", "city"}, Lineage: record.Lineage{Depth: 2},
		Blocks: []record.Block{{ID: 1, Kind: record.BlockLinks}, {ID: 2, Kind: record.BlockNav}},
		Links: []record.Link{
			{URL: "http://a/1", Anchor: "forest", Block: 1},
			{URL: "http://a/2", Anchor: "city", Context: "tree here", Block: 1},
			{URL: "http://a/3", Anchor: "home", Block: 2},
		},
	}
}

func scoreOne(t *testing.T, m *Model, strategy string, store Store, d record.Doc) record.ScoredDoc {
	t.Helper()
	cfg := Config{Page: DefaultPageOptions(), Links: DefaultLinkOptions()}
	cfg.Links.Strategy = strategy
	cfg.Page.SimScale = 0 // the hand derivations use the raw cosine
	sd, err := newScorer(t, m, cfg, store).Score(context.Background(), &d)
	if err != nil {
		t.Fatal(err)
	}
	return sd
}

func priorities(sd record.ScoredDoc) []float64 {
	var p []float64
	for _, l := range sd.Links {
		p = append(p, l.Priority)
	}
	return p
}

// mapStore is a Store over fixed scores and edges.
type mapStore struct {
	scores map[string]float64
	edges  []record.Edge
}

func (s mapStore) PageScores(_ context.Context, urls []string) (map[string]float64, error) {
	out := map[string]float64{}
	for _, u := range urls {
		if v, ok := s.scores[u]; ok {
			out[u] = v
		}
	}
	return out, nil
}

func (s mapStore) Edges(_ context.Context, fn func(record.Edge) error) error {
	for _, e := range s.edges {
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// odds is p with its odds multiplied by f, worked out apart from the code.
func odds(p, f float64) float64 {
	o := p / (1 - p) * f
	return o / (1 + o)
}

func TestLinkStrategies(t *testing.T) {
	m := newTestModel(t, &topic.Profile{Description: "forest tree"})
	// Hand derivation, topic unit (2,1)/√5 over (forest, tree), its peak
	// 2/√5; page score 0.8 ≥ 0.5 so the page is relevant.
	//   inherited = δ·0.8 = 0.4
	//   link 1 "forest": cos 2/√5, ShortSim = 1; context = 1;
	//     neighbourhood = 1; potential = 0.5·0.4 + 0.5·1 = 0.7
	//   link 2 "city": anchor 0; context "tree here" = (1,1)/√2:
	//     cos = 1/√10, ShortSim = (1/√10)/(2/√5) = 1/(2√2);
	//     potential = 0.2 + 0.5·0.2/(2√2)
	//   link 3 "home": anchor 0, no context: potential 0.2
	p2 := 0.2 + 0.5*0.2/(2*math.Sqrt2)
	tests := []struct {
		strategy string
		store    Store
		want     []float64
	}{
		// depth 2 → children at depth 3: 1/(3+1).
		{LinksBFS, nil, []float64{0.25, 0.25, 0.25}},
		{LinksBestFirst, nil, []float64{0.8, 0.8, 0.8}},
		{LinksShark, nil, []float64{0.7, p2, 0.2}},
		// The modulated form. λ: block 1 LB = (1+0)/2 = 0.5; block 2
		// (nav) 0. Mean λ over the three links = 1/3, so block 1's factor
		// is 1 − θ + θ·0.5/(1/3) = 1.25 and block 2's 0.5. Nothing crawled:
		// the share's factor is 1.
		// The factors scale the potential's odds: p·f/(p·f + 1 − p).
		{LinksBlockShark, nil, []float64{odds(0.7, 1.25), odds(p2, 1.25), odds(0.2, 0.5)}},
		// Link 2 crawled with score 0.9 (relevant): block 1 λ = 0.5·0.5 +
		// 0.5·0.9 = 0.7, mean 1.4/3, factor again 1.25; s̃ = (1 + 4·0.5)/
		// (1 + 4) = 0.6, the share's factor 0.5 + 0.5·0.6/0.5 = 1.1.
		{LinksBlockShark, mapStore{scores: map[string]float64{"http://a/2": 0.9}},
			[]float64{odds(0.7, 1.25*1.1), odds(p2, 1.25*1.1), odds(0.2, 0.5*1.1)}},
	}
	for _, tc := range tests {
		t.Run(tc.strategy, func(t *testing.T) {
			sd := scoreOne(t, m, tc.strategy, tc.store, sharkDoc())
			got := priorities(sd)
			if len(got) != len(tc.want) {
				t.Fatalf("priorities %v", got)
			}
			for i := range got {
				if !near(got[i], tc.want[i]) {
					t.Errorf("link %d: %v, want %v", i+1, got[i], tc.want[i])
				}
			}
			if !near(sd.Score, 0.8) || !sd.Relevant {
				t.Errorf("page score %v relevant %v", sd.Score, sd.Relevant)
			}
			if tc.strategy == LinksShark && !near(sd.Links[0].Inherited, 0.4) {
				t.Errorf("inherited %v, want 0.4", sd.Links[0].Inherited)
			}
		})
	}
}

func TestHeuristic(t *testing.T) {
	m := newTestModel(t, &topic.Profile{Description: "forest", Keywords: []topic.Keyword{{Term: "forest", Weight: 1}},
		Synonyms: map[string]float64{"woods": 0.9, "grove": 0.4}})
	d := record.Doc{URL: "http://x/", Title: "Forest news", Tokens: []string{"forest"}, Links: []record.Link{
		// UH 1 (woods in the URL), TeH 0, TiH 1 (forest in the title),
		// RW = max Θ over URL, anchor, context = Θ(woods) = 0.9:
		// 0.2 + 0.1 + 0.4·0.9 = 0.66.
		{URL: "http://x/woods/1", Anchor: "city"},
		// UH 0, TeH 1 (grove), TiH 1, RW: Θ(grove) = 0.4 < c = 0.5 → 0:
		// 0.3 + 0.1 = 0.4.
		{URL: "http://x/a", Anchor: "grove"},
		// Forest in the context: RW 1; nothing else but TiH: 0.1 + 0.4.
		{URL: "http://x/b", Anchor: "more", Context: "about the forest"},
	}}
	want := []float64{0.66, 0.4, 0.5}
	got := priorities(scoreOne(t, m, LinksHeuristic, nil, d))
	for i := range want {
		if !near(got[i], want[i]) {
			t.Errorf("title on topic: priorities %v, want %v", got, want)
		}
	}
	// An off-topic title drops TiH's 0.1 from every link.
	d.Title = "news"
	want = []float64{0.56, 0.3, 0.4}
	got = priorities(scoreOne(t, m, LinksHeuristic, nil, d))
	for i := range want {
		if !near(got[i], want[i]) {
			t.Errorf("title off topic: priorities %v, want %v", got, want)
		}
	}
}

func TestPruneAndErrors(t *testing.T) {
	m := newTestModel(t, &topic.Profile{Description: "forest tree", Thresholds: topic.Thresholds{Page: 0.5, Link: 0.22}})
	// shark: 0.7, 0.235…, 0.2 → the last is under 0.22.
	sd := scoreOne(t, m, LinksShark, nil, sharkDoc())
	if sd.Links[0].Pruned || sd.Links[1].Pruned || !sd.Links[2].Pruned {
		t.Errorf("pruned flags %+v", sd.Links)
	}
	cfg := Config{Page: DefaultPageOptions(), Links: DefaultLinkOptions(), DropPruned: true}
	cfg.Links.Strategy, cfg.Page.SimScale = LinksShark, 0
	d := sharkDoc()
	sd, _ = newScorer(t, m, cfg, nil).Score(context.Background(), &d)
	if len(sd.Links) != 2 {
		t.Errorf("--drop-pruned kept %d links", len(sd.Links))
	}
	// A doc with an error passes through with score 0.
	d = sharkDoc()
	d.Error = "fetch: timeout"
	sd = scoreOne(t, m, LinksShark, nil, d)
	if sd.Score != 0 || sd.Relevant || sd.Error != "fetch: timeout" || len(sd.Links) != 3 || sd.Links[0].Priority != 0 {
		t.Errorf("error doc: %+v", sd)
	}
}

func TestIPageRankHand(t *testing.T) {
	// A→B (3), A→C (1), B→A (1), d = 0.85:
	//   A = 0.15 + 0.85·B;  B = 0.15 + 0.85·(3/4)·A;  C = 0.15 + 0.85·(1/4)·A
	//   ⇒ A = (0.15 + 0.85·0.15) / (1 − 0.85·0.6375)
	g := NewGraph()
	g.AddEdge("A", "B", 3)
	g.AddEdge("A", "C", 1)
	g.AddEdge("B", "A", 1)
	a := (0.15 + 0.85*0.15) / (1 - 0.85*0.6375)
	want := []float64{a, 0.15 + 0.6375*a, 0.15 + 0.2125*a}
	for _, start := range [][]float64{nil, {0, 0, 0}, {10, 0.5, 3}} {
		got, iters := IPageRank(g, 0.85, 1e-12, 1000, start)
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-9 {
				t.Errorf("start %v: IPR[%s] = %v, want %v (%d rounds)", start, g.URLs[i], got[i], want[i], iters)
			}
		}
	}
}

func TestLinkModelHand(t *testing.T) {
	idf := testIDF()
	// Seed: "forest" (+1). Candidates: c0 "forest", c1 "forest city",
	// c2 "city river"; negative seed "city river".
	seeds := []vsm.Vector{idf.Vector([]string{"forest"}), idf.Vector([]string{"city", "river"})}
	cands := []vsm.Vector{idf.Vector([]string{"forest"}), idf.Vector([]string{"forest", "city"}), idf.Vector([]string{"city", "river"})}
	lm := NewLinkModel(cands, seeds, []float64{1, -1}, 0.68, 10, 100)
	// Row 0: U = (1, 0), V = (c0·c1 = 2/√5, c0·c2 = 0) → sum 1 + 2/√5.
	s0 := 1 + 2/math.Sqrt(5)
	if !near(lm.U[0][0], 1/s0) || !near(lm.VVals[0][0], (2/math.Sqrt(5))/s0) || len(lm.VCols[0]) != 1 {
		t.Errorf("row 0: U %v V %v %v", lm.U[0], lm.VCols[0], lm.VVals[0])
	}
	// Row 1: U = (2/√5, 1/√10), V to c0 2/√5 and to c2 1/√10.
	s1 := 2*2/math.Sqrt(5) + 2/math.Sqrt(10)
	if !near(lm.U[1][0], (2/math.Sqrt(5))/s1) || !near(lm.U[1][1], (1/math.Sqrt(10))/s1) {
		t.Errorf("row 1: U %v (row sum %v)", lm.U[1], s1)
	}
	var first []float64
	for _, start := range [][]float64{nil, {1, 1, 1}, {-5, 3, 9}} {
		x, iters := lm.Solve(start, 1e-12, 1000)
		if x[0] <= 0 || x[2] >= 0 || !(x[0] > x[1]) {
			t.Errorf("start %v: x = %v", start, x)
		}
		if first == nil {
			first = x
			continue
		}
		for i := range x {
			if math.Abs(x[i]-first[i]) > 1e-9 {
				t.Errorf("start %v: x = %v, first %v (%d rounds)", start, x, first, iters)
			}
		}
	}
}

func TestGraphStrategiesBatch(t *testing.T) {
	m := newTestModel(t, &topic.Profile{Description: "forest tree", Keywords: []topic.Keyword{{Term: "forest", Weight: 1}},
		Examples: topic.Examples{Items: []topic.Example{{Positive: true, Text: "forest tree river"}, {Positive: false, Text: "city shop"}}}})
	docs := []record.Doc{
		{URL: "http://a/", Tokens: []string{"forest", "tree"}, Links: []record.Link{
			{URL: "http://a/f", Anchor: "forest trees"}, {URL: "http://a/c", Anchor: "city shop"}}},
		{URL: "http://a/f", Tokens: []string{"forest"}, Links: []record.Link{{URL: "http://a/g", Anchor: "forest river"}, {URL: "http://a/", Anchor: "home"}}},
		{URL: "http://a/c", Error: "404"},
	}
	for _, strategy := range []string{LinksIPageRank, LinksLinkModel, LinksSkyReach} {
		t.Run(strategy, func(t *testing.T) {
			cfg := Config{Page: DefaultPageOptions(), Links: DefaultLinkOptions()}
			cfg.Links.Strategy = strategy
			sc := newScorer(t, m, cfg, nil)
			if _, err := sc.Score(context.Background(), &docs[0]); err == nil {
				t.Error("Score with a graph strategy: want an error")
			}
			out, err := sc.ScoreBatch(context.Background(), docs)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) != 3 || out[2].Error != "404" || out[2].Score != 0 {
				t.Fatalf("out %+v", out)
			}
			// The forest link outranks the city link.
			if !(out[0].Links[0].Priority > out[0].Links[1].Priority) {
				t.Errorf("priorities %v", priorities(out[0]))
			}
			for _, sd := range out {
				for _, l := range sd.Links {
					if l.Priority < 0 || l.Priority > 1 {
						t.Errorf("priority %v out of range", l.Priority)
					}
				}
			}
		})
	}
}

func TestScoresInRange(t *testing.T) {
	words := []string{"forest", "tree", "city", "river", "shop", "home", "news"}
	m := newTestModel(t, &topic.Profile{Description: "forest tree river", Keywords: []topic.Keyword{{Term: "forest", Weight: 2}, {Term: "shop", Weight: 0.5}},
		Synonyms: map[string]float64{"woods": 1}})
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(n int) string {
		var b []string
		for range n {
			b = append(b, words[r.IntN(len(words))])
		}
		return strings.Join(b, " ")
	}
	var docs []record.Doc
	for i := range 40 {
		d := record.Doc{URL: "http://s/" + pick(1) + "/" + string(rune('a'+i)), Title: pick(2), Content: pick(20), Lineage: record.Lineage{Depth: r.IntN(5), Inherited: r.Float64()}}
		for j := range 6 {
			d.Links = append(d.Links, record.Link{URL: "http://s/" + pick(1) + "/" + string(rune('a'+(i+j)%40)), Anchor: pick(r.IntN(4)), Context: pick(5), Block: r.IntN(3)})
		}
		docs = append(docs, d)
	}
	for _, method := range PageMethods {
		for _, strategy := range StrategyNames() {
			cfg := Config{Page: DefaultPageOptions(), Links: DefaultLinkOptions()}
			cfg.Page.Method, cfg.Links.Strategy = method, strategy
			out, err := newScorer(t, m, cfg, nil).ScoreBatch(context.Background(), docs)
			if err != nil {
				t.Fatal(err)
			}
			for _, sd := range out {
				if sd.Score < 0 || sd.Score > 1 {
					t.Errorf("%s/%s: score %v", method, strategy, sd.Score)
				}
				for _, v := range sd.Scores {
					if v < 0 || v > 1 {
						t.Errorf("%s/%s: scores %v", method, strategy, sd.Scores)
					}
				}
				for _, l := range sd.Links {
					if l.Priority < 0 || l.Priority > 1 || math.IsNaN(l.Priority) {
						t.Errorf("%s/%s: priority %v", method, strategy, l.Priority)
					}
				}
			}
		}
	}
}

func TestBlockSharkOptions(t *testing.T) {
	m := newTestModel(t, &topic.Profile{Description: "forest tree"})
	p2 := 0.2 + 0.5*0.2/(2*math.Sqrt2) // link 2's potential (TestLinkStrategies)
	run := func(store Store) []float64 {
		cfg := Config{Page: DefaultPageOptions(), Links: DefaultLinkOptions()}
		cfg.Page.SimScale = 0
		o := DefaultBlockSharkOptions()
		o.Form, o.BlockNorm, o.SharePrior, o.SharePseudo = BlockSharkAdditive, true, -1, 1
		cfg.Links = LinkOptions{Strategy: LinksBlockShark, Options: &o}
		d := sharkDoc()
		sd, err := newScorer(t, m, cfg, store).Score(context.Background(), &d)
		if err != nil {
			t.Fatal(err)
		}
		return priorities(sd)
	}
	check := func(name string, got, want []float64) {
		for i := range want {
			if !near(got[i], want[i]) {
				t.Errorf("%s: priorities %v, want %v", name, got, want)
				return
			}
		}
	}
	// λ: block 1 0.5, block 2 (nav) 0 → normalised 1 and 0. No child
	// crawled: n′/n = the page's score 0.8.
	//   link 1 = 0.5·1·0.7 + 0.5·0.8; link 2 = 0.5·p2 + 0.4; link 3 = 0.4
	check("nothing crawled", run(nil), []float64{0.35 + 0.4, 0.5*p2 + 0.4, 0.4})
	// Link 2 crawled, score 0.9 (relevant): n′/n = (1 + 1·0.8)/(1 + 1) =
	// 0.9; block 1 λ = 0.5·0.5 + 0.5·0.9 = 0.7, normalised to 1.
	check("one crawled", run(mapStore{scores: map[string]float64{"http://a/2": 0.9}}),
		[]float64{0.35 + 0.45, 0.5*p2 + 0.45, 0.45})
}

// TestBlockSharkAdditive checks the additive form with the
// reconstruction's defaults, θ·λ·potential + (1−θ)·n′/n.
func TestBlockSharkAdditive(t *testing.T) {
	m := newTestModel(t, &topic.Profile{Description: "forest tree"})
	p2 := 0.2 + 0.5*0.2/(2*math.Sqrt2) // link 2's potential (TestLinkStrategies)
	run := func(store Store) []float64 {
		cfg := Config{Page: DefaultPageOptions(), Links: DefaultLinkOptions()}
		cfg.Page.SimScale = 0
		o := DefaultBlockSharkOptions()
		o.Form, o.SharePseudo = BlockSharkAdditive, DefaultSharePseudo(BlockSharkAdditive)
		cfg.Links = LinkOptions{Strategy: LinksBlockShark, Options: &o}
		d := sharkDoc()
		sd, err := newScorer(t, m, cfg, store).Score(context.Background(), &d)
		if err != nil {
			t.Fatal(err)
		}
		return priorities(sd)
	}
	tests := []struct {
		name  string
		store Store
		want  []float64
	}{
		// block 1: LB = (1+0)/2 = 0.5 = λ; nothing crawled: n′/n = 0.5.
		//   link 1 = 0.5·0.5·0.7 + 0.5·0.5; link 2 = 0.5·0.5·p2 + 0.25
		// block 2 (nav): LB = 0 → 0.25.
		{"nothing crawled", nil, []float64{0.5*0.5*0.7 + 0.25, 0.5*0.5*p2 + 0.25, 0.25}},
		// Link 2 crawled with score 0.9 (relevant): block 1 λ = 0.5·0.5 +
		// 0.5·0.9 = 0.7; n′/n = 1/1.
		{"one crawled", mapStore{scores: map[string]float64{"http://a/2": 0.9}},
			[]float64{0.5*0.7*0.7 + 0.5, 0.5*0.7*p2 + 0.5, 0.5}},
	}
	for _, tc := range tests {
		got := run(tc.store)
		for i := range tc.want {
			if !near(got[i], tc.want[i]) {
				t.Errorf("%s: priorities %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
}

func TestIPageRankInterest(t *testing.T) {
	// A→B, A→C (weights 1), A passes on half its rank, d = 0.85:
	//   A = 0.15 (no in-links); B = C = 0.15 + 0.85·0.15·0.5·(1/2).
	// B→A with interest 0: A stays 0.15.
	g := NewGraph()
	g.AddEdge("A", "B", 1)
	g.AddEdge("A", "C", 1)
	g.AddEdge("B", "A", 1)
	g.SetInterest("A", 0.5)
	g.SetInterest("B", 0)
	got, _ := IPageRank(g, 0.85, 1e-12, 1000, nil)
	bc := 0.15 + 0.85*0.15*0.5*0.5
	for i, want := range []float64{0.15, bc, bc} {
		if math.Abs(got[i]-want) > 1e-9 {
			t.Errorf("IPR[%s] = %v, want %v", g.URLs[i], got[i], want)
		}
	}
}

// TestSkyReachCombines checks that skyreach is the weighted mean of the
// heuristic strategy's priority and ipagerank's: with one weight at 0 it
// is the other strategy exactly, and with both the mean of the two.
func TestSkyReachCombines(t *testing.T) {
	m := newTestModel(t, &topic.Profile{Description: "forest tree", Keywords: []topic.Keyword{{Term: "forest", Weight: 1}}})
	docs := func() []record.Doc {
		return []record.Doc{
			{URL: "http://a/", Title: "forest", Tokens: []string{"forest", "tree"}, Links: []record.Link{
				{URL: "http://a/forest", Anchor: "forest trees"}, {URL: "http://a/c", Anchor: "city shop"}}},
			{URL: "http://a/forest", Tokens: []string{"forest"}, Links: []record.Link{{URL: "http://a/g", Anchor: "river"}, {URL: "http://a/c", Anchor: "shop"}}},
			{URL: "http://a/c", Tokens: []string{"city"}, Links: []record.Link{{URL: "http://a/h", Anchor: "city"}}},
		}
	}
	run := func(strategy string, w map[string]float64) [][]float64 {
		cfg := Config{Page: DefaultPageOptions(), Links: DefaultLinkOptions()}
		cfg.Links.Strategy = strategy
		if w != nil {
			o := DefaultSkyReachOptions()
			o.Weights = w
			cfg.Links.Options = &o
		}
		out, err := newScorer(t, m, cfg, nil).ScoreBatch(context.Background(), docs())
		if err != nil {
			t.Fatal(err)
		}
		var p [][]float64
		for _, sd := range out {
			p = append(p, priorities(sd))
		}
		return p
	}
	heur, ipr := run(LinksHeuristic, nil), run(LinksIPageRank, nil)
	onlyH := run(LinksSkyReach, map[string]float64{"h": 1, "ipr": 0})
	onlyI := run(LinksSkyReach, map[string]float64{"h": 0, "ipr": 2})
	both := run(LinksSkyReach, map[string]float64{"h": 1, "ipr": 1})
	for d := range heur {
		for l := range heur[d] {
			if !near(onlyH[d][l], heur[d][l]) || !near(onlyI[d][l], ipr[d][l]) || !near(both[d][l], (heur[d][l]+ipr[d][l])/2) {
				t.Errorf("doc %d link %d: skyreach h %v ipr %v both %v; heuristic %v ipagerank %v",
					d, l, onlyH[d][l], onlyI[d][l], both[d][l], heur[d][l], ipr[d][l])
			}
		}
	}
	// The city page is off topic: its link gets less rank than the forest page's.
	if !(ipr[1][0] > ipr[2][0]) {
		t.Errorf("ipagerank: link from the forest page %v, from the city page %v", ipr[1][0], ipr[2][0])
	}
}

// TestLinkModelWindows scores a crawl in two windows: the second adds
// fewer candidates than a rebuild needs, so its new targets are folded
// into the first window's model. Links to forest pages must still
// outrank links to city pages, and the calibrated priorities must spread
// over more than the 0.5 ± 0.05 that the uncalibrated x gave.
func TestLinkModelWindows(t *testing.T) {
	m := newTestModel(t, &topic.Profile{Description: "forest tree river",
		Examples: topic.Examples{Items: []topic.Example{{Positive: true, Text: "forest tree river"}, {Positive: false, Text: "city shop"}}}})
	// 200 candidates: Solve's renormalisation divides by sums over all of
	// them, which a folded-in candidate must share.
	var links []record.Link
	for i := 0; i < 100; i++ {
		links = append(links, record.Link{URL: fmt.Sprintf("http://a/f%d", i), Anchor: "forest tree"},
			record.Link{URL: fmt.Sprintf("http://a/c%d", i), Anchor: "city shop"})
	}
	w1 := []record.Doc{{URL: "http://a/", Tokens: []string{"forest", "tree"}, Links: links},
		{URL: "http://a/f0", Tokens: []string{"forest", "river"}}, {URL: "http://a/c0", Tokens: []string{"city", "shop"}}}
	w2 := []record.Doc{{URL: "http://a/f1", Tokens: []string{"forest"}, Links: []record.Link{
		{URL: "http://a/new-f", Anchor: "river forest"}, {URL: "http://a/new-c", Anchor: "shop city"}, {URL: "http://a/f2", Anchor: "tree"}}}}
	cfg := Config{Page: DefaultPageOptions(), Links: DefaultLinkOptions()}
	cfg.Links.Strategy = LinksLinkModel
	sc := newScorer(t, m, cfg, nil)
	lm := sc.strategy.graph.(*linkmodel).st
	out1, err := sc.ScoreBatch(context.Background(), w1)
	if err != nil {
		t.Fatal(err)
	}
	built := lm.built
	out2, err := sc.ScoreBatch(context.Background(), w2)
	if err != nil {
		t.Fatal(err)
	}
	if lm.built != built || len(lm.fold) == 0 {
		t.Errorf("second window rebuilt the model (built %d → %d) or folded nothing in", built, lm.built)
	}
	// A folded-in candidate is on the solved candidates' scale: new-f
	// (anchor "river forest") against f3 ("forest tree", never crawled).
	fold, solved := lm.xOf(lm.ids["http://a/new-f"]), lm.x[lm.ids["http://a/f3"]]
	if !(solved > 0) || fold/solved < 0.5 || fold/solved > 2 {
		t.Errorf("folded-in x %v against a solved one %v: not on one scale", fold, solved)
	}
	p1, p2 := priorities(out1[0]), priorities(out2[0])
	if !(p1[0] > p1[1]) || !(p2[0] > p2[1]) {
		t.Errorf("forest links do not outrank city links: window 1 %v, window 2 %v", p1, p2)
	}
	if p1[0]-p1[1] < 0.1 {
		t.Errorf("priorities squeezed: forest %v, city %v", p1[0], p1[1])
	}
}

func TestPlattFit(t *testing.T) {
	zs := []float64{-1, -0.5, 0, 0.5, 1, 0.2, 0.8}
	ys := []float64{0, 0, 0, 1, 1, 0, 1}
	a, b := plattFit(zs, ys, 1)
	if !(a > 0) || math.IsNaN(b) {
		t.Fatalf("a %v b %v", a, b)
	}
	// The fit minimises the loss: moving either parameter raises it.
	loss := func(a, b float64) float64 {
		l := a * a / 2
		for i, z := range zs {
			p := sigmoid(a*z + b)
			l -= ys[i]*math.Log(p) + (1-ys[i])*math.Log(1-p)
		}
		return l
	}
	for _, d := range [][2]float64{{0.01, 0}, {-0.01, 0}, {0, 0.01}, {0, -0.01}} {
		if loss(a+d[0], b+d[1]) < loss(a, b) {
			t.Errorf("(a, b) = (%v, %v) is not the minimum: %v lowers the loss", a, b, d)
		}
	}
}

// TestBlankPagePassesItsEstimate: a page with no text at all (a language
// picker: only links) cannot confirm or refute the priority it was leased
// at, so its links start from that estimate; an off-topic page with text,
// leased at the same priority, still passes on nothing. Without this, the
// links of a blank site entry page all get 0 and wait behind any other
// page's weakest link (the real web's start-up lottery, docs/score.md).
func TestBlankPagePassesItsEstimate(t *testing.T) {
	m := newTestModel(t, &topic.Profile{Description: "forest tree"})
	page := func(text string, priority, inherited float64) record.Doc {
		return record.Doc{
			URL: "http://a/", Content: text,
			Lineage: record.Lineage{Depth: 1, Priority: priority, Inherited: inherited},
			Blocks:  []record.Block{{ID: 1, Kind: record.BlockLinks}},
			Links:   []record.Link{{URL: "http://a/da/", Anchor: "da", Block: 1}, {URL: "http://a/de/", Anchor: "de", Block: 1}},
		}
	}
	// Hand derivation (δ = γ = 0.5; the anchors say nothing, no context):
	//   blank, leased at 0.6, inherited 0: inherited = δ·max(0, 0.6) = 0.3,
	//     shark potential = γ·0.3 = 0.15; best-first takes 0.6.
	//   blank, leased at 0.6, inherited 0.8: δ·0.8 = 0.4, potential 0.2.
	//   text "city river" (score 0, not relevant): δ·inherited = 0.
	tests := []struct {
		name                  string
		doc                   record.Doc
		shark, inh, bestFirst float64
	}{
		{"blank", page("", 0.6, 0), 0.15, 0.3, 0.6},
		{"blank, inherited above its priority", page(" \n", 0.6, 0.8), 0.2, 0.4, 0.6},
		{"off-topic text", page("city river", 0.6, 0), 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sd := scoreOne(t, m, LinksShark, nil, tc.doc)
			if sd.Score != 0 || sd.Relevant {
				t.Fatalf("page score %v relevant %v, want 0 and not relevant", sd.Score, sd.Relevant)
			}
			for i, l := range sd.Links {
				if !near(l.Priority, tc.shark) || !near(l.Inherited, tc.inh) {
					t.Errorf("shark link %d: priority %v inherited %v, want %v, %v", i+1, l.Priority, l.Inherited, tc.shark, tc.inh)
				}
			}
			for i, p := range priorities(scoreOne(t, m, LinksBestFirst, nil, tc.doc)) {
				if !near(p, tc.bestFirst) {
					t.Errorf("best-first link %d: %v, want %v", i+1, p, tc.bestFirst)
				}
			}
			// block-shark scales the same potential: 0 stays 0, and a
			// positive potential stays positive.
			for i, p := range priorities(scoreOne(t, m, LinksBlockShark, nil, tc.doc)) {
				if (p > 0) != (tc.shark > 0) {
					t.Errorf("block-shark link %d: %v, want it > 0 exactly when shark's (%v) is", i+1, p, tc.shark)
				}
			}
		})
	}
}

// newScorer is NewScorer for a test.
func newScorer(tb testing.TB, m *Model, cfg Config, store Store) *Scorer {
	tb.Helper()
	sc, err := NewScorer(m, cfg, store)
	if err != nil {
		tb.Fatal(err)
	}
	return sc
}
