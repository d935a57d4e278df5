package segmenter

import (
	"iter"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/extract"
)

// dateCueAt is where dateCues starts to look: the first place a cue word
// (extract.DateCueWords) is written, or -1. English words are found by
// ASCII case folding only, so a cue written with "ſ" for "s" (which
// DateCue's Unicode folding accepts) is not looked for before it.
func dateCueAt(text string) int {
	at := -1
	chinese, english := extract.DateCueWords()
	for _, w := range chinese {
		if i := strings.Index(text, w); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	for _, w := range english {
		if i := indexFold(text, w); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	return at
}

// dateCues yields the date cues in text (at most 16), as offsets into
// text, one at a time: callers stop at the first that gives a date, and
// the text past it is never searched.
func dateCues(text string) iter.Seq[[2]int] {
	return func(yield func([2]int) bool) {
		at := dateCueAt(text)
		if at < 0 {
			return
		}
		for range 16 {
			m := extract.DateCue(text[at:])
			if m == nil || !yield([2]int{at + m[0], at + m[1]}) {
				return
			}
			at += m[1]
		}
	}
}
