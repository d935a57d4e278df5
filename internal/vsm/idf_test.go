package vsm

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

func TestBuilder(t *testing.T) {
	b := NewBuilder()
	b.Add([]string{"forest", "tree", "tree"}) // tree counts once per document
	b.Add([]string{"forest", "river"})
	b.Add([]string{"forest"})
	b.Add(nil) // no terms: not a document
	tab, err := b.Table(1)
	if err != nil {
		t.Fatal(err)
	}
	// N = 3. forest: df 3 → ln(4/4)+1 = 1; tree, river: df 1 → ln(4/2)+1;
	// unseen: ln(4)+1.
	want := map[string]float64{"forest": 1, "tree": math.Log(2) + 1, "river": math.Log(2) + 1}
	for term, w := range want {
		if got := tab.Weight(term); !near(got, w) {
			t.Errorf("idf(%s) = %v, want %v", term, got, w)
		}
	}
	if got := tab.Weight("unseen"); !near(got, math.Log(4)+1) {
		t.Errorf("unseen = %v", got)
	}
	if tab.Docs != 3 {
		t.Errorf("Docs = %d", tab.Docs)
	}
	// min-df 2 keeps only forest.
	tab2, _ := b.Table(2)
	if tab2.Len() != 1 {
		t.Errorf("min df 2 kept %d terms", tab2.Len())
	}
	if _, err := NewBuilder().Table(1); err == nil {
		t.Error("empty corpus: want an error")
	}
}

func TestVectorTFIDF(t *testing.T) {
	tab := NewIDF(map[string]float64{"a": 2, "b": 1}, 10, 3, 5)
	// a ×2: (1+ln2)·2; b ×1: 1·1; 林 unknown CJK: 5; z unknown Latin: 3.
	v := tab.Vector([]string{"a", "b", "a", "林", "z", ""})
	want := map[string]float64{"a": (1 + math.Log(2)) * 2, "b": 1, "林": 5, "z": 3}
	if v.Len() != len(want) {
		t.Fatalf("terms %v", v.Terms)
	}
	for term, w := range want {
		if !near(v.Weight(term), w) {
			t.Errorf("%s = %v, want %v", term, v.Weight(term), w)
		}
	}
}

func TestReadWriteRoundTrip(t *testing.T) {
	tab := NewIDF(map[string]float64{"造林": 7.25, "forest": 2.5}, 42, 6, 12)
	var buf bytes.Buffer
	if _, err := tab.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := Read(&buf, "x")
	if err != nil {
		t.Fatal(err)
	}
	if got.Docs != 42 || got.Default != 6 || got.DefaultCJK != 12 || got.Weight("造林") != 7.25 || got.Weight("forest") != 2.5 {
		t.Errorf("round trip: %+v", got)
	}
	// Compressed on disk.
	path := filepath.Join(t.TempDir(), "t.idf.gz")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	tab.WriteTo(zw)
	zw.Close()
	os.WriteFile(path, gz.Bytes(), 0o644)
	if got, err := Load(path); err != nil || got.Weight("forest") != 2.5 {
		t.Errorf("Load gz: %v %v", got, err)
	}
}

func TestReadJiebaFormat(t *testing.T) {
	// No header: unknown terms get the median (of 2, 4, 9: 4).
	got, err := Read(strings.NewReader("甲 2\n乙 4\n丙 9\n"), "jieba")
	if err != nil {
		t.Fatal(err)
	}
	if got.Weight("丁") != 4 || got.Weight("x") != 4 {
		t.Errorf("defaults %v %v", got.Default, got.DefaultCJK)
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\t1\nb\tx\n", "t:2: idf \"x\""},
		{"a\t1\nbroken\n", "t:2: want"},
		{"a\t-1\n", "t:1: idf \"-1\" is not a positive"},
		{"# docs many\n", "t:1:"},
		{"", "no terms"},
	}
	for _, tc := range tests {
		_, err := Read(strings.NewReader(tc.in), "t")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Read(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestBuiltin(t *testing.T) {
	tab := Builtin()
	if tab.Len() < 50000 {
		t.Fatalf("builtin has %d terms", tab.Len())
	}
	// Common words weigh less than rare ones, in both languages, and
	// unseen terms are never zero.
	if !(tab.Weight("的") < tab.Weight("造林")) {
		t.Errorf("的 %v >= 造林 %v", tab.Weight("的"), tab.Weight("造林"))
	}
	if !(tab.Weight("said") < tab.Weight("forestry")) {
		t.Errorf("said %v >= forestry %v", tab.Weight("said"), tab.Weight("forestry"))
	}
	for _, term := range []string{"zzqxv", "龘龘龘"} {
		if tab.Weight(term) <= 1 {
			t.Errorf("unseen %s = %v", term, tab.Weight(term))
		}
	}
}

func TestHasCJK(t *testing.T) {
	for s, want := range map[string]bool{"abc": false, "造林": true, "かな": true, "한국": true, "x林": true, "": false} {
		if HasCJK(s) != want {
			t.Errorf("HasCJK(%q) != %v", s, want)
		}
	}
}

// TestVectorMatchesCounting: Vector (sorted runs) gives the terms and
// weights of counting the tokens in a map, term by term.
func TestVectorMatchesCounting(t *testing.T) {
	tab := NewIDF(map[string]float64{"a": 2, "b": 0.5, "森林": 3}, 10, 1.5, 2.5)
	lists := [][]string{
		{"a"}, {"", ""}, {"b", "a", "b", "", "森林", "c", "a", "b"},
		{"x", "y", "x", "x", "林", "y", "z", "a", "a"},
		nil, // long enough to be counted in a map, below
	}
	for i := range 3 * sortedVectorMax {
		lists[len(lists)-1] = append(lists[len(lists)-1], fmt.Sprint("t", i%(sortedVectorMax/3)), "")
	}
	for _, toks := range lists {
		counts := map[string]int{}
		for _, tok := range toks {
			if tok != "" {
				counts[tok]++
			}
		}
		got := tab.Vector(toks)
		if len(got.Terms) != len(counts) || len(got.Weights) != len(counts) {
			t.Fatalf("%q: %d terms, want %d", toks, len(got.Terms), len(counts))
		}
		for i, term := range got.Terms {
			if i > 0 && got.Terms[i-1] >= term {
				t.Errorf("%q: terms not sorted: %q", toks, got.Terms)
			}
			want := (1 + math.Log(float64(counts[term]))) * tab.Weight(term)
			if got.Weights[i] != want {
				t.Errorf("%q: weight of %q %v, want %v", toks, term, got.Weights[i], want)
			}
		}
	}
}
