package report

import (
	"math"
	"strings"
)

// Line is one crawl's curve on a LineChart.
type Line struct {
	Name   string
	Colour int // index into Palette
	Points []Point
}

// LineChart is curves over a shared x axis, one per crawl, with a legend.
type LineChart struct {
	ID             string // unique in the page; prefixes the ids of title and desc
	Title, Desc    string
	XLabel, YLabel string
	// YMax fixes the top of the y axis (1 for rates); 0 takes the data's.
	YMax float64
	// XTime says X is seconds, drawn in s, min, h or days.
	XTime bool
	Lines []Line
	// Marks are vertical lines at an x of note: where a resumed run of a
	// crawl began.
	Marks []Mark
}

// Mark is a vertical line across a chart at X, in a crawl's colour, with
// a label at its top.
type Mark struct {
	X      float64
	Label  string
	Colour int
}

// plot is the drawing area of a chart and its scales.
type plot struct {
	left, right, top, bottom float64
	xTop, yTop               float64
}

func (p plot) x(v float64) float64 { return p.left + (p.right-p.left)*v/p.xTop }
func (p plot) y(v float64) float64 { return p.bottom - (p.bottom-p.top)*v/p.yTop }

// SVG draws the chart as a standalone SVG document.
func (c LineChart) SVG() string {
	items := make([]legendItem, len(c.Lines))
	var xMax, yMax float64
	points := 0
	for i, l := range c.Lines {
		items[i] = legendItem{l.Name, l.Colour}
		for _, p := range l.Points {
			xMax, yMax = math.Max(xMax, p.X), math.Max(yMax, p.Y)
		}
		points += len(l.Points)
	}
	xScale, xLabel := 1.0, c.XLabel
	if c.XTime {
		var unit string
		unit, xScale = timeUnit(xMax)
		xLabel += " (" + unit + ")"
	}
	xTicks := niceTicks(xMax/xScale, 6)
	yTicks := niceTicks(yMax, 5)
	if c.YMax > 0 {
		yTicks = niceTicks(c.YMax, 5)
	}
	var w svgWriter
	p := w.frame(c.ID, c.Title, c.Desc, items, false, xTicks, yTicks, xLabel, c.YLabel, formatTick)
	p.xTop *= xScale
	for _, l := range c.Lines {
		switch len(l.Points) {
		case 0:
		case 1:
			pt := l.Points[0]
			w.printf(`<circle class="series" data-series="%s" cx="%s" cy="%s" r="3" fill="%s"/>`+"\n",
				esc(l.Name), num(p.x(pt.X)), num(p.y(pt.Y)), colour(l.Colour))
		default:
			var b strings.Builder
			for i, pt := range l.Points {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(num(p.x(pt.X)) + "," + num(p.y(pt.Y)))
			}
			w.printf(`<polyline class="series" data-series="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round"%s points="%s"/>`+"\n",
				esc(l.Name), colour(l.Colour), dashAttr(l.Colour), b.String())
		}
	}
	if points == 0 {
		w.empty(p)
	}
	for _, m := range c.Marks {
		if m.X < 0 || m.X > p.xTop {
			continue
		}
		x := p.x(m.X)
		w.printf(`<line class="mark" data-series="%s" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-dasharray="3 3"><title>%s</title></line>`+"\n",
			esc(m.Label), num(x), num(p.top), num(x), num(p.bottom), colour(m.Colour), esc(m.Label))
		w.text("mark-label", x+3, p.top+10, "start", m.Label, ` font-size="10"`)
	}
	w.close()
	return w.String()
}

// frame opens the document and draws the title, legend, grid, axes, ticks
// and axis labels; it returns the plot area (xTop and yTop in tick units).
func (w *svgWriter) frame(id, title, desc string, items []legendItem, bars bool, xTicks, yTicks []float64, xLabel, yLabel string, yFormat func(float64) string) plot {
	plotWidth := float64(chartWidth - marginLeft - marginRight)
	xs, rows, nRows := legendLayout(items, marginLeft, plotWidth)
	top := float64(titleHeight + nRows*legendRow + 12)
	height := float64(chartHeight + max(nRows-1, 0)*legendRow)
	p := plot{left: marginLeft, right: chartWidth - marginRight, top: top, bottom: height - marginBottom,
		xTop: xTicks[len(xTicks)-1], yTop: yTicks[len(yTicks)-1]}
	w.open(id, title, desc, chartWidth, height)
	w.legend(items, xs, rows, titleHeight+12, bars)
	w.WriteString(`<g class="grid">` + "\n")
	for _, t := range yTicks {
		w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`+"\n", num(p.left), num(p.y(t)), num(p.right), num(p.y(t)), gridColour)
	}
	w.WriteString("</g>\n")
	w.printf(`<g class="axis">`+"\n"+`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`+"\n", num(p.left), num(p.bottom), num(p.right), num(p.bottom), axisColour)
	w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`+"\n", num(p.left), num(p.top), num(p.left), num(p.bottom), axisColour)
	for _, t := range yTicks {
		w.text("tick", p.left-6, p.y(t)+4, "end", yFormat(t), "")
	}
	if xTicks != nil && !bars {
		for _, t := range xTicks {
			w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`+"\n", num(p.x(t)), num(p.bottom), num(p.x(t)), num(p.bottom+4), axisColour)
			w.text("tick", p.x(t), p.bottom+17, "middle", formatTick(t), "")
		}
	}
	w.WriteString("</g>\n")
	w.text("axis-label x-label", (p.left+p.right)/2, p.bottom+38, "middle", xLabel, "")
	cy := (p.top + p.bottom) / 2
	w.text("axis-label y-label", 16, cy, "middle", yLabel, ` transform="rotate(-90 16 `+num(cy)+`)"`)
	return p
}

// empty marks a chart with nothing to draw yet.
func (w *svgWriter) empty(p plot) {
	w.text("empty", (p.left+p.right)/2, (p.top+p.bottom)/2, "middle", "no pages fetched yet", "")
}

// BarGroup is one crawl's bars on a BarChart, a value per category.
type BarGroup struct {
	Name   string
	Colour int
	Values []float64
	// Pages, when set, is the number of pages behind each value (a rate
	// of one page is no rate to trust), written above its bar.
	Pages []int64
}

// BarChart is grouped bars: for each category (a depth), one bar per
// crawl.
type BarChart struct {
	ID             string
	Title, Desc    string
	XLabel, YLabel string
	YMax           float64 // fixed top of the y axis; 0 takes the data's
	// Percent prints the y ticks as percentages (for rates).
	Percent    bool
	Categories []string
	Groups     []BarGroup
	// Mark, when set, is a vertical line At a position counted in
	// categories from the left edge (a threshold between two bins).
	Mark *BarMark
}

// BarMark is a labelled vertical line across a bar chart.
type BarMark struct {
	At    float64
	Label string
}

// SVG draws the chart as a standalone SVG document.
func (c BarChart) SVG() string {
	items := make([]legendItem, len(c.Groups))
	var yMax float64
	for i, g := range c.Groups {
		items[i] = legendItem{g.Name, g.Colour}
		for _, v := range g.Values {
			yMax = math.Max(yMax, v)
		}
	}
	yTicks := niceTicks(yMax, 5)
	if c.YMax > 0 {
		yTicks = niceTicks(c.YMax, 5)
	}
	yFormat := formatTick
	if c.Percent {
		yFormat = func(v float64) string { return formatTick(v*100) + "%" }
	}
	var w svgWriter
	p := w.frame(c.ID, c.Title, c.Desc, items, true, []float64{1}, yTicks, c.XLabel, c.YLabel, yFormat)
	n := len(c.Categories)
	if n == 0 || len(c.Groups) == 0 {
		w.empty(p)
		w.close()
		return w.String()
	}
	slot := (p.right - p.left) / float64(n)
	bar := math.Min(40, slot*0.8/float64(len(c.Groups)))
	for i, cat := range c.Categories {
		x0 := p.left + slot*float64(i) + (slot-bar*float64(len(c.Groups)))/2
		for j, g := range c.Groups {
			if i >= len(g.Values) {
				continue
			}
			v := g.Values[i]
			y := p.y(v)
			of := ""
			if i < len(g.Pages) {
				of = " of " + pagesText(g.Pages[i])
			}
			w.printf(`<rect class="bar" data-series="%s" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s, %s %s: %s%s</title></rect>`+"\n",
				esc(g.Name), num(x0+bar*float64(j)), num(y), num(bar-1), num(p.bottom-y), colour(g.Colour),
				esc(g.Name), esc(c.XLabel), esc(cat), esc(yFormat(v)), esc(of))
			if i < len(g.Pages) {
				w.text("bar-pages", x0+bar*float64(j)+(bar-1)/2, y-3, "middle", formatCount(g.Pages[i]), ` font-size="10"`)
			}
		}
		w.text("tick", p.left+slot*(float64(i)+0.5), p.bottom+17, "middle", cat, "")
	}
	if m := c.Mark; m != nil {
		x := p.left + slot*m.At
		w.printf(`<line class="mark" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#222" stroke-dasharray="4 3"><title>%s</title></line>`+"\n",
			num(x), num(p.top), num(x), num(p.bottom), esc(m.Label))
		w.text("mark-label", x+3, p.top+10, "start", m.Label, ` font-size="10"`)
	}
	w.close()
	return w.String()
}

// HostChart is horizontal bars, one per host: pages fetched, and the
// relevant part of them, of one crawl.
type HostChart struct {
	ID          string
	Title, Desc string
	Colour      int
	Hosts       []HostRow
}

// SVG draws the chart as a standalone SVG document.
func (c HostChart) SVG() string {
	const rowHeight, labelChars = 20, 32
	labelWidth := 0.0
	var fetchedMax float64
	for _, h := range c.Hosts {
		labelWidth = math.Max(labelWidth, textWidth(truncate(h.Host, labelChars), fontSize))
		fetchedMax = math.Max(fetchedMax, float64(h.Fetched))
	}
	left := math.Max(marginLeft, labelWidth+16)
	right := float64(chartWidth - 120) // room for the figures after the bar
	items := []legendItem{{"relevant", c.Colour}, {"fetched, not relevant", -1}}
	xs, rows, nRows := legendLayout(items, left, right-left)
	top := float64(titleHeight + nRows*legendRow + 12)
	height := top + rowHeight*float64(max(len(c.Hosts), 1)) + 12
	var w svgWriter
	w.open(c.ID, c.Title, c.Desc, chartWidth, height)
	w.WriteString(`<g class="legend">` + "\n")
	for i, it := range items {
		fill, opacity := colour(c.Colour), ""
		if it.colour < 0 {
			opacity = ` fill-opacity="0.25"`
		}
		x, y := xs[i], float64(titleHeight+12)+float64(rows[i])*legendRow
		w.printf(`<rect x="%s" y="%s" width="22" height="10" fill="%s"%s/>`+"\n", num(x), num(y-9), fill, opacity)
		w.printf(`<text class="legend-label" x="%s" y="%s" fill="#222">%s</text>`+"\n", num(x+28), num(y), esc(it.name))
	}
	w.WriteString("</g>\n")
	if len(c.Hosts) == 0 {
		w.text("empty", chartWidth/2, top+14, "middle", "no pages fetched yet", "")
		w.close()
		return w.String()
	}
	scale := (right - left) / fetchedMax
	for i, h := range c.Hosts {
		y := top + rowHeight*float64(i)
		w.text("tick host", left-8, y+13, "end", truncate(h.Host, labelChars), "")
		w.printf(`<rect class="bar" x="%s" y="%s" width="%s" height="14" fill="%s" fill-opacity="0.25"/>`+"\n",
			num(left), num(y+2), num(float64(h.Fetched)*scale), colour(c.Colour))
		w.printf(`<rect class="bar" x="%s" y="%s" width="%s" height="14" fill="%s"/>`+"\n",
			num(left), num(y+2), num(float64(h.Relevant)*scale), colour(c.Colour))
		w.text("figure", left+float64(h.Fetched)*scale+6, y+13, "start",
			formatCount(h.Relevant)+" / "+formatCount(h.Fetched)+" · "+formatPercent(Rate(h.Relevant, h.Fetched)), "")
	}
	w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`+"\n", num(left), num(top), num(left), num(height-12), axisColour)
	w.close()
	return w.String()
}

// pagesText is "1 page" or "N pages".
func pagesText(n int64) string {
	if n == 1 {
		return "1 page"
	}
	return formatCount(n) + " pages"
}
