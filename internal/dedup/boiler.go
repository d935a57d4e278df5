package dedup

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// boilerCues are the phrases of lines that are page furniture rather
// than text, lower-cased: copyright and licence lines, site operator and
// contact lines, breadcrumbs, print/share/subscribe prompts, and bylines
// with dates, sources and view counts — what a copy of an article on
// another site, or fetched on another day, changes. Literal phrases, not a
// regular expression: every line of every document is checked.
var boilerCues = []string{
	"©", "(c) ", "copyright", "all rights reserved", "privacy policy", "terms of use", "terms of service",
	"cookie", "subscribe", "newsletter", "advertis", "contact us", "share this", "follow us",
	"published", "updated", "posted by", "written by",
	"版权所有", "版权声明", "icp备", "icp证", "备案号", "网站标识码", "主办单位", "承办单位", "技术支持",
	"主办:", "承办:", "主办：", "承办：", "联系电话", "电话:", "电话：", "传真:", "传真：", "邮编:", "邮编：",
	"邮箱:", "邮箱：", "地址:", "地址：", "当前位置", "您的位置", "现在的位置", "打印本页", "关闭窗口",
	"收藏本页", "分享到", "加入收藏", "设为首页", "发布时间", "发布日期", "更新时间", "来源:", "来源：",
	"作者:", "作者：", "责任编辑", "编辑:", "编辑：", "浏览次数", "点击数", "阅读次数", "字号:", "字号：",
}

// cuesByRune lists the cues by their first character, so a line is
// scanned once instead of once per cue; cueStart marks those characters
// (within the Basic Multilingual Plane, where all of them are) so most
// characters cost one bit test.
var (
	cuesByRune = map[rune][]string{}
	cueStart   [1 << 16 / 64]uint64
)

func init() {
	for _, c := range boilerCues {
		r, _ := utf8.DecodeRuneInString(c)
		cuesByRune[r] = append(cuesByRune[r], c)
		cueStart[r>>6] |= 1 << (r & 63)
	}
}

// hasBoilerCue tells whether line holds one of boilerCues (ASCII letters
// compared without case), or starts "By Name" (an English byline).
func hasBoilerCue(line string) bool {
	for i, r := range line {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		if r >= 1<<16 || cueStart[r>>6]&(1<<(r&63)) == 0 {
			continue
		}
		for _, c := range cuesByRune[r] {
			if len(line)-i >= len(c) && strings.EqualFold(line[i:i+len(c)], c) {
				return true
			}
		}
	}
	if len(line) > 3 && strings.EqualFold(line[:3], "by ") {
		r, _ := utf8.DecodeRuneInString(strings.TrimSpace(line[3:]))
		return unicode.IsUpper(r)
	}
	return false
}

// isNavSeparator tells whether r splits the items of a navigation bar.
func isNavSeparator(r rune) bool {
	switch r {
	case '|', '｜', '·', '•', '»', '>':
		return true
	}
	return false
}

// maxBoilerRunes: longer lines are text even when they hold a cue.
const maxBoilerRunes = 160

// isBoilerLine tells whether a line of content is page furniture: a short
// line with a boilerplate cue, or a navigation bar (three or more short
// items between separators).
func isBoilerLine(line string) bool {
	n := utf8.RuneCountInString(line)
	if n == 0 || n > maxBoilerRunes {
		return false
	}
	if hasBoilerCue(line) {
		return true
	}
	if strings.IndexFunc(line, isNavSeparator) < 0 {
		return false
	}
	items := strings.FieldsFunc(line, isNavSeparator)
	if len(items) >= 3 {
		short := 0
		for _, it := range items {
			if utf8.RuneCountInString(strings.TrimSpace(it)) <= 12 {
				short++
			}
		}
		return short*4 >= len(items)*3
	}
	return false
}

// stripBoiler drops the boilerplate lines of s (isBoilerLine). It
// returns s itself when there are none.
func stripBoiler(s string) string {
	if !strings.ContainsAny(s, "\n") {
		if isBoilerLine(strings.TrimSpace(s)) {
			return ""
		}
		return s
	}
	var b strings.Builder
	dropped := false
	for line := range strings.Lines(s) {
		if isBoilerLine(strings.TrimSpace(line)) {
			dropped = true
			continue
		}
		b.WriteString(line)
	}
	if !dropped {
		return s
	}
	return b.String()
}
