package extract

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Cue patterns. The value runs to the end of the line, to the next cue or
// to a separator; CleanAuthor trims it.
var (
	authorCue = regexp.MustCompile(`(?:作\s*者|记\s*者|撰\s*稿|撰\s*文|文\s*/|文\s*[｜|]|发\s*布\s*者|发\s*帖\s*人|楼\s*主|投\s*稿\s*人|通\s*讯\s*员)\s*[:：/|｜]?\s*`)
	editorCue = regexp.MustCompile(`(?:责\s*任\s*编\s*辑|责\s*编|编\s*辑|审\s*核)\s*[:：]\s*`)
	sourceCue = regexp.MustCompile(`(?:来\s*源|出\s*处|稿\s*源|来\s*自|转\s*自|转\s*载\s*自|信\s*息\s*来\s*源|文\s*章\s*来\s*源)\s*[:：]\s*`)
	// A following cue ends a value: "作者：张三 来源：新华网 时间：…".
	nextCue = regexp.MustCompile(`\s*(?:作\s*者|记\s*者|来\s*源|出\s*处|责\s*任\s*编\s*辑|编\s*辑|时\s*间|日\s*期|发\s*布|发\s*表|更\s*新|点\s*击|浏\s*览|阅\s*读|字\s*号|字\s*体|分\s*享|打\s*印|评\s*论|关\s*注|审\s*核|摄\s*影|供\s*稿|通\s*讯\s*员|\d{4}\s*[-/.年]|【|\[|[|｜]|（|\()`)
	// （姚峰 上海报道）, (记者 张三 李四)
	reportedBy = regexp.MustCompile(`[（(]\s*(?:记者\s*)?(\p{Han}{2,4}(?:[ 、]\p{Han}{2,4}){0,4}?)\s*(?:\p{Han}{2,3})?报道\s*[）)]`)
	englishBy  = regexp.MustCompile(`(?i)^\s*(?:written\s+|posted\s+|story\s+|words\s+|text\s+)?by[:\s]+([\p{Lu}][^\n|•·]{1,80})`)
)

// FindAuthor finds the author in text by the Chinese cues 作者/记者/文/
// 撰稿 or an English "By …" byline at the start of a line. Editors
// (责任编辑/编辑) count only when nothing else names the author.
func FindAuthor(text string) string {
	if v := findCue(text, authorCue); v != "" {
		return v
	}
	if m := reportedBy.FindStringSubmatch(text); m != nil {
		if v := CleanAuthor(m[1]); v != "" {
			return v
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if len(line) > 300 {
			continue
		}
		if m := englishBy.FindStringSubmatch(line); m != nil {
			if v := CleanAuthor(m[1]); v != "" && looksLikeName(v) {
				return v
			}
		}
	}
	return findCue(text, editorCue)
}

// FindSource finds the source (来源/出处/转自 …) in text.
func FindSource(text string) string {
	return findCue(text, sourceCue)
}

func findCue(text string, cue *regexp.Regexp) string {
	for _, m := range cue.FindAllStringIndex(text, 8) {
		rest := text[m[1]:]
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			rest = rest[:i]
		}
		if loc := nextCue.FindStringIndex(rest); loc != nil {
			if loc[0] == 0 {
				continue
			}
			rest = rest[:loc[0]]
		}
		if v := CleanAuthor(rest); v != "" {
			return v
		}
	}
	return ""
}

// CleanAuthor trims a byline value: white space collapsed, "By", 报道,
// 摄 and punctuation around it removed, overlong values refused.
func CleanAuthor(v string) string {
	v = strings.Join(strings.FieldsFunc(v, func(r rune) bool {
		return unicode.IsSpace(r) || r == '\u3000' || r == '\u00a0'
	}), " ")
	v = strings.TrimFunc(v, func(r rune) bool {
		return unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r)
	})
	low := strings.ToLower(v)
	if strings.HasPrefix(low, "by ") {
		v = strings.TrimSpace(v[3:])
	}
	for _, suf := range []string{"报道", "摄影", "摄", "整理", "编译", "供稿", "撰文"} {
		v = strings.TrimSpace(strings.TrimSuffix(v, suf))
	}
	for _, pre := range []string{"本报记者", "本台记者", "本网记者", "新华社记者", "特约记者", "见习记者", "记者", "通讯员"} {
		v = strings.TrimSpace(strings.TrimPrefix(v, pre))
	}
	v = strings.TrimFunc(v, func(r rune) bool {
		return unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r)
	})
	if v == "" || utf8.RuneCountInString(v) > 40 || strings.ContainsAny(v, "=<>\"{}") {
		return ""
	}
	return v
}

// looksLikeName: an English byline is a few capitalised words.
func looksLikeName(v string) bool {
	f := strings.Fields(v)
	if len(f) == 0 || len(f) > 8 {
		return false
	}
	return unicode.IsUpper([]rune(f[0])[0])
}
