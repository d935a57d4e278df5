package report

import (
	"fmt"
	"sort"
	"strconv"
)

// The charts of a report, built from the crawls; crawl i is drawn in
// colour i.

// HarvestChart is the cumulative harvest rate over pages fetched.
func HarvestChart(crawls []*Crawl) LineChart {
	c := LineChart{ID: "harvest", Title: "Harvest rate over pages fetched (cumulative)",
		XLabel: "pages fetched", YLabel: "harvest rate (relevant / fetched)", YMax: 1}
	for i, cr := range crawls {
		c.Lines = append(c.Lines, Line{Name: cr.Label, Colour: i, Points: cr.Harvest})
	}
	c.Desc = "Share of the pages fetched so far that were judged relevant, after each page. " + summary(crawls, func(cr *Crawl) string {
		return fmt.Sprintf("%s of %s pages", formatPercent(cr.HarvestRate()), formatCount(cr.Fetched))
	}) + runsDesc(crawls)
	c.Marks = runMarks(crawls, func(cr *Crawl, r Run) float64 { return float64(r.Before) })
	return c
}

// runMarks marks where each resumed run of each crawl began (its runs
// after the first), at the x that at gives.
func runMarks(crawls []*Crawl, at func(*Crawl, Run) float64) []Mark {
	var ms []Mark
	for i, cr := range crawls {
		for k, r := range cr.Runs {
			if k == 0 || r.Before == 0 {
				continue // the first run, or a run before any page
			}
			ms = append(ms, Mark{X: at(cr, r), Label: fmt.Sprintf("%s: run %d", cr.Label, k+1), Colour: i})
		}
	}
	return ms
}

// runsDesc says which crawls were resumed, for a chart's description.
func runsDesc(crawls []*Crawl) string {
	s := ""
	for _, cr := range crawls {
		if n := len(cr.Runs); n > 1 {
			s += fmt.Sprintf(" %s ran %d times (resumed); dashed lines mark where each run began.", cr.Label, n)
		}
	}
	return s
}

// sinceFirst is the time of a run's start after the crawl's first fetch.
func sinceFirst(cr *Crawl, r Run) float64 { return r.Start.Sub(cr.First).Seconds() }

// RateChart is the pages fetched per second over the time of the crawl.
func RateChart(crawls []*Crawl) LineChart {
	c := LineChart{ID: "rate", Title: "Pages fetched per second",
		XLabel: "time since the first fetch", YLabel: "pages per second", XTime: true}
	for i, cr := range crawls {
		c.Lines = append(c.Lines, Line{Name: cr.Label, Colour: i, Points: cr.Rate})
	}
	c.Desc = "How fast each crawl went: the pages fetched per second, averaged over bins of time. " + summary(crawls, func(cr *Crawl) string {
		d := cr.Last.Sub(cr.First).Seconds()
		if cr.Fetched == 0 || d <= 0 {
			return "no rate"
		}
		return fmt.Sprintf("%.1f pages/s over %s, in bins of %s", float64(cr.Fetched)/d, formatDuration(d), formatDuration(cr.RateBin))
	}) + runsDesc(crawls)
	c.Marks = runMarks(crawls, sinceFirst)
	return c
}

// QueueChart is the URLs known and not fetched yet over the time of the
// crawl.
func QueueChart(crawls []*Crawl) LineChart {
	c := LineChart{ID: "queue", Title: "URLs waiting to be fetched over time",
		XLabel: "time since the first fetch", YLabel: "URLs known, not fetched", XTime: true}
	for i, cr := range crawls {
		c.Lines = append(c.Lines, Line{Name: cr.Label, Colour: i, Points: cr.Queue})
	}
	c.Desc = "The frontier's backlog: URLs added and not yet fetched (queued, in the reserve, leased, parked or waiting) at each moment; a queue that keeps growing is a crawl that finds more than it fetches. " + summary(crawls, func(cr *Crawl) string {
		if len(cr.Queue) == 0 {
			return "not recorded by its store"
		}
		return formatCount(int64(cr.Queue[len(cr.Queue)-1].Y)) + " at the last fetch"
	}) + runsDesc(crawls)
	c.Marks = runMarks(crawls, sinceFirst)
	return c
}

// ScoreChart is the scored pages of crawl i by score, with the page
// threshold.
func ScoreChart(cr *Crawl, i int) BarChart {
	c := BarChart{ID: fmt.Sprintf("scores-%d", i), Title: "Scores of the pages of " + cr.Label,
		XLabel: "score (bin from)", YLabel: "pages"}
	g := BarGroup{Name: cr.Label, Colour: i}
	mark := -1
	for k, b := range cr.Scores {
		c.Categories = append(c.Categories, strconv.FormatFloat(b.Lo, 'f', 2, 64))
		g.Values = append(g.Values, float64(b.Pages))
		if mark < 0 && b.Lo >= cr.Threshold-1e-9 {
			mark = k
		}
	}
	c.Groups = []BarGroup{g}
	how := "the lowest score judged relevant (no threshold recorded)"
	if cr.ThresholdRecorded {
		how = "recorded by score --db"
	}
	if mark >= 0 && len(cr.Scores) > 0 {
		c.Mark = &BarMark{At: float64(mark), Label: "threshold " + strconv.FormatFloat(cr.Threshold, 'g', 4, 64)}
	}
	c.Desc = fmt.Sprintf("How the scores of the %s pages fetched fall against the page threshold %s (%s): the pages at and above it were judged relevant. Many pages just under it mean a threshold to look at.",
		cr.Label, strconv.FormatFloat(cr.Threshold, 'g', 4, 64), how)
	return c
}

// MovingChart is the harvest rate over a moving window of pages.
func MovingChart(crawls []*Crawl) LineChart {
	window := 100
	if len(crawls) > 0 {
		window = crawls[0].Window
	}
	c := LineChart{ID: "moving", Title: fmt.Sprintf("Harvest rate over the last %d pages (moving window)", window),
		XLabel: "pages fetched", YLabel: fmt.Sprintf("relevant share of the last %d pages", window), YMax: 1}
	for i, cr := range crawls {
		c.Lines = append(c.Lines, Line{Name: cr.Label, Colour: i, Points: cr.Moving})
	}
	c.Desc = "Whether the crawl is still on topic now: the relevant share of the most recent pages. " + summary(crawls, func(cr *Crawl) string {
		if len(cr.Moving) == 0 {
			return "no pages"
		}
		return "last " + formatPercent(cr.Moving[len(cr.Moving)-1].Y)
	})
	return c
}

// FoundChart is the relevant pages found over the time of the crawl.
func FoundChart(crawls []*Crawl) LineChart {
	c := LineChart{ID: "found", Title: "Relevant pages found over time",
		XLabel: "time since the first fetch", YLabel: "relevant pages found", XTime: true}
	for i, cr := range crawls {
		c.Lines = append(c.Lines, Line{Name: cr.Label, Colour: i, Points: cr.Found})
	}
	c.Desc = "Relevant pages found, counted against the time since each crawl's first fetch. " + summary(crawls, func(cr *Crawl) string {
		return fmt.Sprintf("%s relevant in %s", formatCount(cr.Relevant), formatDuration(cr.Last.Sub(cr.First).Seconds()))
	}) + runsDesc(crawls)
	c.Marks = runMarks(crawls, sinceFirst)
	return c
}

// depths lists the depths any crawl fetched or queued.
func depths(crawls []*Crawl) []int {
	seen := map[int]bool{}
	var ds []int
	for _, cr := range crawls {
		for _, d := range cr.Depths {
			if !seen[d.Depth] {
				seen[d.Depth] = true
				ds = append(ds, d.Depth)
			}
		}
	}
	sort.Ints(ds)
	return ds
}

func depthRow(cr *Crawl, depth int) DepthRow {
	for _, d := range cr.Depths {
		if d.Depth == depth {
			return d
		}
	}
	return DepthRow{Depth: depth}
}

func depthChart(crawls []*Crawl, value func(DepthRow) float64) BarChart {
	ds := depths(crawls)
	var c BarChart
	for _, d := range ds {
		c.Categories = append(c.Categories, strconv.Itoa(d))
	}
	for i, cr := range crawls {
		g := BarGroup{Name: cr.Label, Colour: i}
		for _, d := range ds {
			g.Values = append(g.Values, value(depthRow(cr, d)))
		}
		c.Groups = append(c.Groups, g)
	}
	return c
}

// DepthPagesChart is the pages fetched at each depth (links from a seed).
func DepthPagesChart(crawls []*Crawl) BarChart {
	c := depthChart(crawls, func(d DepthRow) float64 { return float64(d.Fetched) })
	c.ID, c.Title, c.XLabel, c.YLabel = "depth-pages", "Pages fetched per depth", "depth (links from a seed)", "pages fetched"
	c.Desc = "How far from the seeds each crawl went: pages fetched at each link depth, one bar per crawl."
	return c
}

// DepthHarvestChart is the harvest rate of the pages of each depth.
func DepthHarvestChart(crawls []*Crawl) BarChart {
	c := depthChart(crawls, func(d DepthRow) float64 { return Rate(d.Relevant, d.Fetched) })
	c.ID, c.Title, c.XLabel, c.YLabel = "depth-harvest", "Harvest rate per depth", "depth (links from a seed)", "harvest rate"
	c.YMax, c.Percent = 1, true
	c.Desc = "The relevant share of the pages fetched at each link depth, one bar per crawl; the number above each bar is the pages it stands for (a rate of 100% from one page is one page)."
	ds := depths(crawls)
	for i, cr := range crawls {
		for _, d := range ds {
			c.Groups[i].Pages = append(c.Groups[i].Pages, depthRow(cr, d).Fetched)
		}
	}
	return c
}

// HostsChart is the top hosts of crawl i with their harvest.
func HostsChart(cr *Crawl, i int) HostChart {
	return HostChart{ID: fmt.Sprintf("hosts-%d", i), Colour: i, Hosts: cr.Hosts,
		Title: fmt.Sprintf("Top hosts of %s by pages fetched", cr.Label),
		Desc: fmt.Sprintf("The %d hosts with the most pages fetched in %s, with the relevant part of each; %s hosts known in all.",
			len(cr.Hosts), cr.Label, formatCount(cr.Hosts0))}
}

// Charts names the charts seed report --svg can write alone.
var Charts = map[string]func([]*Crawl) string{
	"harvest":       func(c []*Crawl) string { return HarvestChart(c).SVG() },
	"moving":        func(c []*Crawl) string { return MovingChart(c).SVG() },
	"found":         func(c []*Crawl) string { return FoundChart(c).SVG() },
	"depth-pages":   func(c []*Crawl) string { return DepthPagesChart(c).SVG() },
	"depth-harvest": func(c []*Crawl) string { return DepthHarvestChart(c).SVG() },
	"rate":          func(c []*Crawl) string { return RateChart(c).SVG() },
	"queue":         func(c []*Crawl) string { return QueueChart(c).SVG() },
}

// ChartNames lists the names of Charts, sorted.
func ChartNames() []string {
	var names []string
	for k := range Charts {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func summary(crawls []*Crawl, each func(*Crawl) string) string {
	s := ""
	for i, cr := range crawls {
		if i > 0 {
			s += "; "
		}
		s += cr.Label + ": " + each(cr)
	}
	if s != "" {
		s += "."
	}
	return s
}

// formatCount prints n with thousands separators.
func formatCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// formatPercent prints a rate as a percentage with one decimal.
func formatPercent(r float64) string { return strconv.FormatFloat(r*100, 'f', 1, 64) + "%" }

// formatDuration prints seconds as 42s, 3m05s, 2h10m or 3d4h.
func formatDuration(sec float64) string {
	s := int64(sec + 0.5)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	case s < 86400:
		return fmt.Sprintf("%dh%02dm", s/3600, s%3600/60)
	}
	return fmt.Sprintf("%dd%dh", s/86400, s%86400/3600)
}
