package eval

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/extract"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// Result is the score of one page.
type Result struct {
	Case
	Got              record.Doc
	P, R, F          float64
	TitleOK          bool
	AuthorOK, DateOK bool
}

// Summary is the score of one set.
type Summary struct {
	Set                                string
	Pages                              int
	P, R, F                            float64
	Titles, TitlesOK                   int
	Authors, AuthorsOK, Dates, DatesOK int
	Seconds                            float64
	Bytes                              int64
}

// Score runs segment over the cases and scores every page.
func Score(cases []Case, segment func(record.Page) record.Doc) ([]Result, Summary) {
	var s Summary
	var out []Result
	start := time.Now()
	for _, c := range cases {
		s.Set = c.Set
		d := segment(record.Page{URL: c.URL, Status: 200, HTML: c.HTML})
		s.Bytes += int64(len(c.HTML))
		r := Result{Case: c, Got: d}
		r.P, r.R, r.F = PRF(Tokens(d.Content), Tokens(c.Content))
		s.Pages++
		s.P += r.P
		s.R += r.R
		s.F += r.F
		if c.HasTitle {
			s.Titles++
			r.TitleOK = strings.Join(strings.Fields(d.Title), " ") == strings.Join(strings.Fields(c.Title), " ")
			if r.TitleOK {
				s.TitlesOK++
			}
		}
		if c.Author != "" || c.NoAuthor {
			s.Authors++
			r.AuthorOK = SameAuthors(d.Author, c.Author) || (c.NoAuthor && strings.TrimSpace(d.Author) == "")
			if r.AuthorOK {
				s.AuthorsOK++
			}
		}
		if c.Published != "" {
			s.Dates++
			r.DateOK = SameDate(d.Published, c.Published)
			if r.DateOK {
				s.DatesOK++
			}
		}
		out = append(out, r)
	}
	s.Seconds = time.Since(start).Seconds()
	if s.Pages > 0 {
		s.P /= float64(s.Pages)
		s.R /= float64(s.Pages)
		s.F /= float64(s.Pages)
	}
	return out, s
}

var nameSep = regexp.MustCompile(`(?i)\s*(?:,|，|、|;|；|&|\band\b|/|\s)\s*`)

// leadingBy is a byline's leading "By", whatever white space follows it.
var leadingBy = regexp.MustCompile(`(?i)^by\s+`)

// SameAuthors compares two bylines as sets of names, case-insensitively,
// with a leading "By" ignored (also when a line break follows it).
func SameAuthors(got, want string) bool {
	norm := func(s string) map[string]bool {
		s = leadingBy.ReplaceAllString(strings.TrimSpace(s), "")
		m := map[string]bool{}
		for _, p := range nameSep.Split(strings.ToLower(s), -1) {
			if p = strings.TrimSpace(p); p != "" {
				m[p] = true
			}
		}
		return m
	}
	g, w := norm(got), norm(want)
	if len(w) == 0 || len(g) != len(w) {
		return false
	}
	for k := range w {
		if !g[k] {
			return false
		}
	}
	return true
}

// SameDate tells whether got agrees with want on every part want gives
// (year, month, day, hour and minute, second), as written: the offsets are
// not compared, since gold dates carry none.
func SameDate(got, want string) bool {
	w, ok := extract.ParseDate(want, time.UTC)
	if !ok {
		return false
	}
	g, ok := extract.ParseDate(got, time.UTC)
	if !ok || g.Prec < w.Prec {
		return false
	}
	a, b := g.Time, w.Time
	if a.Year() != b.Year() {
		return false
	}
	if w.Prec >= extract.Month && a.Month() != b.Month() {
		return false
	}
	if w.Prec >= extract.Day && a.Day() != b.Day() {
		return false
	}
	if w.Prec >= extract.Minute && (a.Hour() != b.Hour() || a.Minute() != b.Minute()) {
		return false
	}
	if w.Prec >= extract.Second && a.Second() != b.Second() {
		return false
	}
	return true
}

// Pct is "84.2% (16/19)", or "–" when nothing was scored.
func Pct(ok, n int) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%% (%d/%d)", 100*float64(ok)/float64(n), ok, n)
}

// WriteTable prints the summaries as a markdown table.
func WriteTable(w io.Writer, sums []Summary) {
	fmt.Fprintln(w, "| set | pages | content P | content R | content F1 | title exact | author | published | MB/s |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, s := range sums {
		mbs := 0.0
		if s.Seconds > 0 {
			mbs = float64(s.Bytes) / 1e6 / s.Seconds
		}
		fmt.Fprintf(w, "| %s | %d | %.3f | %.3f | %.3f | %s | %s | %s | %.1f |\n",
			s.Set, s.Pages, s.P, s.R, s.F, Pct(s.TitlesOK, s.Titles), Pct(s.AuthorsOK, s.Authors), Pct(s.DatesOK, s.Dates), mbs)
	}
}
