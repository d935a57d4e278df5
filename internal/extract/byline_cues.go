package extract

import (
	"regexp"
	"strings"
)

// The byline cues and the patterns that read names and sources after
// them.

// Cue patterns. The value runs to the end of the line, to the next cue or
// to a separator; CleanAuthor trims it. The cue group tells whether a
// separator (：/|) follows: a value after a bare cue ("记者张三") must read
// as names, one after "作者：" may be any nickname.
var (
	authorCue = regexp.MustCompile(`(作\s*者|记\s*者|撰\s*稿\s*人?|撰\s*文|执\s*笔\s*人?|文\s*/|文\s*[｜|]|发\s*布\s*者|发\s*布\s*人|发\s*帖\s*人|发\s*表\s*人|楼\s*主|投\s*稿\s*人|通\s*讯\s*员|实\s*习\s*生|特\s*约\s*撰\s*稿|发\s*文\s*机\s*关|发\s*布\s*机\s*构|原\s*创)(\s*[:：/|｜]\s*)?`)
	editorCue = newColonCue("责任编辑", "责编", "编辑", "审核")
	sourceCue = newColonCue("来源", "出处", "稿源", "来自", "转自", "转载自", "信息来源", "文章来源")
	// A following cue ends a value: "作者：张三 来源：新华网 时间：…".
	nextCue = regexp.MustCompile(`\s*(?:作\s*者|记\s*者|来\s*源|出\s*处|责\s*任\s*编\s*辑|编\s*辑|时\s*间|日\s*期|发\s*布|发\s*表|更\s*新|点\s*击|浏\s*览|阅\s*读|字\s*号|字\s*体|分\s*享|打\s*印|评\s*论|关\s*注|审\s*核|摄\s*影|供\s*稿|通\s*讯\s*员|实\s*习\s*生|\d{4}\s*[-/.年]|\d{1,2}/\d{1,2}/\d{4}|【|\[|[|｜]|（|\()`)
	// （姚峰 上海报道）, (记者 张三 李四), （常书香 马丹阳）
	reportedBy = regexp.MustCompile(`[（(]\s*((?:(?:本报|本台|新华社)?(?:记者|通讯员|实习生)\s*)?\p{Han}{2,4}(?:[ 、，,]+(?:(?:记者|通讯员|实习生)\s*)?\p{Han}{2,4}){0,5}?)\s*(\p{Han}{2,3}报道)?\s*[）)]`)
	englishBy  = regexp.MustCompile(`(?i)^\s*(?:written\s+|posted\s+|story\s+|words\s+|text\s+)?by[:\s]+([\p{Lu}][^\n|•·]{1,80})`)
	// 由海姑娘张贴, ggjjzhzz 发表于 2005-9-15: the poster of a blog or
	// forum entry, next to its date.
	postedByZh  = regexp.MustCompile(`由\s*([^\s@|｜:：，。]{1,20}?)\s*(?:张贴|发表|发布|发帖|上传)\s*(?:于|@|在|[:：]|\d|$)`)
	postedAtZh  = regexp.MustCompile(`(?:^|[\s|｜])([^\s|｜:：，。@]{2,24})\s+(?:发表于|发布于|发帖于|写于|张贴于|于)\s*[:：]?\s*(?:19|20)\d{2}`)
	bracketName = regexp.MustCompile(`[\[【［]\s*(\p{Han}{2,4}(?:\s+\p{Han}{2,4}){0,3})\s*[\]】］]`)
	roleWords   = regexp.MustCompile(`(?:本报|本台|本网|新华社|特约|见习)?(?:记者|通讯员|实习生)`)
)

// authorPairs and sourcePairs are the first two characters of every
// author and source cue: a line without one of them (spaces between the
// two allowed) holds no cue, and the regexps are slow to say so.
var (
	authorPairs = cuePairs("作者", "记者", "撰稿", "撰文", "执笔", "文/", "文|", "文｜", "发布", "发帖",
		"发表", "楼主", "投稿", "通讯", "实习", "特约", "发文", "原创")
	sourcePairs = cuePairs("来源", "出处", "稿源", "来自", "转自", "转载", "信息", "文章")
	editorPairs = cuePairs("责任", "责编", "编辑", "审核")
)

func cuePairs(words ...string) map[[2]rune]bool {
	m := map[[2]rune]bool{}
	for _, w := range words {
		r := []rune(w)
		m[[2]rune{r[0], r[1]}] = true
	}
	return m
}

// hasCuePair tells whether s holds one of the pairs, white space between
// the two characters allowed.
func hasCuePair(s string, pairs map[[2]rune]bool) bool {
	return cuePairAt(s, pairs) >= 0
}

// cuePairAt is the offset of the first of the pairs in s, or -1: no cue
// match can start before it.
func cuePairAt(s string, pairs map[[2]rune]bool) int {
	prev, prevAt := rune(-1), 0
	for i, r := range s {
		if r < 0x80 && r != '/' && r != '|' {
			if r != ' ' && r != '\t' {
				prev = -1
			}
			continue
		}
		if isSpaceRune(r) {
			continue
		}
		if prev >= 0 && pairs[[2]rune{prev, r}] {
			return prevAt
		}
		prev, prevAt = r, i
	}
	return -1
}

// FindSource finds the source (来源/出处/转自 …) in text.
func FindSource(text string) string {
	return findCue(text, sourceCue, sourcePairs)
}

func findCue(text string, cue *colonCue, pairs map[[2]rune]bool) string {
	at := cuePairAt(text, pairs)
	if at < 0 {
		return ""
	}
	for range 8 {
		m := cue.index(text[at:])
		if m == nil {
			break
		}
		rest := text[at+m[1]:]
		at += m[1]
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			rest = rest[:i]
		}
		rest = strings.TrimLeft(rest, " |｜\t")
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
