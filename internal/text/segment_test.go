package text

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/go-ego/gse"

	"github.com/focuscrawl/focuscrawl/internal/text/dictfile"
)

// compile loads dict (gse's "word freq" lines) into gse and into a
// dictfile trie the way ./gen does, and returns both.
func compile(t *testing.T, dict string) (*gse.Segmenter, *dictfile.Trie) {
	t.Helper()
	seg := &gse.Segmenter{SkipLog: true, NotLoadHMM: true}
	if err := seg.LoadDictStr(dict); err != nil {
		t.Fatal(err)
	}
	d := seg.Dictionary()
	var entries []dictfile.Entry
	for i := range d.Tokens {
		tok := &d.Tokens[i]
		var units []string
		for _, u := range gse.SplitWords([]byte(tok.Text())) {
			units = append(units, string(u))
		}
		entries = append(entries, dictfile.Entry{Units: units, Freq: uint64(tok.Freq())})
	}
	var buf bytes.Buffer
	if err := dictfile.Write(&buf, d.TotalFreq(), entries); err != nil {
		t.Fatal(err)
	}
	tr, err := dictfile.Read(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return seg, tr
}

func ourCut(s string, tr *dictfile.Trie) []string {
	units := splitUnits(nil, s)
	var out []string
	from := 0
	for _, e := range cut(s, units, tr, nil, nil) {
		out = append(out, s[units[from].start:units[e-1].end])
		from = int(e)
	}
	return out
}

// TestCutMatchesGse checks the shortest-path cut against gse's own Cut on
// the same dictionary, including ties, unknown characters, Latin runs and
// words that mix Latin and Chinese.
func TestCutMatchesGse(t *testing.T) {
	dict := strings.Join([]string{
		"森林 5000 n", "抚育 3000 v", "森林抚育 800 n", "林分 1200 n", "质量 9000 n",
		"提高 20000 v", "宜林 10 a", "林地 4000 n", "造林 3000 v", "模式 8000 n",
		"b超 30 n", "c++ 40 nz", "imax 5 nz", "中 2 f", "国 2 n", "中国 90000 ns",
		"国人 300 n", "中国人 5000 n", "人 2 n", "大 2 a", "大小 900 a", "小班 40 n",
		"班级 900 n", "ab 3 x", "ab中 3 x", "甲乙 7 x", "乙丙 7 x", "丙丁 7 x",
		"甲 2 x", "乙 2 x", "丙 2 x", "丁 2 x", "天地 7 x", "地人 100 x",
	}, "\n")
	// A word so frequent that one-character words (frequency 2) cost more
	// than gse's pseudo-word for an unknown character (32 bits).
	heavy := dict + "\n的的的 17179869184 x"
	for _, d := range []string{dict, heavy} {
		seg, tr := compile(t, d)
		compareCuts(t, seg, tr)
	}
}

func compareCuts(t *testing.T, seg *gse.Segmenter, tr *dictfile.Trie) {
	texts := []string{
		"森林抚育提高林分质量",
		"宜林地造林模式",
		"做b超学c++用imax拍",
		"中国人大小班级",
		"甲乙丙丁甲乙丙",
		"天地人",
		"ab中 ab 中ab, 中国",
		"未知字符加上森林",
		"",
		"!!  森林 ,, 抚育",
	}
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"森", "林", "抚", "育", "中", "国", "人", "甲", "乙", "丙", "丁",
		"大", "小", "班", "级", "ab", "c", "+", " ", "，", "b", "超", "宜", "地", "分", "质", "量", "未"}
	for i := 0; i < 1000; i++ {
		var b strings.Builder
		for k := rng.Intn(30); k > 0; k-- {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	for _, s := range texts {
		want := seg.Cut(s)
		got := ourCut(s, tr)
		if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("cut(%q) = %q, gse %q", s, got, want)
		}
	}
}

// TestSplitDist: the cost of a word's cheapest cut into smaller pieces
// never counts the word itself.
func TestSplitDist(t *testing.T) {
	_, tr := compile(t, "森林 5000 n\n抚育 3000 v\n森林抚育 800 n\n森 2 n\n林 2 n")
	dist := func(w string) float32 { return wordDist(w, splitUnits(nil, w), tr) }
	tests := []struct {
		word string
		want float32
	}{
		{"森林抚育", dist("森林") + dist("抚育")},
		{"森林", dist("森") + dist("林")},
		{"抚育", 2 * pseudoDist}, // 抚 and 育 are no words of their own
	}
	for _, tt := range tests {
		got := splitDist(tt.word, splitUnits(nil, tt.word), tr)
		if got != tt.want || got == dist(tt.word) {
			t.Errorf("splitDist(%s) = %v, want %v (the word alone costs %v)", tt.word, got, tt.want, dist(tt.word))
		}
	}
}
