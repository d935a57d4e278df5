package text

import (
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

var forestry = []string{"小班", "宜林地", "造林模式"}

func TestTokens(t *testing.T) {
	domain := NewTokenizer(Options{Dictionary: forestry})
	plain := NewTokenizer(Options{})
	profileStop := NewTokenizer(Options{Stopwords: []string{"适合", "Forest"}})
	tests := []struct {
		name string
		tk   *Tokenizer
		in   string
		want []string
	}{
		{"domain words whole", domain, "该小班的宜林地适合采用造林模式。",
			[]string{"小班", "宜林地", "适合", "采用", "造林模式"}},
		{"domain word against its own pieces", domain, "造林模式与造林、模式",
			[]string{"造林模式", "造林", "模式"}},
		{"domain word loses to a cheaper reading of its neighbours", domain, "适宜林地与宜林地",
			[]string{"适宜", "林地", "宜林地"}},
		{"without the dictionary pieces", plain, "采用造林模式",
			[]string{"采用", "造林", "模式"}},
		{"gse dictionary words", plain, "森林抚育提高林分质量",
			[]string{"森林抚育", "提高", "林分", "质量"}},
		{"chinese stop words and punctuation", plain, "我们的森林，了！",
			[]string{"森林"}},
		{"english lower-cased, stop words dropped", plain, "The Forest and THE Trees",
			[]string{"forest", "trees"}},
		{"digits and hyphens", plain, "COVID-19 in 2020: 3.5%",
			[]string{"covid", "19", "2020", "3", "5"}},
		{"full width folded", plain, "ＩＭＡＸ　摄影机１２３",
			[]string{"imax", "摄影机", "123"}},
		{"mixed latin and chinese", plain, "使用IMAX摄影机拍摄",
			[]string{"使用", "imax", "摄影机", "拍摄"}},
		{"dictionary words with latin", plain, "做B超和学C++编程",
			[]string{"做", "b超", "学", "c++", "编程"}},
		{"profile stop words", profileStop, "适合森林 forest FOREST trees",
			[]string{"森林", "trees"}},
		{"symbols only", plain, "★ → © ……", []string{}},
		{"empty", plain, "", nil},
		{"accents kept", plain, "Café Ökologie", []string{"café", "ökologie"}},
		{"hangul runs whole", plain, "한국 森林", []string{"한국", "森林"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.tk.Tokens(tt.in)
			if len(got) == 0 && len(tt.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Tokens(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestWordsKeepStopWords(t *testing.T) {
	tk := NewTokenizer(Options{})
	got := tk.Words("我们的森林, the forest!")
	want := []string{"我们", "的", "森林", "the", "forest"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Words = %q, want %q", got, want)
	}
}

func TestNoBuiltinStopwords(t *testing.T) {
	tk := NewTokenizer(Options{NoBuiltinStopwords: true, Stopwords: []string{"森林"}})
	got := tk.Tokens("我们的森林 the forest")
	want := []string{"我们", "的", "the", "forest"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Tokens = %q, want %q", got, want)
	}
	if !tk.IsStopword("森林") || tk.IsStopword("的") {
		t.Errorf("IsStopword: custom list not honoured")
	}
}

func TestLatinDomainPhrase(t *testing.T) {
	tk := NewTokenizer(Options{Dictionary: []string{"Machine Learning", "造林"}})
	got := tk.Tokens("Machine learning for forests")
	want := []string{"machine learning", "forests"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Tokens = %q, want %q", got, want)
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ABC def", "abc def"},
		{"ＡＢＣ１２３", "abc123"},
		{"森林　抚育", "森林 抚育"},
		{"ﬁle", "file"},
		{"（注）", "(注)"},
		{"ｶﾀｶﾅ", "カタカナ"},
		{"Ⅳ", "iv"},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHasCJK(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"", false},
		{"plain English, café", false},
		{"森", true},
		{"mixed 文本", true},
		{"カタカナ", true},
		{"한국어", true},
		{"ㄅㄆ", true},
		{"（）。，", false}, // CJK punctuation alone is not CJK text
	}
	for _, tt := range tests {
		if got := HasCJK(tt.in); got != tt.want {
			t.Errorf("HasCJK(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	tk := NewTokenizer(Options{Dictionary: forestry})
	inputs := []string{
		"该小班的宜林地适合采用造林模式。",
		"The forest management plan follows FAO guidelines.",
		benchText,
		"使用IMAX摄影机拍摄",
	}
	want := make([][]string, len(inputs))
	for i, s := range inputs {
		want[i] = tk.Tokens(s)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				k := (g + i) % len(inputs)
				if got := tk.Tokens(inputs[k]); !slices.Equal(got, want[k]) {
					errs <- fmt.Sprintf("goroutine %d: Tokens(%q) = %q, want %q", g, inputs[k], got, want[k])
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestLazyLoad runs in a child process, where nothing has loaded the
// Chinese dictionary yet: English text must not load it, Chinese text must.
func TestLazyLoad(t *testing.T) {
	if os.Getenv("TEXT_LAZY_CHILD") == "1" {
		tk := NewTokenizer(Options{Dictionary: forestry, Stopwords: []string{"x"}})
		tk.Tokens("An English-only page, with ＦＵＬＬ width letters.")
		tk.Words("More English text")
		if HasCJK("plain") || Loaded() {
			fmt.Println("loaded by English text")
			os.Exit(1)
		}
		tk.Tokens("森林抚育")
		if !Loaded() {
			fmt.Println("not loaded by Chinese text")
			os.Exit(1)
		}
		fmt.Println("lazy-load-ok")
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLazyLoad$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TEXT_LAZY_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "lazy-load-ok") {
		t.Fatalf("child did not run the check:\n%s", out)
	}
}

func TestLoadChinese(t *testing.T) {
	if err := LoadChinese(); err != nil {
		t.Fatal(err)
	}
	if !Loaded() {
		t.Fatal("Loaded() = false after LoadChinese")
	}
	zh, _ := chinese()
	// The numbers gse reports for its zh dictionary (gse v0.80.3).
	if zh.Words() != 587207 || zh.Total() != 53226742 {
		t.Errorf("dictionary has %d words, total %v; want gse's 587207 and 53226742",
			zh.Words(), zh.Total())
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"短文本", 10, "短文本"},
		{"森林抚育。提高林分质量，增强稳定性", 12, "森林抚育。提高林分质量，"},
		{"第一句。第二句很长很长很长", 8, "第一句。"},
		{"第一句。第二句很长很长很长", 10, "第一句。第二句很长很"},
		{"第一句话在这里。第二句", 10, "第一句话在这里。"},
		{"The forest plan. It follows the guidelines", 30, "The forest plan."},
		{"A plan. It follows the guidelines of FAO", 30, "A plan. It follows the"},
		{"The forest plan is long. Next", 26, "The forest plan is long."},
		{"Version 3.14 is out now", 14, "Version 3.14"},
		{"abcdefghij", 4, "abcd"},
		{"anything", 0, ""},
	}
	for _, tt := range tests {
		if got := Truncate(tt.in, tt.max); got != tt.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

// TestNormalizeCommon checks the fast path against x/text/norm for every
// rune it handles, alone and between other text.
func TestNormalizeCommon(t *testing.T) {
	slow := func(s string) string { return strings.ToLower(norm.NFKC.String(s)) }
	for r := rune(0x80); r <= 0xFFFF; r++ {
		s := "Ab" + string(r) + "森Ｃ"
		got, ok := normalizeCommon(s)
		if !ok {
			continue
		}
		if want := slow(s); got != want {
			t.Errorf("U+%04X: normalizeCommon(%q) = %q, NFKC+lower %q", r, s, got, want)
		}
	}
	for _, s := range []string{"森林，抚育（ＧＢ／Ｔ）“质量”　提高。", "plain ascii", "森林"} {
		got, ok := normalizeCommon(s)
		if !ok || got != slow(s) {
			t.Errorf("normalizeCommon(%q) = %q, %v; want %q", s, got, ok, slow(s))
		}
	}
	if _, ok := normalizeCommon("é"); ok {
		t.Error("normalizeCommon took é, which it must leave to NFKC")
	}
}

// TestLongText checks that text longer than a chunk gives the words of
// its lines, with or without line breaks near the chunk size.
func TestLongText(t *testing.T) {
	tk := NewTokenizer(Options{Dictionary: forestry})
	line := "该小班的宜林地适合采用造林模式，The forest plan follows FAO guidelines。"
	var want []string
	var b strings.Builder
	for b.Len() < 3*chunkSize {
		b.WriteString(line)
		b.WriteByte('\n')
		want = append(want, tk.Tokens(line)...)
	}
	if got := tk.Tokens(b.String()); !slices.Equal(got, want) {
		t.Errorf("long text: %d tokens, want %d", len(got), len(want))
	}
	// One line of 300 KB: cut somewhere, never inside a rune.
	one := strings.Repeat("森林抚育", 300<<10/12)
	for _, w := range tk.Tokens(one) {
		if !utf8.ValidString(w) || w == "" {
			t.Fatalf("bad token %q", w)
		}
	}
}

// FuzzTokens checks that any input gives valid, non-empty tokens that are
// pieces of the normalised text, with no stop word.
func FuzzTokens(f *testing.F) {
	for _, s := range []string{benchText, "该小班的宜林地", "Machine learning\xff\xfe森林", "ＡＢＣ　１２３", "c++ b超 한국어"} {
		f.Add(s)
	}
	tk := NewTokenizer(Options{Dictionary: []string{"小班", "宜林地", "machine learning", "c++"}})
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		for _, w := range tk.Tokens(s) {
			if w == "" || !utf8.ValidString(w) || !strings.Contains(n, w) || tk.IsStopword(w) {
				t.Fatalf("Tokens(%q): bad token %q", s, w)
			}
		}
	})
}
