package topic

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Go's regexp has no literal scan ahead of an unanchored search, so a
// pattern such as 加入购物车|立即购买 walks every byte of a page through
// the NFA: about 1 ms per 20 KB of Chinese text. A prefilter holds literals
// one of which every match must contain; strings.Contains on them is a
// hundred times cheaper, and a page that holds none of them cannot match,
// so the regexp runs only on pages that might.

// maxLiterals bounds a prefilter's alternatives; past it the regexp runs
// unfiltered.
const maxLiterals = 64

// literal is a string a match must contain; when fold is set it is in
// canonical case-folded form and is looked for in the folded text.
type literal struct {
	s    string
	fold bool
}

// prefilter is a set of literals, one of which every match contains. A nil
// prefilter lets everything through.
type prefilter []literal

// newPrefilter derives the prefilter of a compiled regexp.
func newPrefilter(re *regexp.Regexp) prefilter {
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	return required(parsed.Simplify()).minimal()
}

// minimal drops every literal that contains another literal of the same
// kind: a text holding "著)" holds "著", so the longer one adds nothing.
func (p prefilter) minimal() prefilter {
	var out prefilter
	for i, l := range p {
		redundant := false
		for j, m := range p {
			if i != j && l.fold == m.fold && strings.Contains(l.s, m.s) && (len(m.s) < len(l.s) || j < i) {
				redundant = true
				break
			}
		}
		if !redundant {
			out = append(out, l)
		}
	}
	return out
}

// required returns literals one of which every match of re contains, or
// nil when there is no such set.
func required(re *syntax.Regexp) prefilter {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return nil
		}
		s := string(re.Rune)
		if re.Flags&syntax.FoldCase != 0 {
			return prefilter{{foldString(s), true}}
		}
		return prefilter{{s, false}}
	case syntax.OpCharClass:
		// A small class ([¥￥], [:：]) is a set of one-rune literals; the
		// parser has already added the case variants of a (?i) class.
		var out prefilter
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi-lo >= 8 || len(out)+int(hi-lo)+1 > 8 {
				return nil
			}
			for r := lo; r <= hi; r++ {
				out = append(out, literal{string(r), false})
			}
		}
		return out
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
		return nil
	case syntax.OpConcat:
		// Every part of a concatenation is in the match. Runs of parts that
		// match a small finite set of strings (97[89]-, 现(价|卖价)) are
		// multiplied out into longer literals; then the most selective
		// candidate wins.
		var best prefilter
		consider := func(p prefilter) {
			if p != nil && (best == nil || p.better(best)) {
				best = p
			}
		}
		var run prefilter
		flush := func() {
			if run != nil && run.minLen() > 0 {
				consider(run.minimal())
			}
			run = nil
		}
		for _, sub := range re.Sub {
			if ex, ok := exact(sub); ok {
				if run == nil {
					run = ex
				} else if p, ok := product(run, ex); ok {
					run = p
				} else {
					flush()
					run = ex
				}
				continue
			}
			flush()
			consider(required(sub))
		}
		flush()
		return best
	case syntax.OpAlternate:
		var out prefilter
		for _, sub := range re.Sub {
			p := required(sub)
			if p == nil || len(out)+len(p) > maxLiterals {
				return nil
			}
			out = append(out, p...)
		}
		return out
	}
	return nil
}

// exact returns every string re can match, when that is a small finite
// set (empty strings included).
func exact(re *syntax.Regexp) (prefilter, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return prefilter{{"", false}}, true
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return prefilter{{foldString(string(re.Rune)), true}}, true
		}
		return prefilter{{string(re.Rune), false}}, true
	case syntax.OpCharClass:
		p := required(re)
		return p, p != nil
	case syntax.OpCapture:
		return exact(re.Sub[0])
	case syntax.OpQuest:
		p, ok := exact(re.Sub[0])
		if !ok || len(p)+1 > maxLiterals {
			return nil, false
		}
		return append(prefilter{{"", false}}, p...), true
	case syntax.OpConcat:
		out := prefilter{{"", false}}
		for _, sub := range re.Sub {
			p, ok := exact(sub)
			if !ok {
				return nil, false
			}
			if out, ok = product(out, p); !ok {
				return nil, false
			}
		}
		return out, true
	case syntax.OpAlternate:
		var out prefilter
		for _, sub := range re.Sub {
			p, ok := exact(sub)
			if !ok || len(out)+len(p) > maxLiterals {
				return nil, false
			}
			out = append(out, p...)
		}
		return out, true
	}
	return nil, false
}

// product concatenates every literal of a with every literal of b. A
// folded half folds the whole: a plain substring of the text is still a
// substring of the folded text.
func product(a, b prefilter) (prefilter, bool) {
	if len(a)*len(b) > maxLiterals {
		return nil, false
	}
	out := make(prefilter, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			l := literal{x.s + y.s, x.fold || y.fold}
			if l.fold && !(x.fold && y.fold) {
				l.s = foldString(l.s)
			}
			out = append(out, l)
		}
	}
	return out, true
}

// better reports whether p is a more selective filter than q: a longer
// shortest literal, then fewer literals.
func (p prefilter) better(q prefilter) bool {
	if a, b := p.minLen(), q.minLen(); a != b {
		return a > b
	}
	return len(p) < len(q)
}

func (p prefilter) minLen() int {
	m := 1 << 30
	for _, l := range p {
		m = min(m, len(l.s))
	}
	return m
}

// mayMatch reports whether text holds one of the literals. folded gives the
// case-folded text, computed at most once per text.
func (p prefilter) mayMatch(text string, folded *foldedText) bool {
	if p == nil {
		return true
	}
	for _, l := range p {
		t := text
		if l.fold {
			t = folded.get(text)
		}
		if strings.Contains(t, l.s) {
			return true
		}
	}
	return false
}

// foldedText caches the folded form of one text.
type foldedText struct {
	s    string
	done bool
}

func (f *foldedText) get(text string) string {
	if !f.done {
		f.s, f.done = foldString(text), true
	}
	return f.s
}

// foldString maps every rune to the smallest rune of its case-folding
// orbit (the one regexp's (?i) uses: k, K and the Kelvin sign K all
// become K; s, S and ſ become S), so that a (?i) match in the text is a
// plain substring of the folded text.
func foldString(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		m := r
		if r >= 0x2E80 && r < 0xA000 { // CJK, kana, Hangul compatibility: no case
			b.WriteRune(r)
			continue
		}
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		b.WriteRune(m)
	}
	return b.String()
}
