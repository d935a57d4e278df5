package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

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
// (责任编辑/编辑) are not authors (Zone.Editor).
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
//  6. an English "By …" line.
//
// The editor (责任编辑/编辑) is not the author: see Editor.
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
	return ""
}

// Editor is the editor the zone names (责任编辑, 编辑, 责编, 审核): who
// checked the story, not who wrote it, so never the author.
func (z Zone) Editor() string {
	return findCue(z.Text(), editorCue, editorPairs)
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
	// The title line is found by the page's title, else by the content's
	// first line, which is the headline as the page shows it when the
	// page's title names only the site.
	lines := strings.Split(z.Before+"\n"+z.Head, "\n")
	heads := []string{normLine(z.Title)}
	if h := nonEmptyLines(z.Head); len(h) > 0 && utf8.RuneCountInString(h[0]) <= 80 {
		heads = append(heads, normLine(h[0]))
	}
	for _, title := range heads {
		if title == "" {
			continue
		}
		if v := underTitleLine(lines, title); v != "" {
			return v
		}
	}
	return ""
}

// underTitleLine is the name on the short line under the title line: a
// line equal to the title, holding it with less than as much again, or
// the headline alone when the title carries more ("茉莉：我是怎样卷入八九
// 民运的" over the line "我是怎样卷入八九民运的").
func underTitleLine(lines []string, title string) string {
	for i, l := range lines {
		nl := normLine(l)
		if nl == "" || (nl != title && !(strings.Contains(nl, title) && len(nl) < 2*len(title)) &&
			!(strings.Contains(title, nl) && 2*len(nl) >= len(title))) {
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
	if sourceCue.index(l) != nil {
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
