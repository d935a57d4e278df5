package segmenter

import (
	"sort"
	"unicode"
	"unicode/utf8"
)

// Link contexts. A link's context is up to DefaultContextLen runes of its
// block's text around the anchor, the anchor centred (contextWindow), on
// one line: oneLine of that window. The windows of nearby links overlap
// (a menu's fifty links share most of their text), so linkContexts folds
// each run of overlapping windows onto one line once, and every context
// is a slice of it rather than a string folded anew.

// contextWindow is the piece text[lo:hi] around the anchor text[start:end]
// that the anchor's context is made of: up to limit runes, the anchor
// centred. An anchor of limit runes or more is its own context, cut to
// limit runes and given as cut (lo = hi = -1). ok is false for offsets
// outside text.
func contextWindow(text string, start, end, limit int) (lo, hi int, cut string, ok bool) {
	if start < 0 || end > len(text) || start > end {
		return 0, 0, "", false
	}
	anchorRunes := utf8.RuneCountInString(text[start:end])
	if anchorRunes >= limit {
		return -1, -1, truncRunes(text[start:end], limit), true
	}
	side := (limit - anchorRunes) / 2
	// Step back side runes by rune starts, not by decoding.
	lo, n := start, 0
	for lo > 0 && n < side {
		lo--
		if utf8.RuneStart(text[lo]) {
			n++
		}
	}
	rest := limit - anchorRunes - n
	hi, m := end, 0
	for hi < len(text) && m < rest {
		hi++
		for hi < len(text) && !utf8.RuneStart(text[hi]) {
			hi++
		}
		m++
	}
	return lo, hi, "", true
}

// linkContexts gives the contexts of a block's links, in their order:
// what oneLine makes of each one's contextWindow in text.
func linkContexts(text string, links []linkAt, limit int) []string {
	out := make([]string, len(links))
	type window struct{ link, lo, hi int }
	var run []window // overlapping windows, folded together: text[runLo:runHi]
	runLo, runHi := 0, 0
	fold := func() {
		if len(run) == 0 {
			return
		}
		f := foldText(text[runLo:runHi])
		for _, w := range run {
			out[w.link] = f.oneLine(w.lo-runLo, w.hi-runLo)
		}
		run = run[:0]
	}
	for i, l := range links {
		lo, hi, cut, ok := contextWindow(text, l.start, l.end, limit)
		switch {
		case !ok:
		case lo < 0:
			out[i] = cut
		default:
			if len(run) > 0 && (lo > runHi || hi < runLo) {
				fold()
			}
			if len(run) == 0 {
				runLo, runHi = lo, hi
			}
			runLo, runHi = min(runLo, lo), max(runHi, hi)
			run = append(run, window{i, lo, hi})
		}
	}
	fold()
	return out
}

// foldedText is a text folded onto one line as oneLine folds it (white
// space runs to one space, none at either end), with where its bytes
// moved, so that oneLine of a piece of the text is a slice of the folded
// one.
type foldedText struct {
	text, flat string
	// shifts are the offsets in text right after each white-space run that
	// folding shortened (any but a one-byte run between two words), in
	// order, each with how many bytes fewer flat has before it.
	shifts []foldShift
}

type foldShift struct{ at, fewer int }

func foldText(text string) *foldedText {
	f := &foldedText{text: text, flat: oneLine(text)}
	fewer := 0
	for i := 0; i < len(text); {
		if sp, n := fieldSpaceAt(text, i); !sp {
			i += n
			continue
		}
		j := i
		for j < len(text) {
			sp, n := fieldSpaceAt(text, j)
			if !sp {
				break
			}
			j += n
		}
		kept := 1 // one space between two words
		if i == 0 || j == len(text) {
			kept = 0 // none at either end
		}
		if j-i != kept {
			fewer += j - i - kept
			f.shifts = append(f.shifts, foldShift{j, fewer})
		}
		i = j
	}
	return f
}

// oneLine is oneLine(f.text[lo:hi]), lo and hi on rune boundaries.
func (f *foldedText) oneLine(lo, hi int) string {
	for lo < hi {
		sp, n := fieldSpaceAt(f.text, lo)
		if !sp {
			break
		}
		lo += n
	}
	for hi > lo {
		r, n := utf8.DecodeLastRuneInString(f.text[lo:hi])
		if !unicode.IsSpace(r) {
			break
		}
		hi -= n
	}
	if lo == hi {
		return ""
	}
	return f.flat[f.at(lo) : f.at(hi-1)+1]
}

// at is where the byte text[i], not white space, is in flat.
func (f *foldedText) at(i int) int {
	k := sort.Search(len(f.shifts), func(k int) bool { return f.shifts[k].at > i })
	if k == 0 {
		return i
	}
	return i - f.shifts[k-1].fewer
}

// fieldSpaceAt tells whether the rune at s[i] is white space as
// strings.Fields (and oneLine) reads it, and its length in bytes.
func fieldSpaceAt(s string, i int) (space bool, size int) {
	c := s[i]
	if c < utf8.RuneSelf {
		return c == ' ' || (c >= '\t' && c <= '\r'), 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	return unicode.IsSpace(r), size
}
