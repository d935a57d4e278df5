package text

import (
	"reflect"
	"testing"
)

func TestTokensDomainWordsWhole(t *testing.T) {
	tk := NewTokenizer(Options{Dictionary: []string{"小班", "宜林地", "造林模式"}})
	got := tk.Tokens("该小班的宜林地适合采用造林模式。")
	want := []string{"小班", "宜林地", "适合", "采用", "造林模式"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Tokens = %q, want %q", got, want)
	}
}
