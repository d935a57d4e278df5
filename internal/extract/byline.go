package extract

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Cue patterns. The value runs to the end of the line, to the next cue or
// to a separator; CleanAuthor trims it. The cue group tells whether a
// separator (：/|) follows: a value after a bare cue ("记者张三") must read
// as names, one after "作者：" may be any nickname.
var (
	authorCue = regexp.MustCompile(`(作\s*者|记\s*者|撰\s*稿\s*人?|撰\s*文|执\s*笔\s*人?|文\s*/|文\s*[｜|]|发\s*布\s*者|发\s*布\s*人|发\s*帖\s*人|发\s*表\s*人|楼\s*主|投\s*稿\s*人|通\s*讯\s*员|实\s*习\s*生|特\s*约\s*撰\s*稿|发\s*文\s*机\s*关|发\s*布\s*机\s*构|原\s*创)(\s*[:：/|｜]\s*)?`)
	editorCue = regexp.MustCompile(`(?:责\s*任\s*编\s*辑|责\s*编|编\s*辑|审\s*核)\s*[:：]\s*`)
	sourceCue = regexp.MustCompile(`(?:来\s*源|出\s*处|稿\s*源|来\s*自|转\s*自|转\s*载\s*自|信\s*息\s*来\s*源|文\s*章\s*来\s*源)\s*[:：]\s*`)
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

// Zone is the text around an article's main content, where its byline
// is: the lines just before the content, the first and last lines of the
// content, and the lines just after it.
type Zone struct {
	Before, Head, Tail, After string
	// Title is the article's title: a short line right under it is the
	// author's name on many Chinese pages.
	Title string
}

// Text is the whole zone, parts separated by line breaks.
func (z Zone) Text() string {
	return z.Before + "\n" + z.Head + "\n" + z.Tail + "\n" + z.After
}

// FindAuthor finds the author in text by the Chinese cues 作者/记者/文/
// 撰稿 or an English "By …" byline at the start of a line. Editors
// (责任编辑/编辑) count only when nothing else names the author.
func FindAuthor(text string) string {
	return Zone{Tail: text}.Author()
}

// Author finds the author in the zone, by the rules below in order of
// trust:
//  1. cue bylines (作者/记者/撰稿/执笔/实习生/通讯员/发文机关 …), merging
//     the cue lines that follow one another ("本报实习生 A B" then
//     "本报记者 C D" gives all four);
//  2. the poster of a blog or forum entry (由X张贴, X 发表于 <date>);
//  3. reporters in brackets closing the article (（常书香 马丹阳）,
//     （姚峰 上海报道）);
//  4. a bare name on the line under the title, or a bracketed name on the
//     date line ([ 黄宇 ]);
//  5. a person's name given as the source (来源：尹娟);
//  6. an English "By …" line;
//  7. the editor (责任编辑/编辑).
//
// Names found without a cue word must read as Chinese personal names
// (LooksLikeChineseName), so navigation such as "记者调查" is not taken.
func (z Zone) Author() string {
	text := z.Text()
	lines := strings.Split(text, "\n")
	if v := cueAuthors(lines); v != "" {
		return v
	}
	for _, l := range lines {
		if !strings.ContainsAny(l, "由于") {
			continue
		}
		if m := postedByZh.FindStringSubmatch(l); m != nil {
			if v := CleanAuthor(m[1]); v != "" {
				return v
			}
		}
		if m := postedAtZh.FindStringSubmatch(l); m != nil {
			if v := CleanAuthor(m[1]); v != "" && !hasDigitsOnly(v) && !strings.ContainsAny(v, "()（）") {
				return v
			}
		}
	}
	if v := closingReporters(z.Tail + "\n" + z.After); v != "" {
		return v
	}
	if v := nameUnderTitle(z); v != "" {
		return v
	}
	for _, l := range lines {
		if !strings.ContainsAny(l, "[【［") || !lineHasDateOrSource(l) {
			continue
		}
		for _, m := range bracketName.FindAllStringSubmatch(l, 4) {
			if namesOnly(m[1]) {
				return strings.Join(nameTokens(m[1]), " ")
			}
		}
	}
	if v := FindSource(text); v != "" && namesOnly(v) && len(nameTokens(v)) <= 2 {
		return v
	}
	for _, line := range lines {
		if len(line) > 300 {
			continue
		}
		if m := englishBy.FindStringSubmatch(line); m != nil {
			if v := dropAffiliation(CleanAuthor(m[1])); v != "" && looksLikeName(v) {
				return v
			}
		}
	}
	return findCue(text, editorCue, editorPairs)
}

// cueAuthors reads the author cues line by line; the cue lines right
// after the first one that names someone add their names.
func cueAuthors(lines []string) string {
	var names []string
	found := -1
	for i, l := range lines {
		if found >= 0 {
			if strings.TrimSpace(l) == "" {
				continue
			}
			if i > found+3 {
				break
			}
		}
		v := authorsInLine(l)
		if v == "" {
			if found >= 0 {
				break
			}
			continue
		}
		names = append(names, v)
		found = i
	}
	return strings.Join(uniqStrings(names), " ")
}

// authorsInLine is the authors named after the cues of one line ("记者
// 张三 通讯员 李四" names both), or "".
func authorsInLine(line string) string {
	if len(line) > 1000 {
		line = line[:1000]
	}
	if !hasCuePair(line, authorPairs) {
		return "" // the regexp is slow to say no
	}
	var names []string
	for _, m := range authorCue.FindAllStringSubmatchIndex(line, 4) {
		strong := m[4] >= 0 && strings.ContainsAny(line[m[4]:m[5]], ":：/|｜")
		rest := strings.TrimLeft(line[m[1]:], " |｜\t】］]")
		if j := strings.IndexAny(rest, "）)】］"); j > 0 {
			rest = rest[:j] // a bracketed byline ends with its bracket: "（记者 A 通讯员 B）"
		}
		if loc := nextCue.FindStringIndex(rest); loc != nil {
			if loc[0] == 0 {
				continue
			}
			rest = rest[:loc[0]]
		}
		v := CleanAuthor(dropPlace(rest))
		if v == "" {
			continue
		}
		cue := strings.Join(strings.Fields(line[m[2]:m[3]]), "")
		switch {
		case cue == "发文机关" || cue == "发布机构":
			names = append(names, v) // an organisation signs official documents
		case strong:
			if !strings.ContainsAny(v, "。，！？；") && utf8.RuneCountInString(v) <= 24 {
				names = append(names, v)
			}
		case namesOnly(v):
			names = append(names, strings.Join(nameTokens(v), " "))
		}
	}
	return strings.Join(names, " ")
}

// dropPlace removes the place glued to 报道 after reporters' names:
// "彭冲 山东冠县报道" is 彭冲, reporting from 山东冠县.
func dropPlace(v string) string {
	v = strings.TrimSpace(v)
	f := strings.Fields(v)
	if len(f) >= 2 && strings.HasSuffix(f[len(f)-1], "报道") {
		return strings.Join(f[:len(f)-1], " ")
	}
	return v
}

// closingReporters reads the bracketed reporters that close a Chinese
// news story, on one of the last lines.
func closingReporters(text string) string {
	ms := reportedBy.FindAllStringSubmatchIndex(text, -1)
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		// It closes a paragraph: nothing but white space or a full stop
		// after it on its line ("《Running Man (越南版)》" is a title).
		after := text[m[1]:]
		if j := strings.IndexByte(after, '\n'); j >= 0 {
			after = after[:j]
		}
		if strings.TrimSpace(strings.Trim(after, " 。.")) != "" {
			continue
		}
		v := roleWords.ReplaceAllString(text[m[2]:m[3]], " ")
		if namesOnly(v) {
			return strings.Join(nameTokens(v), " ")
		}
	}
	return ""
}

// nameUnderTitle is a short line right under the title line, before the
// content proper: 2–3 Han characters (a pen name is allowed there; four
// are more often a label such as 简体中文), or up to four personal names.
func nameUnderTitle(z Zone) string {
	// Without a usable title, a line of one to three personal names
	// among the lines where the content starts.
	before := nonEmptyLines(z.Before)
	around := append(before[max(0, len(before)-2):], nonEmptyLines(z.Head)...)
	for i, l := range around {
		if i >= 4 {
			break
		}
		toks := nameTokens(l)
		if len(toks) == 0 || len(toks) > 3 {
			continue
		}
		short := true
		for _, t := range toks {
			short = short && utf8.RuneCountInString(t) <= 3
		}
		if short && namesOnly(l) {
			return strings.Join(toks, " ")
		}
	}
	title := normLine(z.Title)
	if title == "" {
		return ""
	}
	lines := strings.Split(z.Before+"\n"+z.Head, "\n")
	for i, l := range lines {
		nl := normLine(l)
		if nl == "" || (nl != title && !(strings.Contains(nl, title) && len(nl) < 2*len(title))) {
			continue
		}
		for j := i + 1; j < len(lines) && j <= i+4; j++ {
			c := strings.TrimSpace(lines[j])
			if c == "" {
				continue
			}
			if namesOnly(c) {
				return strings.Join(nameTokens(c), " ")
			}
			if n := utf8.RuneCountInString(c); n >= 2 && n <= 3 && allHan(c) && !notNames[c] && !isLabel(c) {
				return c
			}
			break
		}
	}
	return ""
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// isLabel: short words that stand alone under titles but name no one.
func isLabel(s string) bool {
	switch s {
	case "摘要", "导读", "正文", "简介", "图片", "视频", "打印", "关闭", "分享", "评论", "原文",
		"全文", "返回", "首页", "目录", "前言", "引言", "序言", "附件", "内容提要", "编者按":
		return true
	}
	return false
}

func allHan(s string) bool {
	for _, r := range s {
		if !unicode.Is(unicode.Han, r) {
			return false
		}
	}
	return true
}

func normLine(s string) string {
	var sb strings.Builder
	for _, r := range s {
		if isSpaceRune(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) {
			continue
		}
		sb.WriteRune(unicode.ToLower(r))
	}
	return sb.String()
}

func lineHasDateOrSource(l string) bool {
	if len(l) > 400 {
		return false
	}
	if sourceCue.MatchString(l) {
		return true
	}
	_, _, _, ok := FindDate(l, nil)
	return ok
}

func hasDigitsOnly(v string) bool {
	return strings.TrimFunc(v, unicode.IsDigit) == ""
}

func uniqStrings(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range s {
		for _, t := range strings.Fields(v) {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// FindSource finds the source (来源/出处/转自 …) in text.
func FindSource(text string) string {
	return findCue(text, sourceCue, sourcePairs)
}

func findCue(text string, cue *regexp.Regexp, pairs map[[2]rune]bool) string {
	at := cuePairAt(text, pairs)
	if at < 0 {
		return ""
	}
	text = text[at:] // the regexp is slow to skip what cannot match
	for _, m := range cue.FindAllStringIndex(text, 8) {
		rest := text[m[1]:]
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

// CleanAuthor trims a byline value: white space collapsed, "By", 报道,
// 摄 and punctuation around it removed, overlong values refused. A name
// typeset with a space between its two characters (赵 培) is joined.
func CleanAuthor(v string) string {
	if i := strings.IndexAny(v, "：:"); i > 0 && strings.TrimSpace(v[:i]) != "" && allHan(strings.ReplaceAll(strings.TrimSpace(v[:i]), " ", "")) {
		v = v[:i] // 赵 培：北京物资学院 (name, then affiliation)
	}
	v = strings.Join(strings.FieldsFunc(v, isSpaceRune), " ")
	v = strings.TrimFunc(v, func(r rune) bool {
		return unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r)
	})
	low := strings.ToLower(v)
	if strings.HasPrefix(low, "by ") {
		v = strings.TrimSpace(v[3:])
	}
	// A byline runs on into its date ("Jane Doe on March 10, 2015",
	// "JANE DOE JULY 29, 2016"): the name ends where the date starts.
	if _, start, _, ok := FindDate(v, nil); ok && start > 0 {
		v = strings.TrimSpace(v[:start])
		for _, suf := range []string{" on", " at", " |", " -", " —", ",", " ·", " •"} {
			v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), suf))
		}
		v = strings.TrimSpace(trimMonthWord(v))
	}
	// A handle after the name ("Jane Doe @jane", "Jane Doe@jane") is not
	// part of it, nor a role or a status after a dash ("Jane Doe - Staff
	// Writer", "Jane Doe Updated").
	if i := strings.IndexByte(v, '@'); i > 0 {
		rest := v[i+1:]
		if j := strings.IndexAny(rest, " \t"); j >= 0 {
			rest = rest[:j]
		}
		v = v[:i]
		if strings.Contains(rest, ".") { // an e-mail address: drop its local part too
			if j := strings.LastIndexAny(v, " \t"); j >= 0 {
				v = v[:j]
			} else {
				v = ""
			}
		}
		v = strings.TrimSpace(v)
	}
	v = strings.ReplaceAll(v, " ,", ",")
	for _, sep := range []string{" - ", " — ", " – ", " | "} {
		if i := strings.Index(v, sep); i > 0 && looksLikeName(v[:i]) {
			v = strings.TrimSpace(v[:i])
		}
	}
	v = trimTrailingWords(v)
	for _, suf := range []string{"报道", "摄影", "摄", "整理", "编译", "供稿", "撰文"} {
		v = strings.TrimSpace(strings.TrimSuffix(v, suf))
	}
	for _, pre := range []string{"本报记者", "本台记者", "本网记者", "新华社记者", "特约记者", "见习记者", "记者", "通讯员", "本报实习生", "实习生"} {
		v = strings.TrimSpace(strings.TrimPrefix(v, pre))
	}
	v = strings.TrimFunc(v, func(r rune) bool {
		return unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r)
	})
	if v == "" || utf8.RuneCountInString(v) > 40 || strings.ContainsAny(v, "=<>\"{}") {
		return ""
	}
	if f := strings.Fields(v); len(f) == 2 && utf8.RuneCountInString(f[0]) == 1 &&
		utf8.RuneCountInString(f[1]) == 1 && allHan(f[0]+f[1]) {
		v = f[0] + f[1]
	}
	return v
}

// trailingWords end English bylines without being names.
var trailingWords = map[string]bool{
	"updated": true, "published": true, "posted": true, "on": true, "at": true, "and": true,
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true,
	"saturday": true, "sunday": true, "mon": true, "tue": true, "wed": true, "thu": true,
	"fri": true, "sat": true, "sun": true,
}

func trimTrailingWords(v string) string {
	f := strings.Fields(v)
	for len(f) > 1 && trailingWords[strings.ToLower(strings.Trim(f[len(f)-1], ",.;:"))] {
		f = f[:len(f)-1]
	}
	return strings.TrimRight(strings.Join(f, " "), " ,;:·•|-—")
}

// trimMonthWord drops a trailing month name left by a date the parser
// read without it ("JOHN DOE JAN. 13" before ", 2017").
func trimMonthWord(v string) string {
	f := strings.Fields(v)
	if len(f) > 1 {
		last := strings.ToLower(strings.TrimSuffix(f[len(f)-1], "."))
		if _, ok := monthNames[last[:min(len(last), 3)]]; ok && len(last) <= 9 && isMonthWord(last) {
			return strings.Join(f[:len(f)-1], " ")
		}
	}
	return v
}

func isMonthWord(w string) bool {
	for _, m := range []string{"january", "february", "march", "april", "may", "june", "july",
		"august", "september", "october", "november", "december", "sept"} {
		if w == m || (len(w) >= 3 && strings.HasPrefix(m, w)) {
			return true
		}
	}
	return false
}

// looksLikeName: an English byline is a few capitalised words.
func looksLikeName(v string) bool {
	f := strings.Fields(v)
	if len(f) == 0 || len(f) > 8 {
		return false
	}
	return unicode.IsUpper([]rune(f[0])[0])
}

// affiliationWords name an agency, a paper or a role, never a person.
var affiliationWords = map[string]bool{
	"press": true, "associated": true, "reuters": true, "ap": true, "afp": true, "bloomberg": true,
	"staff": true, "writer": true, "reporter": true, "correspondent": true, "editor": true,
	"contributor": true, "columnist": true, "times": true, "news": true, "post": true,
	"journal": true, "agency": true, "wire": true, "service": true, "magazine": true, "herald": true,
	"tribune": true, "daily": true, "telegraph": true, "guardian": true, "globe": true,
}

// dropAffiliation cuts an English byline at the first comma-separated
// part that names an agency or a role: "Jane Doe, Associated Press" is
// Jane Doe, while "Jane Doe, John Roe" stays two names.
func dropAffiliation(v string) string {
	parts := strings.Split(v, ",")
	for i, p := range parts {
		if i == 0 {
			continue
		}
		for _, w := range strings.Fields(strings.ToLower(p)) {
			if affiliationWords[strings.Trim(w, ".;:()")] {
				return strings.TrimSpace(strings.Join(parts[:i], ","))
			}
		}
	}
	return v
}
