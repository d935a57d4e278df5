package seed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/report"
)

// ReportOptions configure Report (seed report's flags, checked).
type ReportOptions struct {
	// DBs are the frontiers of the crawls, named by Labels where given
	// (by their file names otherwise).
	DBs, Labels []string
	// Output is the file written (stdout when empty or "-"), Title the
	// page's title, SVG the one chart written alone (report.Charts).
	Output, Title, SVG string
	// Serve, when set, is the address the report is served on, made again
	// on each request; the page reloads itself every Refresh seconds.
	Serve   string
	Refresh int
	// Window pages make the moving harvest rate; Top hosts are listed.
	Window, Top int

	// Docs, when set, are the crawl's archives of scored docs (seed add
	// --archive): the page gains a labelling section of LabelPages pages
	// drawn from them with LabelSeed. LabelsFile, when set, is a labels file
	// from an earlier round: its labels are pre-filled and exported again,
	// and its pages are not drawn again.
	Docs       []string
	LabelsFile string
	LabelPages int
	LabelSeed  uint64
}

// Report writes the HTML report (or one chart) of the crawls of o.DBs, or
// serves it until ctx ends; log gets the address it serves on, and the
// lines of o.Docs that could not be read (the report is written without
// them, and the error then wraps cli.ErrRejected).
func Report(ctx context.Context, o ReportOptions, stdout, log io.Writer) error {
	named := make([]report.Named, 0, len(o.DBs))
	defaults := defaultLabels(o.DBs)
	for i, path := range o.DBs {
		store, err := OpenReading(ctx, path)
		if err != nil {
			return err
		}
		defer store.Close()
		label := defaults[i]
		if i < len(o.Labels) && o.Labels[i] != "" {
			label = o.Labels[i]
		}
		named = append(named, report.Named{Label: label, Source: store})
	}
	opts := report.Options{Window: o.Window, TopHosts: o.Top}
	page := report.Page{Title: o.Title}
	var labelling *report.Labelling
	var rej *jsonl.Rejects
	if len(o.Docs) > 0 {
		rej, _ = jsonl.OpenRejects("", log)
		var err error
		if labelling, err = labellingOf(ctx, o, rej, log); err != nil {
			return err
		}
	}

	if o.Serve != "" {
		page.Refresh = o.Refresh
		return serveReport(ctx, o.Serve, report.Handler(named, opts, page), log)
	}
	crawls, err := report.CollectAll(ctx, named, opts)
	if err != nil {
		return err
	}
	if len(o.Docs) > 0 && o.SVG == "" {
		if err := report.FillTitles(ctx, o.Docs, crawls, io.Discard); err != nil { // the sample reported damaged lines
			return err
		}
	}
	err = writeReport(o.Output, stdout, func(w io.Writer) error {
		if o.SVG != "" {
			_, err := io.WriteString(w, report.Charts[o.SVG](crawls))
			return err
		}
		page.Generated, page.Crawls, page.Labelling = time.Now(), crawls, labelling
		return report.WriteHTML(w, page)
	})
	if err == nil && rej != nil && rej.Count() > 0 {
		return fmt.Errorf("%w: %d lines of --docs skipped", cli.ErrRejected, rej.Count())
	}
	return err
}

// labellingOf reads the earlier labels and draws the pages to label from
// the archives; a file that is not there is a usage error naming it.
func labellingOf(ctx context.Context, o ReportOptions, rej *jsonl.Rejects, log io.Writer) (*report.Labelling, error) {
	for _, name := range o.Docs {
		switch fi, err := os.Stat(name); {
		case errors.Is(err, fs.ErrNotExist):
			return nil, cli.Usagef("--docs %s: no such file (scripts/crawl.sh writes the archive DB.jsonl.zst beside the frontier DB.db)", name)
		case err == nil && fi.IsDir():
			return nil, cli.Usagef("--docs %s: a directory, not an archive of scored docs", name)
		}
	}
	l := &report.Labelling{Archives: o.Docs, LabelsFile: o.LabelsFile, Seed: o.LabelSeed}
	labelled := map[string]bool{}
	if o.LabelsFile != "" {
		var err error
		l.Earlier, err = jsonl.ReadLabels(o.LabelsFile)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, cli.Usagef("--labels %s: no such file", o.LabelsFile)
		}
		if err != nil {
			return nil, fmt.Errorf("--labels %w", err)
		}
		for _, e := range l.Earlier {
			labelled[e.URL] = true
		}
	}
	var err error
	l.Sample, err = report.SampleArchives(ctx, o.Docs, report.SampleOptions{Pages: o.LabelPages, Seed: o.LabelSeed, Labelled: labelled, Log: log}, rej)
	return l, err
}

// defaultLabels names each crawl by its file name (a Redis frontier by
// its prefix, a PostgreSQL one by its schema), or by its path as given
// where two crawls share a name.
func defaultLabels(paths []string) []string {
	name := func(p string) string {
		switch {
		case frontier.IsRedisURL(p):
			if u, err := url.Parse(p); err == nil && u.Query().Get("prefix") != "" {
				return u.Query().Get("prefix")
			}
			return frontier.DefaultRedisPrefix
		case frontier.IsPostgresURL(p):
			if u, err := url.Parse(p); err == nil && u.Query().Get("schema") != "" {
				return u.Query().Get("schema")
			}
			return frontier.DefaultPostgresSchema
		}
		return filepath.Base(p)
	}
	count := map[string]int{}
	for _, p := range paths {
		count[name(p)]++
	}
	labels := make([]string, len(paths))
	for i, p := range paths {
		labels[i] = name(p)
		if count[labels[i]] > 1 && !frontier.IsRedisURL(p) && !frontier.IsPostgresURL(p) {
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
	f, err := createBeside(path)
	if err != nil {
		return fmt.Errorf("-o %s: %w", path, err)
	}
	defer os.Remove(f.Name())
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("-o %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("-o %s: %w", path, err)
	}
	return nil
}

// createBeside creates a new temporary file next to path, mode 0644 less
// the umask (as any file the user writes: a umask of 077 keeps a report
// private), where os.CreateTemp would make it 0600.
func createBeside(path string) (*os.File, error) {
	for {
		name := filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s.%d", filepath.Base(path), rand.Uint32()))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
}

// serveReport serves h on addr until ctx ends (SIGINT, SIGTERM).
func serveReport(ctx context.Context, addr string, h http.Handler, log io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return cli.Usagef("--serve %s: %v", addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(log, "seed report: serving http://%s/ (Ctrl-C stops)\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("--serve %s: %w", addr, err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return ctx.Err()
}
