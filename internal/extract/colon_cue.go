package extract

import (
	"slices"
	"unicode/utf8"
)

// colonCue is a cue of the form the regexp
//
//	(?:w1|w2|…)\s*[:：]\s*
//
// matches, each word's characters with \s* between them (来\s*源): a
// source or editor cue. index finds it without the regexp, which spends
// its time trying every byte of a long text that holds no cue
// (TestColonCues holds the two together). The words are Chinese, so no
// case folds.
type colonCue struct {
	words [][]rune
	first []rune // the words' first characters
}

func newColonCue(words ...string) *colonCue {
	c := &colonCue{}
	for _, w := range words {
		r := []rune(w)
		c.words = append(c.words, r)
		if !slices.Contains(c.first, r[0]) {
			c.first = append(c.first, r[0])
		}
	}
	return c
}

// index is the offsets of the cue's leftmost match in text, as the
// regexp's FindStringIndex gives them, or nil.
func (c *colonCue) index(text string) []int {
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if slices.Contains(c.first, r) {
			if end := c.endAt(text, i); end >= 0 {
				return []int{i, end}
			}
		}
		i += n
	}
	return nil
}

// endAt is the end of the cue's match that starts at text[i], or -1: the
// first word, in the regexp's order, that matches there and is followed
// by the colon.
func (c *colonCue) endAt(text string, i int) int {
	for _, w := range c.words {
		j, ok := i, true
		for k, r := range w {
			if k > 0 {
				j = skipRegexpSpace(text, j)
			}
			got, n := utf8.DecodeRuneInString(text[j:])
			if n == 0 || got != r {
				ok = false
				break
			}
			j += n
		}
		if !ok {
			continue
		}
		j = skipRegexpSpace(text, j)
		switch {
		case j < len(text) && text[j] == ':':
			j++
		case j+len("：") <= len(text) && text[j:j+len("：")] == "：":
			j += len("：")
		default:
			continue
		}
		return skipRegexpSpace(text, j)
	}
	return -1
}

// skipRegexpSpace skips what the regexps' \s matches: ASCII white space
// but \v.
func skipRegexpSpace(text string, i int) int {
	for i < len(text) {
		switch text[i] {
		case ' ', '\t', '\n', '\f', '\r':
			i++
		default:
			return i
		}
	}
	return i
}
