package report

import (
	"container/heap"
	"context"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// parseRuns reads the info list of run starts (frontier.InfoRuns); a
// time that does not parse is passed over.
func parseRuns(list string) []Run {
	var runs []Run
	for _, s := range strings.Split(list, ",") {
		if t, err := time.Parse(time.RFC3339, strings.TrimSpace(s)); err == nil {
			runs = append(runs, Run{Start: t})
		}
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].Start.Before(runs[j].Start) })
	return runs
}

// topPages keeps the n relevant pages of highest score (a min-heap).
type topPages struct {
	n     int
	pages []FoundPage
}

func newTopPages(n int) *topPages { return &topPages{n: n} }

func (t *topPages) Len() int { return len(t.pages) }
func (t *topPages) Less(i, j int) bool {
	return worse(t.pages[i], t.pages[j])
}
func (t *topPages) Swap(i, j int) { t.pages[i], t.pages[j] = t.pages[j], t.pages[i] }
func (t *topPages) Push(x any)    { t.pages = append(t.pages, x.(FoundPage)) }
func (t *topPages) Pop() any {
	p := t.pages[len(t.pages)-1]
	t.pages = t.pages[:len(t.pages)-1]
	return p
}

// worse orders pages by score, then by URL (the later URL is worse), so
// the list does not depend on the order of the history.
func worse(a, b FoundPage) bool {
	if a.Score != b.Score {
		return a.Score < b.Score
	}
	return a.URL > b.URL
}

func (t *topPages) add(p FoundPage) {
	if len(t.pages) < t.n {
		heap.Push(t, p)
		return
	}
	if worse(t.pages[0], p) {
		t.pages[0] = p
		heap.Fix(t, 0)
	}
}

// sorted returns the pages kept, best first.
func (t *topPages) sorted() []FoundPage {
	out := append([]FoundPage(nil), t.pages...)
	sort.Slice(out, func(i, j int) bool { return worse(out[j], out[i]) })
	return out
}

// rateCurve turns the pages fetched in each second into pages per second
// over the time since first, in at most about 60 bins of whole seconds:
// each point is a bin's end and its mean rate.
func rateCurve(perSecond map[int64]int64, first, last time.Time) ([]Point, float64) {
	if len(perSecond) == 0 {
		return nil, 0
	}
	start, end := first.Unix(), last.Unix()
	bin := max(int64(1), int64(math.Ceil(float64(end-start+1)/60)))
	counts := make([]int64, (end-start)/bin+1)
	for sec, n := range perSecond {
		if i := (sec - start) / bin; i >= 0 && i < int64(len(counts)) {
			counts[i] += n
		}
	}
	pts := make([]Point, len(counts))
	for i, n := range counts {
		pts[i] = Point{X: float64(int64(i+1) * bin), Y: float64(n) / float64(bin)}
	}
	return pts, float64(bin)
}

// addedCounter is a store that tells when its URLs were added (the
// SQLite and PostgreSQL stores).
type addedCounter interface {
	AddedPerSecond(ctx context.Context) (map[int64]int64, error)
}

// queueCurve is the URLs added and not yet done or failed at the end of
// each of bins bins of bin seconds from first: the queue over time. URLs
// added before the first fetch (the seeds) count from the start.
func queueCurve(added, settled map[int64]int64, first time.Time, bin float64, bins int) []Point {
	if bins == 0 || bin <= 0 {
		return nil
	}
	start, width := first.Unix(), int64(bin)
	delta := make([]int64, bins) // added minus settled in each bin
	var before int64             // of the seconds before the first fetch
	put := func(sec, n int64) {
		i := (sec - start) / width
		switch {
		case sec < start:
			before += n
		case i < int64(bins):
			delta[i] += n
		}
	}
	for sec, n := range added {
		put(sec, n)
	}
	for sec, n := range settled {
		put(sec, -n)
	}
	pts := make([]Point, bins)
	q := before
	for i, d := range delta {
		q += d
		pts[i] = Point{X: float64(int64(i+1) * width), Y: float64(q)}
	}
	return pts
}

// scoreBins counts the scores in 20 bins of equal width from 0 (or the
// lowest score, when below 0) to 1 (or the highest score, when above 1),
// with the threshold on a bin edge when it is inside the range: the bins
// below it hold the pages judged not relevant.
func scoreBins(scores []float64, relevant []bool, threshold float64) []ScoreBin {
	if len(scores) == 0 {
		return nil
	}
	const n = 20
	lo, hi := 0.0, 1.0
	for _, s := range scores {
		lo, hi = math.Min(lo, s), math.Max(hi, s)
	}
	width := (hi - lo) / n
	// Shift the edges so the threshold falls on one.
	if threshold > lo && threshold < hi {
		off := math.Mod(threshold-lo, width)
		if off > 1e-12 {
			lo -= width - off
		}
	}
	bins := make([]ScoreBin, n+1)
	for i := range bins {
		bins[i] = ScoreBin{Lo: lo + width*float64(i), Hi: lo + width*float64(i+1)}
	}
	for i, s := range scores {
		k := min(int((s-lo)/width+1e-9), len(bins)-1) // a score on an edge goes above it
		bins[k].Pages++
		if relevant[i] {
			bins[k].Relevant++
		}
	}
	// Drop the empty bins at either end.
	for len(bins) > 1 && bins[len(bins)-1].Pages == 0 {
		bins = bins[:len(bins)-1]
	}
	for len(bins) > 1 && bins[0].Pages == 0 {
		bins = bins[1:]
	}
	return bins
}

// FillTitles gives the relevant pages listed of the crawls their titles,
// read from the archives of scored docs (seed report --docs): the
// frontier keeps no titles. A URL archived twice takes its last doc's.
// Lines that cannot be read are passed over (the labelling sample, drawn
// from the same archives, reports them).
func FillTitles(ctx context.Context, archives []string, crawls []*Crawl, log io.Writer) error {
	want := map[string][]*FoundPage{}
	for _, cr := range crawls {
		for i := range cr.TopPages {
			p := &cr.TopPages[i]
			want[p.URL] = append(want[p.URL], p)
		}
	}
	if len(want) == 0 {
		return nil
	}
	return scanArchives(ctx, archives, log, nil, func(l jsonl.Line, d archiveScore) error {
		ps := want[d.URL]
		if len(ps) == 0 {
			return nil
		}
		var doc archiveDoc
		if jsonl.Decode(l.Bytes, &doc) != nil {
			return nil
		}
		for _, p := range ps {
			p.Title = clip(doc.Title, maxTitle)
		}
		return nil
	})
}
