package extract

import (
	"regexp"
	"testing"
)

// TestDateCue holds DateCue to the regexp it stands for, on random text
// made of cue words in any case (with "ſ" for "s"), their pieces, white
// space the regexp's \s takes and some it does not, colons and other
// text.
func TestDateCue(t *testing.T) {
	re := regexp.MustCompile(`(?i)(发布时间|发布日期|发表时间|发表日期|发表于|发布于|发稿时间|时间|日期|更新时间|Published( on)?|Posted( on)?|Updated( on)?|Date)\s*[:：]?\s*`)
	parts := []string{"Published", "published", "PUBLISHED", "publiſhed", "Posted", "poſted", "Updated", "upDated", "Date", "DATE",
		"date", " on", " ON", "on", " ", "  ", "\t", "\n", "\v", "\r", "\f", ":", "：", "\u3000", "发布", "发表", "发稿", "时间",
		"日期", "更新", "于", "发", "时", "日", "更", "a", "P", "u", "d", "x", "2017", "é", "ſ", "\u212a", "。"}
	texts := randomTexts(5, 30000, 8, parts, "", "Published on: 2017", "发布时间：2017年", "POSTED  on 3", "Updated\v: x",
		"poſted on", "Date:\n\t 1", "date on", "发表于 2005", "更新时间", "更新", "新时间", "publishe", "发布时", "Published  on", "Pu发布时间")
	for _, s := range texts {
		got, want := DateCue(s), re.FindStringIndex(s)
		if len(got) != len(want) || len(got) == 2 && (got[0] != want[0] || got[1] != want[1]) {
			t.Fatalf("DateCue(%q) = %v, the regexp gives %v", s, got, want)
		}
	}
}
