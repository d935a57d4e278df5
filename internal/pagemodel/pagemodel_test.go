package pagemodel

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

func TestURLTerms(t *testing.T) {
	got := URLTerms("http://docs.test/en/mod/mod_alias.html?x=1")
	want := []string{"host:docs.test", "docs.test/en/", "docs.test/en/mod/", "docs.test/en/mod/mod*",
		"docs.test/en/mod/mod_alias*", "docs.test/en/mod/mod_alias*?x", "w:en", "w:mod", "w:mod", "w:alias"}
	if !slices.Equal(got, want) {
		t.Errorf("URLTerms:\n got %q\nwant %q", got, want)
	}
	if URLTerms("") != nil {
		t.Error("URLTerms of no URL is not empty")
	}
}

func TestAppendGroupDistinctUnitWeight(t *testing.T) {
	fs := appendGroup(nil, 2, []string{"a", "b", "a", "", "c", "b"})
	if len(fs) != 3 {
		t.Fatalf("%d features, want 3 distinct: %v", len(fs), fs)
	}
	for _, f := range fs {
		if math.Abs(f.value-1/math.Sqrt(3)) > 1e-12 || f.group != 2 {
			t.Errorf("feature %+v: want group 2, value 1/√3", f)
		}
	}
	many := make([]string, 100)
	for i := range many {
		many[i] = fmt.Sprint(i)
	}
	if n := len(appendGroup(nil, 0, many)); n != maxGroupTerms {
		t.Errorf("%d terms kept of 100, want %d", n, maxGroupTerms)
	}
}

// TestGradient checks the objective's gradient against finite differences.
func TestGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pr := &problem{dim: 7, lambda: 0.7, priorMean: 5, priorVar: 9, biasVar: 4}
	for n := 0; n < 12; n++ {
		r := row{prior: rng.Float64() - 0.5}
		for i := 2; i < 7; i++ {
			if rng.IntN(2) == 0 {
				r.idx, r.val = append(r.idx, int32(i)), append(r.val, rng.Float64())
			}
		}
		pr.rows = append(pr.rows, r)
		pr.y = append(pr.y, float64(rng.IntN(2)))
		pr.c = append(pr.c, 0.2+rng.Float64())
	}
	x := make([]float64, pr.dim)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	grad := make([]float64, pr.dim)
	pr.objective(x, grad)
	for i := range x {
		h := 1e-6
		xp, xm := slices.Clone(x), slices.Clone(x)
		xp[i] += h
		xm[i] -= h
		num := (pr.objective(xp, nil) - pr.objective(xm, nil)) / (2 * h)
		if math.Abs(num-grad[i]) > 1e-5*math.Max(1, math.Abs(num)) {
			t.Errorf("∂f/∂x[%d] = %v, finite difference %v", i, grad[i], num)
		}
	}
}

// page makes a page of body words (equal TF-IDF weights), a URL and a prior.
func page(u string, prior float64, words ...string) Page {
	m := map[string]float64{}
	for _, w := range words {
		m[w]++
	}
	return Page{URL: u, Body: vsm.FromMap(m), Prior: prior}
}

func testOptions() Options {
	o := DefaultOptions()
	o.Topic = "t"
	o.Prior = Prior{Method: "vsm", Center: 0.5}
	return o
}

// TestPriorAlone: labels that agree with the profile's score leave the
// model ordering pages as the score does, and no word weighs much.
func TestPriorAlone(t *testing.T) {
	var ex []Example
	for i := 0; i < 5; i++ {
		ex = append(ex, Example{Page: page("http://a.test/p", 0.8+0.02*float64(i), "x"), Relevant: true})
		ex = append(ex, Example{Page: page("http://a.test/p", 0.2-0.02*float64(i), "x"), Relevant: false})
	}
	m := train(t, ex, nil, testOptions())
	last := -1.0
	for s := 0.0; s <= 1; s += 0.1 {
		p := page("http://a.test/p", s, "x")
		q := m.Prob(&p)
		if q <= last {
			t.Errorf("P at prior %.1f = %v, not above %v: not monotone in the profile's score", s, q, last)
		}
		last = q
	}
	if m.Prior.Weight < 5 {
		t.Errorf("the prior's weight fell to %v: labels that agree with it should not weaken it", m.Prior.Weight)
	}
	if m.Training.CV.Accuracy != 1 || m.Training.CV.Method != "leave-one-out" || m.Training.CV.Folds != 10 {
		t.Errorf("CV %+v: want leave-one-out over 10 folds, accuracy 1", m.Training.CV)
	}
}

// TestWordsOverruleTheProfile: five good and five bad pages whose profile
// scores are equal (all look on topic) are told apart by their words, and
// an unseen page with the good word and a low profile score still rises
// above one with the bad word and a high score.
func TestWordsOverruleTheProfile(t *testing.T) {
	var ex []Example
	for i := 0; i < 5; i++ {
		ex = append(ex, Example{Page: page(fmt.Sprintf("http://a.test/mod/p%d.html", i), 0.7, "module", "directive", fmt.Sprint("w", i)), Relevant: true})
		ex = append(ex, Example{Page: page(fmt.Sprintf("http://a.test/howto/p%d.html", i), 0.7, "tutorial", "directive", fmt.Sprint("v", i)), Relevant: false})
	}
	m := train(t, ex, nil, testOptions())
	good := page("http://a.test/mod/new.html", 0.6, "module", "directive")
	bad := page("http://a.test/howto/new.html", 0.8, "tutorial", "directive")
	if pg, pb := m.Prob(&good), m.Prob(&bad); pg <= 0.5 || pb >= 0.5 {
		t.Errorf("P(good) = %.3f, P(bad) = %.3f: want the words and URL to decide (good ≥ 0.5 > bad)", pg, pb)
	}
	pos, neg := m.Top(3)
	if len(pos) == 0 || len(neg) == 0 {
		t.Fatalf("Top: %v / %v", pos, neg)
	}
	// A word on both sides says nothing (it may take a little of the
	// bias's part, which is penalised less).
	if w := m.Weights[GroupBody]["directive"]; math.Abs(w) > m.Weights[GroupBody]["module"]/4 {
		t.Errorf("a word on both sides weighs %v (module %v)", w, m.Weights[GroupBody]["module"])
	}
}

// TestSelfTrainingLearnsUnlabelledWords: a word no labelled page has but
// that goes with the profile's high scores in the pool gets a positive
// weight only through self-training.
func TestSelfTrainingLearnsUnlabelledWords(t *testing.T) {
	var ex []Example
	for i := 0; i < 5; i++ {
		ex = append(ex, Example{Page: page("http://a.test/x", 0.9, "alpha"), Relevant: true})
		ex = append(ex, Example{Page: page("http://a.test/y", 0.1, "beta"), Relevant: false})
	}
	var pool []Page
	for i := 0; i < 200; i++ {
		if i%2 == 0 {
			pool = append(pool, page("http://a.test/z", 0.8, "alpha", "gamma"))
		} else {
			pool = append(pool, page("http://a.test/z", 0.2, "beta", "delta"))
		}
	}
	for _, rounds := range []int{0, 4} {
		o := testOptions()
		o.Rounds = rounds
		m := train(t, ex, pool, o)
		g := m.Weights[GroupBody]["gamma"]
		switch {
		case rounds == 0 && g != 0:
			t.Errorf("without self-training gamma weighs %v, want 0 (no labelled page has it)", g)
		case rounds > 0 && g <= 0.1:
			t.Errorf("with self-training gamma weighs %v, want it learned from the pool (> 0.1); %+v", g, m.Training)
		case rounds > 0 && (m.Training.Pseudo[0] == 0 || m.Training.Pseudo[1] == 0 || m.Training.Rounds != rounds):
			t.Errorf("self-training %+v: want pseudo-labels of both kinds over %d rounds", m.Training, rounds)
		}
	}
}

// TestSelfTrainingDriftGuard: a pool whose pseudo-labels would turn a
// labelled page the other way is refused after the round that would.
func TestSelfTrainingDriftGuard(t *testing.T) {
	// The labels say "alpha" is relevant against the profile's score; a
	// large pool where alpha pages score low would teach the opposite.
	var ex []Example
	ex = append(ex, Example{Page: page("http://a.test/x", 0.3, "alpha"), Relevant: true})
	ex = append(ex, Example{Page: page("http://a.test/y", 0.35, "beta"), Relevant: false})
	var pool []Page
	for i := 0; i < 400; i++ {
		pool = append(pool, page("http://a.test/z", 0.05, "alpha"), page("http://a.test/z", 0.95, "beta"))
	}
	o := testOptions()
	o.PseudoWeight = 1
	m := train(t, ex, pool, o)
	for i, e := range ex {
		p := m.Prob(&e.Page)
		if (p >= m.Threshold) != e.Relevant {
			t.Errorf("labelled page %d judged %v at %.3f after self-training (%s)", i, !e.Relevant, p, m.Training.Stop)
		}
	}
	if !strings.Contains(m.Training.Stop, "drift") {
		t.Errorf("self-training stopped with %q, want the drift guard", m.Training.Stop)
	}
}

func TestOneClassRefused(t *testing.T) {
	ex := []Example{{Page: page("http://a.test/x", 0.9, "a"), Relevant: true}}
	if _, err := NewTrainer(ex, nil, testOptions()); !errors.Is(err, ErrOneClass) {
		t.Errorf("one class: %v, want ErrOneClass", err)
	}
}

// TestSaveLoad: a model written and read back judges every page alike,
// and Logit equals the trainer's own sum over the page's features.
func TestSaveLoad(t *testing.T) {
	ex := []Example{
		{Page: Page{URL: "http://a.test/mod/a.html", Body: vsm.FromMap(map[string]float64{"x": 2, "y": 1}), Title: []string{"t1"}, Nav: []string{"n1", "n2"}, Anchor: []string{"a1"}, Prior: 0.8}, Relevant: true},
		{Page: Page{URL: "http://a.test/doc/b.html", Body: vsm.FromMap(map[string]float64{"z": 1}), Title: []string{"t2"}, Prior: 0.4}, Relevant: false},
	}
	o := testOptions()
	o.Tokenization = Tokenization{Tokenizer: "tok/1", IDF: "builtin"}
	tr, err := NewTrainer(ex, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tr.Train()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		t.Fatal(err)
	}
	back, err := Read(bytes.NewReader(b.Bytes()), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	var buf []feature
	for _, e := range ex {
		if math.Abs(back.Logit(&e.Page)-m.Logit(&e.Page)) > 1e-5 {
			t.Errorf("%s: logit %v after a round trip, %v before", e.Page.URL, back.Logit(&e.Page), m.Logit(&e.Page))
		}
		r, _ := tr.v.add(&e.Page, o.Prior.Center, buf)
		x := make([]float64, tr.dim())
		x[0], x[1] = m.Bias, m.Prior.Weight
		for i, f := range tr.v.terms {
			x[i+2] = m.Weights[f.Group][f.Term]
		}
		if z := tr.zAt(x, &r); math.Abs(z-m.Logit(&e.Page)) > 1e-9 {
			t.Errorf("%s: Logit %v, training's sum %v", e.Page.URL, m.Logit(&e.Page), z)
		}
	}
	for _, bad := range []struct{ in, want string }{
		{`{"format":"other","version":1}`, "format"},
		{`{"format":"focuscrawl-page-model","version":2,"threshold":0.5}`, "version 2"},
		{`{"format":"focuscrawl-page-model","version":1,"threshold":0}`, "threshold"},
		{`{"format":"focuscrawl-page-model","version":1,"threshold":0.5,"weights":{"colour":{}}}`, "colour"},
		{`not json`, "not a focuscrawl page model"},
	} {
		if _, err := Read(strings.NewReader(bad.in), "m.json"); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Read(%s): %v, want an error with %q", bad.in, err, bad.want)
		}
	}
}

func TestAUC(t *testing.T) {
	for _, c := range []struct {
		s, y []float64
		want float64
	}{
		{[]float64{0.1, 0.2, 0.3, 0.4}, []float64{0, 0, 1, 1}, 1},
		{[]float64{0.4, 0.3, 0.2, 0.1}, []float64{0, 0, 1, 1}, 0},
		{[]float64{0.5, 0.5, 0.5, 0.5}, []float64{0, 1, 0, 1}, 0.5},
		{[]float64{0.1, 0.5, 0.5, 0.9}, []float64{0, 0, 1, 1}, 0.875},
	} {
		if got := AUC(c.s, c.y); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("AUC(%v, %v) = %v, want %v", c.s, c.y, got, c.want)
		}
	}
	if !math.IsNaN(AUC([]float64{1, 2}, []float64{1, 1})) {
		t.Error("AUC of one class is not NaN")
	}
}

// train fits a model of the examples and pool, failing the test on error.
func train(t *testing.T, ex []Example, pool []Page, o Options) *Model {
	t.Helper()
	tr, err := NewTrainer(ex, pool, o)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tr.Train()
	if err != nil {
		t.Fatal(err)
	}
	return m
}
