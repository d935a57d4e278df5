package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/report"
)

const (
	flagLabel   = "label"
	flagTitle   = "title"
	flagServe   = "serve"
	flagRefresh = "refresh"
	flagSVG     = "svg"
	flagWindow  = "window"
)

func reportCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "report",
		Usage:     "one self-contained HTML page of harvest curves, depths, hosts, leases and errors; several --db overlay",
		ArgsUsage: " ",
		Description: `seed report --db crawl.db -o report.html writes the report; --db a.db --db b.db overlays the
crawls' curves, one colour each; --serve 127.0.0.1:8080 serves it, made again on each request;
--svg harvest writes one chart alone as SVG. docs/report.md tells what each chart shows.`,
		Flags: []ucli.Flag{
			&ucli.StringSliceFlag{Name: flagDB, Usage: "frontier `DB`: a SQLite file or redis://HOST:PORT/N?prefix=NAME (repeat to overlay several crawls)", EnvVars: cli.Env("report-db"), Required: true},
			&ucli.StringSliceFlag{Name: flagLabel, Usage: "legend `NAME` of the crawl of the same position (default: its file name)", EnvVars: cli.Env("report-label")},
			&ucli.StringFlag{Name: cli.FlagOutput, Aliases: []string{"o"}, Usage: "write to `FILE` (replaced whole, never half-written) instead of stdout", EnvVars: cli.Env("report-output")},
			&ucli.StringFlag{Name: flagTitle, Usage: "the page's `TITLE` (default: Crawl report)", EnvVars: cli.Env("report-title")},
			&ucli.StringFlag{Name: flagSVG, Usage: "write only the chart `NAME` as an SVG file: " + strings.Join(report.ChartNames(), ", "), EnvVars: cli.Env("report-svg")},
			&ucli.StringFlag{Name: flagServe, Usage: "serve the report live on `ADDR` (host:port) instead of writing it", EnvVars: cli.Env("report-serve")},
			&ucli.IntFlag{Name: flagRefresh, Value: 10, Usage: "with --serve: the page reloads itself every `N` seconds (0: never)", EnvVars: cli.Env("report-refresh")},
			&ucli.IntFlag{Name: flagWindow, Value: 100, Usage: "`N` pages in the moving window of the harvest rate", EnvVars: cli.Env("report-window")},
			&ucli.IntFlag{Name: flagTop, Value: 15, Usage: "list the `N` hosts with the most pages fetched", EnvVars: cli.Env("report-top")},
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

	named := make([]report.Named, 0, len(paths))
	defaults := defaultLabels(paths)
	for i, path := range paths {
		store, err := openExisting(c.Context, path)
		if err != nil {
			return err
		}
		defer store.Close()
		label := defaults[i]
		if i < len(labels) && labels[i] != "" {
			label = labels[i]
		}
		named = append(named, report.Named{Label: label, Source: store})
	}
	opts := report.Options{Window: c.Int(flagWindow), TopHosts: c.Int(flagTop)}
	page := report.Page{Title: c.String(flagTitle)}

	if serve != "" {
		page.Refresh = c.Int(flagRefresh)
		return serveReport(c.Context, serve, report.Handler(named, opts, page), c.App.ErrWriter)
	}
	crawls, err := report.CollectAll(c.Context, named, opts)
	if err != nil {
		return err
	}
	return writeReport(c.String(cli.FlagOutput), c.App.Writer, func(w io.Writer) error {
		if chart != "" {
			_, err := io.WriteString(w, report.Charts[chart](crawls))
			return err
		}
		page.Generated, page.Crawls = time.Now(), crawls
		return report.WriteHTML(w, page)
	})
}

// defaultLabels names each crawl by its file name (a Redis frontier by
// its prefix), or by its path as given where two crawls share a name.
func defaultLabels(paths []string) []string {
	name := func(p string) string {
		if !frontier.IsRedisURL(p) {
			return filepath.Base(p)
		}
		if u, err := url.Parse(p); err == nil && u.Query().Get("prefix") != "" {
			return u.Query().Get("prefix")
		}
		return frontier.DefaultRedisPrefix
	}
	count := map[string]int{}
	for _, p := range paths {
		count[name(p)]++
	}
	labels := make([]string, len(paths))
	for i, p := range paths {
		labels[i] = name(p)
		if count[labels[i]] > 1 && !frontier.IsRedisURL(p) {
			labels[i] = p
		}
	}
	return labels
}

// writeReport writes to path through a temporary file renamed into place,
// so a browser or a mail never sees half a report; to stdout without path.
func writeReport(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(stdout)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("-o %s: %w", path, err)
	}
	defer os.Remove(f.Name())
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return fmt.Errorf("-o %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("-o %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("-o %s: %w", path, err)
	}
	return nil
}

// serveReport serves h on addr until ctx ends (SIGINT, SIGTERM).
func serveReport(ctx context.Context, addr string, h http.Handler, log io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return cli.Usagef("--%s %s: %v", flagServe, addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(log, "seed report: serving http://%s/ (Ctrl-C stops)\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("--%s %s: %w", flagServe, addr, err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return ctx.Err()
}
