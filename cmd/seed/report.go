package main

import (
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/report"
	"github.com/focuscrawl/focuscrawl/internal/stage/seed"
)

const (
	flagLabel   = "label"
	flagTitle   = "title"
	flagServe   = "serve"
	flagRefresh = "refresh"
	flagSVG     = "svg"
	flagWindow  = "window"

	flagDocs       = "docs"
	flagLabels     = "labels"
	flagLabelPages = "label-pages"
	flagLabelSeed  = "label-seed"

	// maxLabelPages bounds the labelling section: a page of ten thousand
	// pages to read is already more than anyone labels in one sitting.
	maxLabelPages = 10000
)

func reportCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "report",
		Usage:     "one self-contained HTML page of harvest curves, depths, hosts, leases and errors; several --db overlay",
		ArgsUsage: " ",
		Description: `seed report --db crawl.db -o report.html writes the report; --db a.db --db b.db overlays the
crawls' curves, one colour each; --serve 127.0.0.1:8080 serves it, made again on each request;
--svg harvest writes one chart alone as SVG. docs/report.md tells what each chart shows.

--docs crawl.jsonl.zst (the archive scripts/crawl.sh writes beside crawl.db) adds a section
where you mark pages relevant or not and export labels.jsonl for score train --labels; the
pages are those judged relevant and a sample of the others, stratified by score around the
threshold. --labels labels.jsonl pre-fills the labels of an earlier round.`,
		Flags: []ucli.Flag{
			&ucli.StringSliceFlag{Name: flagDB, Usage: "frontier `FILE`: a SQLite file, redis://HOST:PORT/N?prefix=NAME or postgres://HOST:PORT/DATABASE?schema=NAME (repeat to overlay several crawls)", Required: true},
			&ucli.StringSliceFlag{Name: flagLabel, Usage: "legend `NAME` of the crawl of the same position (default: its file name)"},
			&ucli.StringFlag{Name: cli.FlagOutput, Aliases: []string{"o"}, Usage: "write to `FILE` (replaced whole, never half-written) instead of stdout"},
			&ucli.StringFlag{Name: flagTitle, Usage: "the page's `TITLE` (default: Crawl report)"},
			&ucli.StringFlag{Name: flagSVG, Usage: "write only the chart `NAME` as an SVG file: " + strings.Join(report.ChartNames(), ", ")},
			&ucli.StringFlag{Name: flagServe, Usage: "serve the report live on `ADDR` (host:port) instead of writing it"},
			&ucli.IntFlag{Name: flagRefresh, Value: 10, Usage: "with --serve: the page reloads itself every `N` seconds (0: never)"},
			&ucli.IntFlag{Name: flagWindow, Value: 100, Usage: "`N` pages in the moving window of the harvest rate"},
			&ucli.IntFlag{Name: flagTop, Value: 15, Usage: "list the `N` hosts with the most pages fetched"},
			&ucli.StringSliceFlag{Name: flagDocs, Usage: "the crawl's `ARCHIVE` of scored docs (seed add --archive; .gz/.zst read): add a section to label pages from it (repeatable)"},
			&ucli.StringFlag{Name: flagLabels, Usage: "labels `FILE` of an earlier round (JSONL): pre-filled, exported again, its pages not drawn again (needs --docs)"},
			&ucli.IntFlag{Name: flagLabelPages, Value: 200, Usage: "offer `N` pages to label"},
			&ucli.Uint64Flag{Name: flagLabelSeed, Value: 1, Usage: "the sample's `SEED`: the same archive, labels and seed give the same pages"},
		},
		Action: runReport,
	}
}

func runReport(c *ucli.Context) error {
	if c.Args().Present() {
		return cli.Usagef("seed report reads no input: unexpected argument %q", c.Args().First())
	}
	paths, labels := c.StringSlice(flagDB), c.StringSlice(flagLabel)
	if len(labels) > len(paths) {
		return cli.Usagef("--%s: %d labels for %d --%s", flagLabel, len(labels), len(paths), flagDB)
	}
	if n := c.Int(flagWindow); n < 1 {
		return cli.Usagef("--%s %d: the window must hold at least 1 page", flagWindow, n)
	}
	if n := c.Int(flagTop); n < 1 {
		return cli.Usagef("--%s %d: list at least 1 host", flagTop, n)
	}
	if n := c.Int(flagRefresh); n < 0 {
		return cli.Usagef("--%s %d: seconds must be 0 or more", flagRefresh, n)
	}
	chart := c.String(flagSVG)
	if chart != "" && report.Charts[chart] == nil {
		return cli.Usagef("--%s %q: no such chart (%s)", flagSVG, chart, strings.Join(report.ChartNames(), ", "))
	}
	serve := c.String(flagServe)
	if serve != "" && (chart != "" || c.String(cli.FlagOutput) != "") {
		return cli.Usagef("--%s serves the report: it takes neither --%s nor -o", flagServe, flagSVG)
	}
	docs := c.StringSlice(flagDocs)
	switch n := c.Int(flagLabelPages); {
	case c.String(flagLabels) != "" && len(docs) == 0:
		return cli.Usagef("--%s needs --%s: the labels go on in a labelling section drawn from the crawl's archive", flagLabels, flagDocs)
	case len(docs) > 0 && (serve != "" || chart != ""):
		return cli.Usagef("--%s labels pages in a report written to a file: it takes neither --%s nor --%s", flagDocs, flagServe, flagSVG)
	case n < 1 || n > maxLabelPages:
		return cli.Usagef("--%s %d: offer from 1 to %d pages", flagLabelPages, n, maxLabelPages)
	}

	return seed.Report(c.Context, seed.ReportOptions{DBs: paths, Labels: labels, Output: c.String(cli.FlagOutput),
		Title: c.String(flagTitle), SVG: chart, Serve: serve, Refresh: c.Int(flagRefresh), Window: c.Int(flagWindow),
		Top: c.Int(flagTop), Docs: docs, LabelsFile: c.String(flagLabels), LabelPages: c.Int(flagLabelPages),
		LabelSeed: c.Uint64(flagLabelSeed)}, c.App.Writer, c.App.ErrWriter)
}
