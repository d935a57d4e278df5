package extract

import (
	"regexp"
	"testing"
)

// TestColonCues holds the source and editor cues to the regexps they
// stand for, on random text of cue characters, white space (some the
// regexps' \s does not take), colons and other text.
func TestColonCues(t *testing.T) {
	cues := []struct {
		cue *colonCue
		re  *regexp.Regexp
	}{
		{sourceCue, regexp.MustCompile(`(?:来\s*源|出\s*处|稿\s*源|来\s*自|转\s*自|转\s*载\s*自|信\s*息\s*来\s*源|文\s*章\s*来\s*源)\s*[:：]\s*`)},
		{editorCue, regexp.MustCompile(`(?:责\s*任\s*编\s*辑|责\s*编|编\s*辑|审\s*核)\s*[:：]\s*`)},
	}
	parts := []string{"来", "源", "出", "处", "稿", "自", "转", "载", "信", "息", "文", "章", "责", "任", "编", "辑", "审", "核",
		"来源", "责任编辑", " ", "  ", "\t", "\n", "\v", "\u3000", ":", "：", "x", "新华网", "\xe6", "é"}
	texts := randomTexts(8, 40000, 10, parts, "", "来源：新华网", "来 源 : x", "信息来源：", "文章来\n源:\t", "转载自：",
		"责任编辑：张三", "来源\v：", "来源")
	for _, c := range cues {
		found := 0
		for _, s := range texts {
			got, want := c.cue.index(s), c.re.FindStringIndex(s)
			if len(got) != len(want) || len(got) == 2 && (got[0] != want[0] || got[1] != want[1]) {
				t.Fatalf("index(%q) = %v, the regexp %s gives %v", s, got, c.re, want)
			}
			if want != nil {
				found++
			}
		}
		if found < 200 {
			t.Errorf("only %d texts hold a cue of %s: the test says little", found, c.re)
		}
	}
}
