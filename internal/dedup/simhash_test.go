package dedup

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/text"
)

func newFP() *Fingerprinter { return NewFingerprinter(text.NewTokenizer(text.Options{}), nil) }

// TestPrintCopiesAndDistinct: copies that change furniture, bylines,
// paragraph order or script stay within 3 bits; distinct articles of the
// same site template are far apart.
func TestPrintCopiesAndDistinct(t *testing.T) {
	f := newFP()
	base := join(append(append([]string{headerZH}, articleZH...), footerZH)...)
	swapped := append([]string(nil), articleZH...)
	swapped[1], swapped[2] = swapped[2], swapped[1]
	near := []struct{ name, text string }{
		{"same text", base},
		{"furniture removed", join(articleZH...)},
		{"byline added", join(append([]string{"发布时间：2024-03-05 来源：中国林业网 作者：王芳"}, articleZH...)...)},
		{"paragraphs swapped", join(append(append([]string{headerZH}, swapped...), footerZH)...)},
		{"traditional script", text.Traditional(base)},
		{"re-wrapped lines", join(articleZH[:3]...) + "\n" + join(articleZH[3:]...)},
	}
	p0 := f.Print(base)
	for _, tt := range near {
		if d := Hamming(p0.SimHash, f.Print(tt.text).SimHash); d > 3 {
			t.Errorf("%s: Hamming distance %d, want <= 3", tt.name, d)
		}
	}
	far := []struct{ name, text string }{
		{"other article, same template", join(append(append([]string{headerZH}, otherZH...), footerZH)...)},
		{"English article", join(articleEN...)},
	}
	for _, tt := range far {
		if d := Hamming(p0.SimHash, f.Print(tt.text).SimHash); d < 12 {
			t.Errorf("%s: Hamming distance %d, want >= 12", tt.name, d)
		}
	}
}

func TestPrintEmptyAndTokens(t *testing.T) {
	f := newFP()
	if p := f.Print(""); p.Tokens != 0 || p.SimHash != 0 {
		t.Fatalf("empty text: %+v", p)
	}
	if p := f.Print(join(articleEN...)); p.Tokens < 50 {
		t.Fatalf("English article: %d tokens", p.Tokens)
	}
}

func TestExactHash(t *testing.T) {
	a := ExactHash("one two\nthree")
	for _, s := range []string{"  one   two three ", "one\ttwo\n\nthree\n"} {
		if ExactHash(s) != a {
			t.Errorf("ExactHash(%q) differs from ExactHash(%q)", s, "one two\nthree")
		}
	}
	if ExactHash("one two three!") == a || ExactHash("onetwo three") == a {
		t.Error("different texts hash alike")
	}
}

func TestBoilerLines(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{headerZH, true},
		{"Home | News | World | Business | Sport", true},
		{"版权所有 © 浙江省林业局", true},
		{"发布时间：2024-03-05 来源：中国林业网", true},
		{"By Alex Morgan | Published 2024-03-05", true},
		{"© 2024 Daily Post. All rights reserved.", true},
		{articleZH[0], false},
		{articleEN[0], false},
		{"by the river, the trees grow", false},
		{"A long paragraph that mentions copyright law in passing but goes on and on about forests, stands, thinning rules, survival rates, funding and inspections for many words.", false},
	}
	for _, tt := range tests {
		if got := isBoilerLine(tt.line); got != tt.want {
			t.Errorf("isBoilerLine(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

func TestEuclideanCompact(t *testing.T) {
	f := newFP()
	f.VectorTerms = 128
	a := f.Print(join(articleZH...)).Vector
	b := f.Print(text.Traditional(join(articleZH[1:]...))).Vector
	c := f.Print(join(otherZH...)).Vector
	if d := Euclidean(a, a); d > 1e-6 {
		t.Errorf("distance to itself %g", d)
	}
	if dab, dac := Euclidean(a, b), Euclidean(a, c); dab >= 0.6 || dac <= 1.0 {
		t.Errorf("copy at %.3f, other article at %.3f: want < 0.6 and > 1.0", dab, dac)
	}
	if d := Euclidean(Compact{}, a); d != 2 {
		t.Errorf("empty vector at %g, want 2", d)
	}
}

func TestFormatFingerprint(t *testing.T) {
	if got := FormatFingerprint(0xc4f1); got != "000000000000c4f1" {
		t.Fatalf("got %s", got)
	}
}

// naiveSimHash is the textbook form: 64 signed counters per feature.
func naiveSimHash(feats []feature) uint64 {
	var v [64]float64
	for _, ft := range feats {
		for b := 0; b < 64; b++ {
			if ft.h>>b&1 == 1 {
				v[b] += float64(ft.w)
			} else {
				v[b] -= float64(ft.w)
			}
		}
	}
	var out uint64
	for b := 0; b < 64; b++ {
		if v[b] > 0 {
			out |= 1 << b
		}
	}
	return out
}

func TestSimHashMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := 1; n < 400; n += 7 {
		feats := make([]feature, n)
		for i := range feats {
			// Weights in 1/8 steps add up exactly in float32, so both forms
			// see the same sums and no tie is decided by rounding.
			feats[i] = feature{r.Uint64(), float32(1+r.IntN(40)) / 8}
		}
		if got, want := simhash(feats), naiveSimHash(feats); got != want {
			t.Fatalf("%d features: %016x, textbook form gives %016x", n, got, want)
		}
	}
}

// without returns the paragraphs of lines with line i left out.
func without(lines []string, i int) []string {
	return append(append([]string(nil), lines[:i]...), lines[i+1:]...)
}

// near is the distance the Deduper sees between two prints: whole
// SimHashes, or one's whole SimHash against a part of the other.
func near(a, b Print) int {
	d := Hamming(a.SimHash, b.SimHash)
	for _, p := range a.Parts {
		d = min(d, Hamming(p, b.SimHash))
	}
	for _, p := range b.Parts {
		d = min(d, Hamming(a.SimHash, p))
	}
	return d
}

// TestPrintParts: a part is the SimHash of the text without that
// paragraph, so a copy that lost any one paragraph is found in either
// order, while distinct articles of one template stay far apart.
func TestPrintParts(t *testing.T) {
	f := newFP()
	tests := []struct {
		name  string
		lines []string
		wrap  func(string) string
	}{
		{"Chinese", articleZH, func(s string) string { return s }},
		{"Chinese in a template", articleZH, func(s string) string { return join(headerZH, s, footerZH) }},
		{"English", articleEN, func(s string) string { return s }},
	}
	for _, tt := range tests {
		full := f.Print(tt.wrap(join(tt.lines...)))
		if len(full.Parts) == 0 || len(full.Parts) > DefaultParts {
			t.Fatalf("%s: %d parts", tt.name, len(full.Parts))
		}
		var hits int
		for i := range tt.lines {
			cut := f.Print(tt.wrap(join(without(tt.lines, i)...)))
			if d := near(full, cut); d > 3 {
				t.Errorf("%s without paragraph %d: distance %d, want <= 3", tt.name, i, d)
			}
			// The part is the other text's own SimHash, up to rounding
			// in sums that are close to 0.
			for _, p := range full.Parts {
				if Hamming(p, cut.SimHash) <= 1 {
					hits++
					break
				}
			}
		}
		if hits < len(full.Parts) {
			t.Errorf("%s: %d of %d parts are the SimHash of the text without a paragraph", tt.name, hits, len(full.Parts))
		}
	}
	other := f.Print(join(headerZH, join(otherZH...), footerZH))
	if d := near(f.Print(join(headerZH, join(articleZH...), footerZH)), other); d < 12 {
		t.Errorf("distinct articles of one template: distance %d with parts, want >= 12", d)
	}
}

func TestPrintPartsNone(t *testing.T) {
	f := newFP()
	tests := []struct{ name, text string }{
		{"one paragraph", strings.Join(articleZH, "")},
		{"two paragraphs", join(articleZH[0]+articleZH[1]+articleZH[2], articleZH[3]+articleZH[4]+articleZH[5])},
		{"empty", ""},
	}
	for _, tt := range tests {
		if p := f.Print(tt.text); len(p.Parts) != 0 {
			t.Errorf("%s: %d parts, want none (every paragraph is over a quarter of the text)", tt.name, len(p.Parts))
		}
	}
	f.Parts = 0
	if p := f.Print(join(articleZH...)); len(p.Parts) != 0 {
		t.Errorf("Parts = 0: %d parts", len(p.Parts))
	}
	f.Parts = 2
	if p := f.Print(join(articleZH...)); len(p.Parts) != 2 {
		t.Errorf("Parts = 2: %d parts", len(p.Parts))
	}
}

// TestPrintTokens: a doc's own tokens (of title + "\n" + content, as
// segment cuts them) give the same keys as cutting the content again.
func TestPrintTokens(t *testing.T) {
	f := newFP()
	tok := text.NewTokenizer(text.Options{})
	tests := []struct{ name, title, content string }{
		{"Chinese in a template", "森林抚育作业技术规程印发", join(headerZH, join(articleZH...), footerZH)},
		{"English", "New Thinning Rules", join(articleEN...)},
		{"mixed lines", "Mixed", join(articleZH[0], articleEN[1], "发布时间：2024-03-05 来源：中国林业网", articleZH[2]+" FSC 2024", articleEN[3])},
		{"traditional (cut again)", "森林撫育", text.Traditional(join(articleZH...))},
		{"one line", "", articleZH[0]},
		{"title of two lines", "第一行\n第二行 森林", join(articleZH[:3]...)},
		{"full-width and upper case", "ＦＳＣ认证", "ＦＳＣ森林认证 Forest Stewardship\n\n" + join(articleZH[3:]...)},
		{"furniture only", "t", footerZH},
		{"empty content", "标题", ""},
	}
	for _, tt := range tests {
		want := f.Print(tt.content)
		got := f.PrintTokens(tt.title, tt.content, tok.Tokens(tt.title+"\n"+tt.content))
		if got.SimHash != want.SimHash || got.Exact != want.Exact || got.Tokens != want.Tokens || !slices.Equal(got.Parts, want.Parts) {
			t.Errorf("%s: PrintTokens %+v, Print %+v", tt.name, got, want)
		}
	}
	// Tokens that are not the text's (another tokenizer's, or stale) fall
	// back to cutting the text.
	content := join(articleZH...)
	want := f.Print(content)
	if got := f.PrintTokens("t", content, []string{"t", "不在文中的词"}); got.SimHash != want.SimHash || got.Tokens != want.Tokens {
		t.Errorf("foreign tokens: %+v, want %+v", got, want)
	}
}
