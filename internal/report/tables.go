package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// table is the table that follows a chart, with the same figures, for
// screen readers and for people who want the numbers.
type table struct {
	Caption string
	Head    []string
	Rows    [][]cell
}

// cell is one table cell; Colour, when set, puts the crawl's colour
// swatch before the text.
type cell struct {
	Text   string
	Colour string
	Num    bool
}

func numCell(s string) cell { return cell{Text: s, Num: true} }

// curveTable reads the chart's curves at about ten round values of x:
// each crawl's value at the last point at or before x ("–" where the
// crawl had not got that far).
func curveTable(c LineChart, format func(float64) string) table {
	t := table{Caption: c.Title, Head: []string{c.XLabel}}
	var xMax float64
	for _, l := range c.Lines {
		t.Head = append(t.Head, l.Name)
		for _, p := range l.Points {
			xMax = math.Max(xMax, p.X)
		}
	}
	if xMax == 0 {
		return t
	}
	scale := 1.0
	if c.XTime {
		_, scale = timeUnit(xMax)
	}
	var xs []float64
	for _, tick := range niceTicks(xMax/scale, 10) {
		if x := tick * scale; x > 0 && x < xMax {
			xs = append(xs, x)
		}
	}
	xs = append(xs, xMax)
	for _, x := range xs {
		label := formatCount(int64(math.Round(x)))
		if c.XTime {
			label = formatDuration(x)
		}
		row := []cell{numCell(label)}
		for _, l := range c.Lines {
			v, ok := valueAt(l.Points, x)
			if !ok {
				row = append(row, numCell("–"))
				continue
			}
			row = append(row, numCell(format(v)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// valueAt is the y of the last point at or before x, if the curve
// reaches x.
func valueAt(pts []Point, x float64) (float64, bool) {
	if len(pts) == 0 || pts[len(pts)-1].X < x {
		return 0, false
	}
	v, ok := 0.0, false
	for _, p := range pts {
		if p.X > x {
			break
		}
		v, ok = p.Y, true
	}
	return v, ok
}

// barTable lists the bars of c: a row per category, a column per crawl.
func barTable(c BarChart, format func(float64) string) table {
	t := table{Caption: c.Title, Head: []string{c.XLabel}}
	for _, g := range c.Groups {
		t.Head = append(t.Head, g.Name)
	}
	for i, cat := range c.Categories {
		row := []cell{numCell(cat)}
		for _, g := range c.Groups {
			row = append(row, numCell(format(g.Values[i])))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// depthTable lists, per depth and crawl, pages fetched, relevant, the
// harvest rate and the URLs still queued, and in the reserve.
func depthTable(crawls []*Crawl) table {
	t := table{Caption: "Harvest rate per depth", Head: []string{"depth", "crawl", "fetched", "relevant", "harvest", "queued", "reserve"}}
	for _, d := range depths(crawls) {
		for i, cr := range crawls {
			r := depthRow(cr, d)
			t.Rows = append(t.Rows, []cell{numCell(strconv.Itoa(d)), {Text: cr.Label, Colour: colour(i)},
				numCell(formatCount(r.Fetched)), numCell(formatCount(r.Relevant)), numCell(rateText(r.Relevant, r.Fetched)), numCell(formatCount(r.Queued)),
				numCell(formatCount(r.Reserve))})
		}
	}
	return t
}

func hostTable(cr *Crawl) table {
	t := table{Caption: "Top hosts of " + cr.Label, Head: []string{"host", "fetched", "relevant", "harvest"}}
	for _, h := range cr.Hosts {
		t.Rows = append(t.Rows, []cell{{Text: h.Host}, numCell(formatCount(h.Fetched)), numCell(formatCount(h.Relevant)), numCell(rateText(h.Relevant, h.Fetched))})
	}
	return t
}

func countTable(caption, name, of string, counts []Count) table {
	t := table{Caption: caption, Head: []string{name, of}}
	for _, c := range counts {
		t.Rows = append(t.Rows, []cell{{Text: c.Name}, numCell(formatCount(c.N))})
	}
	return t
}

// parkedTable lists the parked hosts: host, reason, then every other
// field any of them has.
func parkedTable(cr *Crawl) table {
	t := table{Caption: "Parked hosts of " + cr.Label, Head: []string{"host", "reason"}}
	var extra []string
	seen := map[string]bool{}
	for _, p := range cr.Parked {
		for _, kv := range p.Extra {
			if !seen[kv[0]] {
				seen[kv[0]] = true
				extra = append(extra, kv[0])
			}
		}
	}
	for _, k := range extra {
		t.Head = append(t.Head, strings.ReplaceAll(k, "_", " "))
	}
	for _, p := range cr.Parked {
		row := []cell{{Text: p.Host}, {Text: p.Reason}}
		for _, k := range extra {
			v := ""
			for _, kv := range p.Extra {
				if kv[0] == k {
					v = kv[1]
				}
			}
			row = append(row, cell{Text: v})
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// rateText prints n/of as a percentage, "–" when nothing was fetched.
func rateText(n, of int64) string {
	if of == 0 {
		return "–"
	}
	return formatPercent(Rate(n, of))
}

// topTable lists the relevant pages with the highest scores.
func topTable(cr *Crawl) table {
	t := table{Caption: fmt.Sprintf("The %d relevant pages of %s with the highest scores, of %s relevant", len(cr.TopPages), cr.Label, formatCount(cr.Relevant)),
		Head: []string{"#", "title", "URL", "score", "depth", "fetched"}}
	for i, p := range cr.TopPages {
		title := p.Title
		if title == "" {
			title = "–"
		}
		t.Rows = append(t.Rows, []cell{numCell(strconv.Itoa(i + 1)), {Text: title}, {Text: p.URL},
			numCell(strconv.FormatFloat(p.Score, 'f', 3, 64)), numCell(strconv.Itoa(p.Depth)), {Text: stamp(p.FetchedAt)}})
	}
	return t
}

// scoreTable lists the score bins of a crawl.
func scoreTable(cr *Crawl) table {
	t := table{Caption: "Scores of the pages of " + cr.Label, Head: []string{"score from", "to", "pages", "judged relevant"}}
	for _, b := range cr.Scores {
		t.Rows = append(t.Rows, []cell{numCell(strconv.FormatFloat(b.Lo, 'f', 3, 64)), numCell(strconv.FormatFloat(b.Hi, 'f', 3, 64)),
			numCell(formatCount(b.Pages)), numCell(formatCount(b.Relevant))})
	}
	return t
}

// errorTable lists the errors by kind: the failed pages now, and those
// seed requeue queued again since.
func errorTable(cr *Crawl) table {
	t := table{Caption: "Errors of " + cr.Label + " by kind", Head: []string{"kind", "pages failed", "requeued since"}}
	requeued := map[string]int64{}
	for _, c := range cr.ErrorsRequeued {
		requeued[c.Name] = c.N
	}
	seen := map[string]bool{}
	for _, c := range cr.Errors {
		seen[c.Name] = true
		t.Rows = append(t.Rows, []cell{{Text: c.Name}, numCell(formatCount(c.N)), numCell(formatCount(requeued[c.Name]))})
	}
	for _, c := range cr.ErrorsRequeued {
		if !seen[c.Name] {
			t.Rows = append(t.Rows, []cell{{Text: c.Name}, numCell("0"), numCell(formatCount(c.N))})
		}
	}
	return t
}

// errorHostTable lists the hosts with the most errors.
func errorHostTable(cr *Crawl) table {
	t := table{Caption: "Errors of " + cr.Label + " by host", Head: []string{"host", "errors", "requeued since", "kinds"}}
	for _, h := range cr.ErrorHosts {
		var kinds []string
		for _, k := range h.Kinds {
			kinds = append(kinds, fmt.Sprintf("%s %s", k.Name, formatCount(k.N)))
		}
		t.Rows = append(t.Rows, []cell{{Text: h.Host}, numCell(formatCount(h.N)), numCell(formatCount(h.Requeued)), {Text: strings.Join(kinds, ", ")}})
	}
	return t
}

// runsText tells how many runs a crawl had and when the resumed ones
// began.
func runsText(cr *Crawl) string {
	switch len(cr.Runs) {
	case 0:
		return "not recorded"
	case 1:
		return "1"
	}
	var starts []string
	for _, r := range cr.Runs[1:] {
		starts = append(starts, fmt.Sprintf("%s after page %s", stamp(r.Start), formatCount(r.Before)))
	}
	return fmt.Sprintf("%d, resumed %s", len(cr.Runs), strings.Join(starts, "; "))
}
