package score

import (
	"math"
	"slices"
	"strconv"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// appendScored appends the JSON object of the scored fields of sd, byte
// for byte as json.Encoder with SetEscapeHTML(false) writes scoredFields
// (without its newline), and reports false, having appended nothing,
// when a number is NaN or infinite (which encoding/json refuses with an
// error; the caller lets it say so). It writes the links of a doc without
// reflection, which on docs with hundreds of links is most of the cost
// of writing.
func appendScored(dst []byte, sd *record.ScoredDoc) ([]byte, bool) {
	if !finite(sd.Score) {
		return dst, false
	}
	for _, v := range sd.Scores {
		if !finite(v) {
			return dst, false
		}
	}
	for i := range sd.Links {
		if l := &sd.Links[i]; !finite(l.Priority) || !finite(l.Inherited) {
			return dst, false
		}
	}
	dst = append(dst, `{"score":`...)
	dst = jsonl.AppendFloat(dst, sd.Score)
	dst = append(dst, `,"relevant":`...)
	dst = strconv.AppendBool(dst, sd.Relevant)
	if len(sd.Scores) > 0 {
		dst = append(dst, `,"scores":{`...)
		keys := make([]string, 0, len(sd.Scores))
		for k := range sd.Scores {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonl.AppendString(dst, k)
			dst = append(dst, ':')
			dst = jsonl.AppendFloat(dst, sd.Scores[k])
		}
		dst = append(dst, '}')
	}
	if len(sd.Links) > 0 {
		dst = append(dst, `,"links":[`...)
		var ctx prevContext
		for i := range sd.Links {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendLink(dst, &sd.Links[i], &ctx)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}'), true
}

// prevContext is the last link context written and where its quoted
// form is in the output: the links of a block share their context.
type prevContext struct {
	s          string
	start, end int
}

// appendLink appends a record.ScoredLink as encoding/json writes it.
func appendLink(dst []byte, l *record.ScoredLink, prev *prevContext) []byte {
	dst = append(dst, `{"url":`...)
	dst = jsonl.AppendString(dst, l.URL)
	if l.Anchor != "" {
		dst = append(dst, `,"anchor":`...)
		dst = jsonl.AppendString(dst, l.Anchor)
	}
	if l.Context != "" {
		dst = append(dst, `,"context":`...)
		if prev.end > 0 && l.Context == prev.s {
			dst = append(dst, dst[prev.start:prev.end]...)
		} else {
			start := len(dst)
			dst = jsonl.AppendString(dst, l.Context)
			*prev = prevContext{l.Context, start, len(dst)}
		}
	}
	dst = append(dst, `,"block":`...)
	dst = strconv.AppendInt(dst, int64(l.Block), 10)
	dst = append(dst, `,"internal":`...)
	dst = strconv.AppendBool(dst, l.Internal)
	if l.Nofollow {
		dst = append(dst, `,"nofollow":true`...)
	}
	if l.Tag != "" {
		dst = append(dst, `,"tag":`...)
		dst = jsonl.AppendString(dst, l.Tag)
	}
	if len(l.Tokens) > 0 {
		dst = append(dst, `,"tokens":`...)
		dst = jsonl.AppendStrings(dst, l.Tokens)
	}
	dst = append(dst, `,"priority":`...)
	dst = jsonl.AppendFloat(dst, l.Priority)
	if l.Pruned {
		dst = append(dst, `,"pruned":true`...)
	}
	if l.Inherited != 0 {
		dst = append(dst, `,"inherited":`...)
		dst = jsonl.AppendFloat(dst, l.Inherited)
	}
	return append(dst, '}')
}

func finite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }
