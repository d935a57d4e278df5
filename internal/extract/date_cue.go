package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Date cues: the words that introduce a publication time in visible text.
// A cue is what the regexp
//
//	(?i)(发布时间|发布日期|发表时间|发表日期|发表于|发布于|发稿时间|时间|日期|更新时间|Published( on)?|Posted( on)?|Updated( on)?|Date)\s*[:：]?\s*
//
// matches; DateCue finds it without the regexp, which spends most of its
// time trying every byte of a long text (TestDateCue holds the two
// together).

// The regexp's cue words: the Chinese ones (no case to fold) and the
// English ones, lower case, each of which may take " on" after it but
// "date".
var (
	chineseCueWords = []string{"发布时间", "发布日期", "发表时间", "发表日期", "发表于", "发布于", "发稿时间", "时间", "日期", "更新时间"}
	englishCueWords = []string{"published", "posted", "updated", "date"}
)

// DateCueWords gives the cue words: the Chinese ones as written, the
// English ones in lower case (DateCue folds their case). A caller that
// skips to the first place one is written before calling DateCue reads
// them here, so that the words are written once.
func DateCueWords() (chinese, english []string) {
	return chineseCueWords, englishCueWords
}

// DateCue is the offsets of the leftmost date cue in text ("发布时间：",
// "Published on "), as the regexp's FindStringIndex gives them, or nil.
func DateCue(text string) []int {
	for i := 0; i < len(text); i++ {
		n := -1
		switch text[i] {
		case 0xE5, 0xE6: // the first byte of 发, 时, 日 and 更
			n = wordAt(text[i:], chineseCueWords, func(s, w string) int {
				if strings.HasPrefix(s, w) {
					return len(w)
				}
				return -1
			})
		case 'p', 'P', 'u', 'U', 'd', 'D':
			if n = wordAt(text[i:], englishCueWords, foldedPrefix); n >= 0 && text[i]|0x20 != 'd' { // "date" takes no " on"
				if m := foldedPrefix(text[i+n:], " on"); m >= 0 {
					n += m
				}
			}
		}
		if n < 0 {
			continue
		}
		end := skipRegexpSpace(text, i+n)
		switch {
		case strings.HasPrefix(text[end:], ":"):
			end++
		case strings.HasPrefix(text[end:], "："):
			end += len("：")
		}
		return []int{i, skipRegexpSpace(text, end)}
	}
	return nil
}

// wordAt is the length of the first of words that s starts with, by
// prefix (the length of that prefix of s, or -1), or -1. No two cue
// words start the same text, so the regexp's order of preference does
// not matter.
func wordAt(s string, words []string, prefix func(s, w string) int) int {
	for _, w := range words {
		if n := prefix(s, w); n >= 0 {
			return n
		}
	}
	return -1
}

// foldedPrefix is the length of the prefix of s that (?i) matches to w,
// or -1: each rune must be one that case folding makes equal to w's
// (unicode.SimpleFold: "s" also matches "ſ", U+017F), as the regexp has it.
func foldedPrefix(s, w string) int {
	n := 0
	for _, c := range w {
		r, size := utf8.DecodeRuneInString(s[n:])
		if size == 0 || !sameFold(r, c) {
			return -1
		}
		n += size
	}
	return n
}

// sameFold tells whether r is in c's case folding orbit.
func sameFold(r, c rune) bool {
	for f := c; ; {
		if f == r {
			return true
		}
		if f = unicode.SimpleFold(f); f == c {
			return false
		}
	}
}
