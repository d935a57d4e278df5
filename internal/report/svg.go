package report

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Palette gives each crawl its colour (Okabe and Ito's colour-blind safe
// set); crawls past its length repeat the colours with another dash
// pattern, so no two crawls look alike.
var Palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C6D31"}

var dashes = []string{"", "6 3", "2 3", "8 3 2 3"}

func colour(i int) string { return Palette[i%len(Palette)] }

func dash(i int) string { return dashes[(i/len(Palette))%len(dashes)] }

// Chart geometry, in SVG user units.
const (
	chartWidth   = 720
	chartHeight  = 330
	marginLeft   = 64
	marginRight  = 24
	marginBottom = 48
	titleHeight  = 28
	legendRow    = 18
	fontFamily   = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK SC', sans-serif"
	fontSize     = 12
	axisColour   = "#444"
	gridColour   = "#ddd"
)

// svgWriter builds one SVG document.
type svgWriter struct {
	strings.Builder
}

// esc escapes text for SVG (XML) content and attributes.
func esc(s string) string { return html.EscapeString(s) }

// num writes a coordinate with one decimal, without a trailing ".0".
func num(v float64) string {
	s := strconv.FormatFloat(math.Round(v*10)/10, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	if s == "-0" {
		s = "0"
	}
	return s
}

func (w *svgWriter) printf(format string, args ...any) { fmt.Fprintf(w, format, args...) }

// open starts the document: size, accessible name (title) and
// description (desc), and the visible title.
func (w *svgWriter) open(id, title, desc string, width, height float64) {
	w.printf(`<svg xmlns="http://www.w3.org/2000/svg" id="%s" class="chart" viewBox="0 0 %s %s" width="%s" height="%s" role="img" aria-labelledby="%s-title %s-desc" font-family="%s" font-size="%d">`+"\n",
		esc(id), num(width), num(height), num(width), num(height), esc(id), esc(id), esc(fontFamily), fontSize)
	w.printf(`<title id="%s-title">%s</title>`+"\n", esc(id), esc(title))
	w.printf(`<desc id="%s-desc">%s</desc>`+"\n", esc(id), esc(desc))
	w.printf(`<rect width="%s" height="%s" fill="#fff"/>`+"\n", num(width), num(height))
	w.printf(`<text class="chart-title" x="%s" y="18" font-size="14" font-weight="600" fill="#222">%s</text>`+"\n", num(marginLeft), esc(title))
}

func (w *svgWriter) close() { w.WriteString("</svg>\n") }

// text writes a label; anchor is start, middle or end.
func (w *svgWriter) text(class string, x, y float64, anchor, s string, extra string) {
	w.printf(`<text class="%s" x="%s" y="%s" text-anchor="%s" fill="%s"%s>%s</text>`+"\n", class, num(x), num(y), anchor, axisColour, extra, esc(s))
}

// textWidth estimates the width of s at fontSize: wide (CJK) runes count
// as one em, the others as 0.6 em.
func textWidth(s string, size float64) float64 {
	var w float64
	for _, r := range s {
		if r >= 0x1100 && utf8.RuneLen(r) >= 3 {
			w += size
		} else {
			w += 0.6 * size
		}
	}
	return w
}

// truncate cuts s to at most n runes, marking the cut with "…".
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// legendItem is one entry of a legend.
type legendItem struct {
	name   string
	colour int
}

// legendLayout places the items in rows that fit width, from x0; it
// returns each item's position and the number of rows.
func legendLayout(items []legendItem, x0, width float64) (xs []float64, rows []int, nRows int) {
	x, row := x0, 0
	for _, it := range items {
		w := 30 + textWidth(truncate(it.name, 40), fontSize) + 18
		if x > x0 && x+w > x0+width {
			x, row = x0, row+1
		}
		xs = append(xs, x)
		rows = append(rows, row)
		x += w
	}
	if len(items) > 0 {
		nRows = row + 1
	}
	return xs, rows, nRows
}

// legend draws the items at the rows legendLayout chose, under y0.
func (w *svgWriter) legend(items []legendItem, xs []float64, rows []int, y0 float64, bars bool) {
	w.WriteString(`<g class="legend">` + "\n")
	for i, it := range items {
		x, y := xs[i], y0+float64(rows[i])*legendRow
		if bars {
			w.printf(`<rect x="%s" y="%s" width="22" height="10" fill="%s"/>`+"\n", num(x), num(y-9), colour(it.colour))
		} else {
			w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2.5"%s/>`+"\n",
				num(x), num(y-4), num(x+22), num(y-4), colour(it.colour), dashAttr(it.colour))
		}
		w.printf(`<text class="legend-label" x="%s" y="%s" fill="#222">%s</text>`+"\n", num(x+28), num(y), esc(truncate(it.name, 40)))
	}
	w.WriteString("</g>\n")
}

func dashAttr(i int) string {
	if d := dash(i); d != "" {
		return fmt.Sprintf(` stroke-dasharray="%s"`, d)
	}
	return ""
}

// niceTicks returns round tick values from 0 to at least max, about n
// of them (at most 1.6n): steps of 1, 2, 5 or 2.5 times a power of ten,
// the one whose last tick, the axis top, wastes the least room; between
// equals 1, 2 and 5 win over 2.5.
func niceTicks(max float64, n int) []float64 {
	if max <= 0 || math.IsNaN(max) || math.IsInf(max, 0) {
		max = 1
	}
	raw := max / float64(n)
	pow := math.Pow(10, math.Floor(math.Log10(raw/1.6)))
	best, bestTop := 0.0, math.Inf(1)
	for _, p := range []float64{pow, pow * 10} {
		for _, m := range []float64{1, 2, 5, 2.5} {
			step := m * p
			if step < raw/1.6 {
				continue
			}
			if top := math.Ceil(max/step-1e-9) * step; top < bestTop-step*1e-9 {
				best, bestTop = step, top
			}
		}
	}
	var ticks []float64
	for k := 0.0; ; k++ {
		// Twelve digits drop the float noise of k × best (0.6000000000000001).
		v, _ := strconv.ParseFloat(strconv.FormatFloat(k*best, 'g', 12, 64), 64)
		ticks = append(ticks, v)
		if v >= bestTop-best*1e-9 {
			break
		}
	}
	return ticks
}

// formatTick prints a tick value briefly: 1500 → "1.5k", 0.25 → "0.25".
func formatTick(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	case a >= 1e4:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64)
}

// timeUnit picks the unit of a time axis of max seconds.
func timeUnit(max float64) (name string, seconds float64) {
	switch {
	case max <= 180:
		return "s", 1
	case max <= 3*3600:
		return "min", 60
	case max <= 3*86400:
		return "h", 3600
	}
	return "days", 86400
}
