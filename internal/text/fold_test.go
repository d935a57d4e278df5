package text

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain ASCII text", "plain ASCII text"},
		{"这个国家的森林", "这个国家的森林"},
		{"這個國家的森林", "这个国家的森林"},
		{"造林後要及時撫育，確保成活率。", "造林后要及时抚育，确保成活率。"},
		{"歷史 曆法", "历史 历法"},
		{"mixed 林業局 text", "mixed 林业局 text"},
	}
	for _, tt := range tests {
		if got := Fold(tt.in); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFoldTraditionalRoundTrip(t *testing.T) {
	s := "宜林地造林模式的选择要根据立地条件，造林后要及时抚育，确保成活率。国家林业和草原局发布通知。"
	tr := Traditional(s)
	if tr == s {
		t.Fatal("Traditional changed nothing")
	}
	if got := Fold(tr); got != s {
		t.Fatalf("Fold(Traditional(s)) = %q, want %q", got, s)
	}
}

// TestFoldTable: every entry is one traditional and one different
// simplified character, and no traditional character is listed twice
// with different simplified forms.
func TestFoldTable(t *testing.T) {
	seen := map[rune]rune{}
	for _, p := range strings.Fields(t2sPairs) {
		if utf8.RuneCountInString(p) != 2 {
			t.Errorf("entry %q is not two characters", p)
			continue
		}
		r := []rune(p)
		if r[0] == r[1] {
			t.Errorf("entry %q maps a character to itself", p)
		}
		if s, ok := seen[r[0]]; ok && s != r[1] {
			t.Errorf("%c maps to both %c and %c", r[0], s, r[1])
		}
		seen[r[0]] = r[1]
	}
	if len(seen) < 600 {
		t.Errorf("only %d characters in the table", len(seen))
	}
}

func BenchmarkFold(b *testing.B) {
	s := strings.Repeat("這個國家的森林資源調查顯示，林業發展進入新階段。", 20)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Fold(s)
	}
}
