package report

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// Bands is the number of score bands on each side of the threshold.
const Bands = 4

// The sides of the threshold.
const (
	SideRelevant = 0 // judged relevant by score
	SideOther    = 1 // judged not relevant
)

// Bounds of what a page offered for labelling shows, so that the page
// stays small whatever the web put in a title or a text.
const (
	maxTitle   = 200 // runes
	maxExcerpt = 300 // runes
)

// SampleOptions shape the sample of pages offered for labelling.
type SampleOptions struct {
	// Pages is the number of pages offered (200).
	Pages int
	// Seed makes the sample: the same archives, labels and seed give the
	// same pages; another seed another sample.
	Seed uint64
	// Labelled are the URLs labelled already: they are not offered again,
	// and their docs are kept in Sample.Found.
	Labelled map[string]bool
	// Log gets the warnings of damaged compressed frames (os.Stderr).
	Log io.Writer
}

// LabelPage is a page offered for labelling: a doc of the archive as
// score judged it, cut to what the page shows.
type LabelPage struct {
	// URL is the doc's url: the key of its label. Link is where the page
	// is (its final_url, else its url).
	URL, Link string
	Title     string
	Excerpt   string
	Score     float64
	Relevant  bool // score's verdict
	Side      int  // SideRelevant or SideOther
	Band      int  // 0 is the band nearest the threshold

	key uint64 // the sample's order: a hash of the seed and the URL
	seq int64  // the line's place among the archives' scored docs
}

// Band is one score band of one side: its range, the docs in it and the
// pages of it shown.
type Band struct {
	Side, Band int
	Lo, Hi     float64
	Docs       int64
	Shown      int
}

// Sample is what SampleArchives drew from a crawl's archives.
type Sample struct {
	// Pages are the pages offered, by score, highest first.
	Pages []LabelPage
	// Threshold is the lowest score judged relevant; HasThreshold is
	// false when no doc was.
	Threshold    float64
	HasThreshold bool
	// Docs counts the scored docs read (a doc archived twice twice).
	Docs int64
	// Bands are the strata, relevant side first, each nearest the
	// threshold first.
	Bands []Band
	// Found holds the docs of the labelled URLs (Options.Labelled).
	Found map[string]LabelPage
}

// archiveScore is what the first pass reads of a line.
type archiveScore struct {
	URL      string   `json:"url"`
	Score    *float64 `json:"score"`
	Relevant bool     `json:"relevant"`
	Error    string   `json:"error"`
}

// archiveDoc is what a page offered shows.
type archiveDoc struct {
	FinalURL    string `json:"final_url"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Content     string `json:"content"`
}

// SampleArchives draws the pages to offer for labelling from the archives
// of scored docs a crawl wrote (seed add --archive; .gz and .zst read):
// a stratified sample, reproducible from o.Seed, in which the pages near
// the threshold weigh most. It reads the archives twice: once for the
// threshold and the score ranges, once to sample, holding at most
// o.Pages docs per band. Lines that are not JSON, or scored docs without
// a url, go to rej (FILE:LINE: reason) and are skipped; the other records
// of the archive (failed pages) are not docs to label and are let be.
func SampleArchives(ctx context.Context, archives []string, o SampleOptions, rej *jsonl.Rejects) (*Sample, error) {
	if o.Pages <= 0 {
		o.Pages = 200
	}
	if o.Log == nil {
		o.Log = os.Stderr
	}
	var r ranges
	err := scanArchives(ctx, archives, o.Log, rej, func(_ jsonl.Line, d archiveScore) error {
		r.add(d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.prepare()
	s := &Sample{Found: map[string]LabelPage{}, Docs: r.docs, Threshold: r.t, HasThreshold: r.nRel > 0}
	st := &strata{max: o.Pages, at: map[string][2]int{}}
	var seq int64
	var buf []byte
	// The second pass reports nothing: the first did.
	err = scanArchives(ctx, archives, io.Discard, nil, func(l jsonl.Line, d archiveScore) error {
		seq++
		side, band := r.band(d)
		p := LabelPage{URL: d.URL, Score: *d.Score, Relevant: d.Relevant, Side: side, Band: band, seq: seq}
		if o.Labelled[d.URL] {
			return fillPage(&p, l.Bytes, func() { s.Found[d.URL] = p })
		}
		buf = binary.LittleEndian.AppendUint64(buf[:0], o.Seed)
		p.key = xxhash.Sum64(append(buf, d.URL...))
		st.count(side, band)
		if !st.admits(p) {
			return nil
		}
		return fillPage(&p, l.Bytes, func() { st.keep(p) })
	})
	if err != nil {
		return nil, err
	}
	s.Pages, s.Bands = st.draw(&r)
	return s, nil
}

// fillPage decodes the rest of the doc into p and calls keep; a line the
// first pass read cannot fail here, but if the file changed under us the
// doc is left out.
func fillPage(p *LabelPage, line []byte, keep func()) error {
	var d archiveDoc
	if jsonl.Decode(line, &d) != nil {
		return nil
	}
	p.Link = p.URL
	if d.FinalURL != "" {
		p.Link = d.FinalURL
	}
	p.Title = clip(d.Title, maxTitle)
	p.Excerpt = clip(d.Content, maxExcerpt)
	if p.Excerpt == "" {
		p.Excerpt = clip(d.Description, maxExcerpt)
	}
	keep()
	return nil
}

// clip collapses white space and cuts s to n runes, marking the cut.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for range n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}

// scanArchives calls fn with every scored doc of the archives, in order.
func scanArchives(ctx context.Context, archives []string, log io.Writer, rej *jsonl.Rejects, fn func(jsonl.Line, archiveScore) error) error {
	r := jsonl.NewReader(archives, nil)
	r.Warnings = log
	defer r.Close()
	for n := 0; ; n++ {
		if n%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		l, err := r.Next()
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case errors.Is(err, jsonl.ErrLineTooLong):
			if rej != nil {
				rej.Reject(l, err)
			}
			continue
		case err != nil:
			return fmt.Errorf("--docs: %w", err)
		}
		var d archiveScore
		if err := jsonl.Decode(l.Bytes, &d); err != nil {
			if rej != nil {
				rej.Reject(l, err)
			}
			continue
		}
		if d.Error != "" || d.Score == nil {
			continue // a failed page, or a record that is not a scored doc
		}
		if d.URL == "" {
			if rej != nil {
				rej.Reject(l, errors.New(`a scored doc without "url"`))
			}
			continue
		}
		if err := fn(l, d); err != nil {
			return err
		}
	}
}

// ranges are the scores the first pass saw on each side.
type ranges struct {
	docs         int64
	relLo, relHi float64 // judged relevant
	othLo, othHi float64 // the others
	nRel, nOther int64

	// Set by prepare: the threshold and the width of a band on each side.
	t      float64
	widths [2]float64
}

func (r *ranges) add(d archiveScore) {
	r.docs++
	s := record.ClampUnit(*d.Score)
	if d.Relevant {
		if r.nRel == 0 || s < r.relLo {
			r.relLo = s
		}
		if r.nRel == 0 || s > r.relHi {
			r.relHi = s
		}
		r.nRel++
		return
	}
	if r.nOther == 0 || s < r.othLo {
		r.othLo = s
	}
	if r.nOther == 0 || s > r.othHi {
		r.othHi = s
	}
	r.nOther++
}

// prepare sets the threshold, the lowest score judged relevant (the
// crawl's thresholds.page, or just above it; without a relevant doc the
// others' highest score stands in, for the bands only), and the bands'
// widths.
func (r *ranges) prepare() {
	r.t = r.othHi
	if r.nRel > 0 {
		r.t = r.relLo
	}
	r.widths = [2]float64{(r.relHi - r.t) / Bands, (r.t - r.othLo) / Bands}
}

// band places a doc: its side, and which of the Bands equal slices of its
// side's score range it falls in, counted from the threshold.
func (r *ranges) band(d archiveScore) (side, band int) {
	s := record.ClampUnit(*d.Score)
	dist := r.t - s
	side = SideOther
	if d.Relevant {
		side, dist = SideRelevant, s-r.t
	}
	if w := r.widths[side]; w > 0 && dist > 0 {
		band = min(Bands-1, int(math.Floor(dist/w)))
	}
	return side, band
}

// bandRange is the score range of a band.
func (r *ranges) bandRange(side, band int) (lo, hi float64) {
	w, t := r.widths[side], r.t
	if side == SideRelevant {
		return t + float64(band)*w, t + float64(band+1)*w
	}
	return t - float64(band+1)*w, t - float64(band)*w
}

// strata keep, for each band, the o.Pages docs of lowest sample key (a
// bottom-k sample: which docs it holds does not depend on the order they
// come in), and count the docs of each band.
type strata struct {
	max  int
	kept [2][Bands][]LabelPage // each by key
	docs [2][Bands]int64
	at   map[string][2]int // the band a URL is kept in
}

func (s *strata) count(side, band int) { s.docs[side][band]++ }

func before(a, b LabelPage) int {
	if a.key != b.key {
		if a.key < b.key {
			return -1
		}
		return 1
	}
	return int(a.seq - b.seq)
}

// admits tells whether p would be kept. A URL kept already (a doc
// archived again, when a crawl fetched a page twice) leaves its band
// first: its last doc counts.
func (s *strata) admits(p LabelPage) bool {
	if at, ok := s.at[p.URL]; ok {
		k := s.kept[at[0]][at[1]]
		s.kept[at[0]][at[1]] = slices.DeleteFunc(k, func(q LabelPage) bool { return q.URL == p.URL })
		delete(s.at, p.URL)
	}
	k := s.kept[p.Side][p.Band]
	return len(k) < s.max || before(p, k[len(k)-1]) < 0
}

func (s *strata) keep(p LabelPage) {
	k := s.kept[p.Side][p.Band]
	i, _ := slices.BinarySearchFunc(k, p, before)
	k = slices.Insert(k, i, p)
	if len(k) > s.max {
		delete(s.at, k[len(k)-1].URL)
		k = k[:len(k)-1]
	}
	s.kept[p.Side][p.Band] = k
	s.at[p.URL] = [2]int{p.Side, p.Band}
}

// draw shares the pages between the sides, half each (a side with too few
// gives the rest to the other), and within a side between its bands in
// turn, nearest the threshold first, one page at a time, skipping a band
// that has no more: equal shares, so the thin bands near the threshold
// are shown far above their share of the crawl. Each band gives its
// pages of lowest key.
func (s *strata) draw(r *ranges) ([]LabelPage, []Band) {
	var avail [2]int
	for side := range 2 {
		for b := range Bands {
			avail[side] += len(s.kept[side][b])
		}
	}
	n := [2]int{}
	n[SideRelevant] = min(avail[SideRelevant], (s.max+1)/2)
	n[SideOther] = min(avail[SideOther], s.max-n[SideRelevant])
	n[SideRelevant] = min(avail[SideRelevant], s.max-n[SideOther])

	var pages []LabelPage
	var bands []Band
	for side := range 2 {
		var take [Bands]int
		for left := n[side]; left > 0; {
			for b := 0; b < Bands && left > 0; b++ {
				if take[b] < len(s.kept[side][b]) {
					take[b]++
					left--
				}
			}
		}
		for b := range Bands {
			pages = append(pages, s.kept[side][b][:take[b]]...)
			if s.docs[side][b] == 0 {
				continue
			}
			lo, hi := r.bandRange(side, b)
			bands = append(bands, Band{Side: side, Band: b, Lo: lo, Hi: hi, Docs: s.docs[side][b], Shown: take[b]})
		}
	}
	slices.SortStableFunc(pages, func(a, b LabelPage) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return before(a, b)
	})
	return pages, bands
}
