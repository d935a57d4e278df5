package report

import (
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// Page is one HTML report of one or more crawls.
type Page struct {
	// Title heads the page ("Crawl report" when empty).
	Title string
	// Generated is when the report was made, printed at its foot.
	Generated time.Time
	// Refresh, when above 0, makes the browser reload the page every
	// Refresh seconds (seed report --serve).
	Refresh int
	Crawls  []*Crawl
	// Labelling, when set, adds the section where a user marks pages
	// relevant or not and exports the labels (the page's only script).
	Labelling *Labelling
}

// figure is a chart and its table.
type figure struct {
	SVG   template.HTML
	Table table
}

// crawlSection is what the page shows of one crawl alone.
type crawlSection struct {
	Label, Colour string
	Top           table
	Scores        figure
	Hosts         figure
	Health        table
	Errors        table
	ErrorHosts    table
	Status        table
	Refused       table
	Parked        table
}

type view struct {
	Title, Generated string
	Refresh          int
	Policy           string
	Summary          table
	Curves           []figure
	Depth            []figure
	Crawls           []crawlSection
	Labelling        *labelView
}

// WriteHTML writes the report as one self-contained HTML document.
func WriteHTML(w io.Writer, p Page) error {
	v := view{Title: p.Title, Refresh: p.Refresh, Generated: stamp(p.Generated),
		Policy: contentPolicy(p.Labelling != nil), Labelling: labellingView(p.Labelling)}
	if v.Title == "" {
		v.Title = "Crawl report"
	}
	v.Summary = summaryTable(p.Crawls)
	for _, c := range []LineChart{HarvestChart(p.Crawls), MovingChart(p.Crawls), FoundChart(p.Crawls), RateChart(p.Crawls), QueueChart(p.Crawls)} {
		format := formatPercent
		switch c.ID {
		case "found", "queue":
			format = func(v float64) string { return formatCount(int64(v)) }
		case "rate":
			format = func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
		}
		v.Curves = append(v.Curves, figure{SVG: template.HTML(c.SVG()), Table: curveTable(c, format)})
	}
	pages := DepthPagesChart(p.Crawls)
	v.Depth = []figure{
		{SVG: template.HTML(pages.SVG()), Table: barTable(pages, func(v float64) string { return formatCount(int64(v)) })},
		{SVG: template.HTML(DepthHarvestChart(p.Crawls).SVG()), Table: depthTable(p.Crawls)},
	}
	for i, cr := range p.Crawls {
		v.Crawls = append(v.Crawls, crawlSection{
			Label: cr.Label, Colour: colour(i),
			Top:        topTable(cr),
			Scores:     figure{SVG: template.HTML(ScoreChart(cr, i).SVG()), Table: scoreTable(cr)},
			Hosts:      figure{SVG: template.HTML(HostsChart(cr, i).SVG()), Table: hostTable(cr)},
			Health:     healthTable(cr),
			Errors:     errorTable(cr),
			ErrorHosts: errorHostTable(cr),
			Status:     countTable("HTTP statuses of "+cr.Label, "status", "pages", cr.Status),
			Refused:    countTable("URLs of "+cr.Label+" refused, by guard", "guard", "URLs", cr.Refused),
			Parked:     parkedTable(cr),
		})
	}
	if err := pageTemplate.Execute(w, v); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "–"
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

func infoText(info map[string]string, key string) string {
	if v := info[key]; v != "" {
		return v
	}
	return "not recorded"
}

func summaryTable(crawls []*Crawl) table {
	t := table{Caption: "The crawls", Head: []string{"crawl", "topic", "link strategy", "page scoring", "pages fetched",
		"relevant", "harvest rate", "failed", "first fetch", "last fetch", "duration", "runs"}}
	for i, cr := range crawls {
		dur := "–"
		if cr.Fetched > 0 {
			dur = formatDuration(cr.Last.Sub(cr.First).Seconds())
		}
		first, last := "–", "–"
		if cr.Fetched > 0 {
			first, last = stamp(cr.First), stamp(cr.Last)
		}
		t.Rows = append(t.Rows, []cell{{Text: cr.Label, Colour: colour(i)},
			{Text: infoText(cr.Info, frontier.InfoTopic)}, {Text: infoText(cr.Info, frontier.InfoLinks)}, {Text: infoText(cr.Info, frontier.InfoPage)},
			numCell(formatCount(cr.Fetched)), numCell(formatCount(cr.Relevant)), numCell(rateText(cr.Relevant, cr.Fetched)),
			numCell(formatCount(cr.Failed)), {Text: first}, {Text: last}, numCell(dur), {Text: runsText(cr)}})
	}
	return t
}

func healthTable(cr *Crawl) table {
	t := table{Caption: "URLs, leases and errors of " + cr.Label, Head: []string{"", "URLs"}}
	add := func(name string, n int64) {
		t.Rows = append(t.Rows, []cell{{Text: name}, numCell(formatCount(n))})
	}
	for _, s := range []frontier.State{frontier.Queued, frontier.Reserve, frontier.Leased, frontier.Done, frontier.Failed} {
		name := s.String()
		if s == frontier.Reserve {
			name = "in the reserve (links under thresholds.link)"
		}
		add(name, cr.States[s.String()])
	}
	add("pages fetched from the reserve", cr.FetchedReserve)
	add("leases expired (queued again)", cr.Expired)
	add("hosts known", cr.Hosts0)
	var refused int64
	for _, r := range cr.Refused {
		refused += r.N
	}
	add("refused", refused)
	add("hosts parked", int64(len(cr.Parked)))
	return t
}

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"css": func(s string) template.CSS { return template.CSS(s) },
}).Parse(strings.TrimSpace(pageHTML) + "\n"))

const pageHTML = `
{{define "table"}}<table>
<caption>{{.Caption}}</caption>
<thead><tr>{{range .Head}}<th scope="col">{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Rows}}
<tr>{{range .}}<td{{if .Num}} class="num"{{end}}>{{if .Colour}}<span class="swatch" style="background:{{css .Colour}}"></span>{{end}}{{.Text}}</td>{{end}}</tr>
{{- else}}
<tr><td colspan="{{len .Head}}">none</td></tr>
{{- end}}
</tbody>
</table>{{end}}
{{define "figure"}}<figure>
{{.SVG}}{{if .Table.Caption}}<details><summary>Table: {{.Table.Caption}}</summary>
{{template "table" .Table}}
</details>{{end}}
</figure>{{end}}
{{define "labelitem"}}<li data-page="{{.URL}}" data-title="{{.Title}}"{{if .Prior}} data-prior="{{.Prior}}"{{end}}{{if .Line}} data-line="{{.Line}}"{{end}}>
<fieldset>
<legend><a href="{{.Link}}" rel="noopener noreferrer" target="_blank">{{if .Title}}{{.Title}}{{else}}(no title){{end}}</a></legend>
<p class="label-meta">{{if .InArchive}}score {{.Score}}, {{.Verdict}}{{else}}no scored doc in the archive{{end}} · {{.ShortURL}}</p>
{{- if .Excerpt}}
<p class="excerpt">{{.Excerpt}}</p>
{{- end}}
<div class="choices"><label><input type="radio" name="l{{.N}}" value="yes"{{if eq .Prior "yes"}} checked{{end}}> relevant</label> <label><input type="radio" name="l{{.N}}" value="no"{{if eq .Prior "no"}} checked{{end}}> not relevant</label> <label><input type="radio" name="l{{.N}}" value=""{{if not .Prior}} checked{{end}}> unlabelled</label></div>
</fieldset>
</li>
{{end -}}
{{define "labelling"}}<section id="labelling" aria-labelledby="labelling-h" data-key="{{.Key}}">
<h2 id="labelling-h">Label pages for score train</h2>
<p>Mark each page <strong>relevant</strong> to the topic or <strong>not relevant</strong>, as you judge it, not as score did; leave it unlabelled when unsure. Open a page by its title. <strong>Export</strong> downloads <code>labels.jsonl</code> for <code>score train --labels labels.jsonl</code>. With the focus on a page, the keys <kbd>y</kbd>, <kbd>n</kbd> and <kbd>u</kbd> mark it and go to the next; the arrow keys move between its choices. Your marks are kept in this browser until you export.</p>
<p class="meta">{{.Shown}} pages drawn from the {{.Docs}} scored docs of {{.Archives}} (sample seed {{.Seed}}){{if .Threshold}}, the lowest score judged relevant being {{.Threshold}}{{end}}: half judged relevant by score and half not (a side with fewer pages leaves the rest to the other), each half shared equally between four score bands from the threshold outwards, so that the pages near the threshold, where a label teaches most, are many{{if .LabelsFile}}; pages labelled in {{.LabelsFile}} are not drawn again{{end}}.</p>
<noscript><p class="note">Labelling needs JavaScript, which is off: the marks cannot be counted, kept or exported. The rest of the report works without it.</p></noscript>
<div class="label-bar" hidden><button type="button" id="label-export">Export labels.jsonl</button><p id="label-count" role="status" aria-live="polite"></p><p id="label-status" role="status"></p></div>
<details><summary>Table: {{.Bands.Caption}}</summary>
{{template "table" .Bands}}
</details>
<h3>Judged relevant by score ({{len .Relevant}})</h3>
{{if .Relevant}}<ol class="labels">
{{range .Relevant}}{{template "labelitem" .}}{{end}}</ol>{{else}}<p>none</p>{{end}}
<h3>Judged not relevant by score ({{len .Other}})</h3>
{{if .Other}}<ol class="labels">
{{range .Other}}{{template "labelitem" .}}{{end}}</ol>{{else}}<p>none</p>{{end}}
{{- if .Earlier}}
<details id="earlier-labels"><summary>Labels from {{.LabelsFile}} ({{len .Earlier}}), exported again with the new ones</summary>
<ol class="labels">
{{range .Earlier}}{{template "labelitem" .}}{{end}}</ol>
</details>
{{- end}}
<script>{{.Script}}</script>
</section>{{end -}}
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{{- if .Refresh}}
<meta http-equiv="refresh" content="{{.Refresh}}">
{{- end}}
<meta http-equiv="Content-Security-Policy" content="{{.Policy}}">
<meta name="generator" content="focuscrawl seed report">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", sans-serif; margin: 2rem auto; max-width: 1100px; padding: 0 1rem; color: #222; background: #fff; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.25rem; margin-top: 2.5rem; border-bottom: 1px solid #ddd; padding-bottom: 0.3rem; }
h3 { font-size: 1.05rem; margin-top: 1.8rem; }
.meta { color: #555; margin-top: 0; }
figure { margin: 1.2rem 0; }
svg.chart { max-width: 100%; height: auto; display: block; }
table { border-collapse: collapse; margin: 0.6rem 0 1rem; font-size: 0.9rem; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.3rem; }
th, td { border-bottom: 1px solid #e4e4e4; padding: 0.25rem 0.7rem; text-align: left; vertical-align: top; }
th { background: #f5f5f5; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.4em; border-radius: 2px; vertical-align: -0.05em; }
details { margin: 0.3rem 0 0.8rem; }
summary { cursor: pointer; color: #0a58ca; }
.tables { display: flex; flex-wrap: wrap; align-items: flex-start; gap: 0 2.5rem; }
td:first-child { white-space: nowrap; }
footer { margin-top: 3rem; color: #666; font-size: 0.85rem; }
{{- if .Labelling}}
.label-bar { position: sticky; top: 0; z-index: 1; background: #fff; border-bottom: 1px solid #ddd; padding: 0.5rem 0; display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; }
.label-bar p { margin: 0; }
.label-bar button { font: inherit; padding: 0.3rem 0.9rem; }
ol.labels { padding-left: 2.2rem; }
ol.labels li { margin: 0.6rem 0; scroll-margin-top: 4rem; }
ol.labels input { scroll-margin-top: 6rem; }
ol.labels fieldset { border: 1px solid #ddd; border-left: 0.35rem solid #ddd; border-radius: 3px; padding: 0.4rem 0.8rem 0.5rem; margin: 0; }
ol.labels li:has(input[value="yes"]:checked) fieldset { border-left-color: #1a7f37; background: #f3faf4; }
ol.labels li:has(input[value="no"]:checked) fieldset { border-left-color: #b42318; background: #fdf4f3; }
ol.labels legend { font-weight: 600; padding: 0 0.3rem; overflow-wrap: anywhere; }
.label-meta { color: #555; font-size: 0.85rem; margin: 0.1rem 0 0.3rem; overflow-wrap: anywhere; }
.excerpt { margin: 0.2rem 0 0.4rem; font-size: 0.9rem; overflow-wrap: anywhere; }
.choices label { margin-right: 1.2rem; white-space: nowrap; }
.note { background: #fff8e1; padding: 0.4rem 0.7rem; }
{{- end}}
</style>
</head>
<body>
<header>
<h1>{{.Title}}</h1>
<p class="meta">Generated {{.Generated}}{{if .Refresh}}; reloads every {{.Refresh}} s{{end}}. Harvest rate = pages judged relevant by score / pages fetched.{{if .Labelling}} <a href="#labelling">Label pages</a> for score train.{{end}}</p>
</header>
<main>
<section id="crawls" aria-labelledby="crawls-h">
<h2 id="crawls-h">Crawls</h2>
{{template "table" .Summary}}
</section>
<section id="curves" aria-labelledby="curves-h">
<h2 id="curves-h">Harvest</h2>
{{range .Curves}}{{template "figure" .}}
{{end}}</section>
<section id="relevant" aria-labelledby="relevant-h">
<h2 id="relevant-h">Relevant pages found</h2>
{{range .Crawls}}<h3><span class="swatch" style="background:{{css .Colour}}"></span>{{.Label}}</h3>
{{template "table" .Top}}
{{end}}</section>
<section id="scores" aria-labelledby="scores-h">
<h2 id="scores-h">Scores against the threshold</h2>
{{range .Crawls}}{{template "figure" .Scores}}
{{end}}</section>
<section id="depths" aria-labelledby="depths-h">
<h2 id="depths-h">Depth</h2>
{{range .Depth}}{{template "figure" .}}
{{end}}</section>
<section id="hosts" aria-labelledby="hosts-h">
<h2 id="hosts-h">Hosts</h2>
{{range .Crawls}}<h3><span class="swatch" style="background:{{css .Colour}}"></span>{{.Label}}</h3>
{{template "figure" .Hosts}}
{{end}}</section>
<section id="health" aria-labelledby="health-h">
<h2 id="health-h">Leases, errors, refusals and parked hosts</h2>
{{range .Crawls}}<h3><span class="swatch" style="background:{{css .Colour}}"></span>{{.Label}}</h3>
<div class="tables">
{{template "table" .Health}}
{{template "table" .Errors}}
{{template "table" .ErrorHosts}}
{{template "table" .Status}}
{{template "table" .Refused}}
</div>
{{template "table" .Parked}}
{{end}}</section>
{{- with .Labelling}}
{{template "labelling" .}}
{{- end}}
</main>
<footer>focuscrawl seed report · one self-contained file: {{if .Labelling}}one script, for labelling{{else}}no scripts{{end}}, no network.</footer>
</body>
</html>
`
