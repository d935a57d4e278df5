package seedurls

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/search"
)

// SearchOptions are the settings of one run of seed search.
type SearchOptions struct {
	Engines []search.Engine
	Queries []string
	Pages   int           // result pages per query (at least 1)
	Delay   time.Duration // between two requests to one engine
}

// SearchMeta is the meta object of a url record from seed search.
type SearchMeta struct {
	Queries []string `json:"queries"`
	Rank    int      `json:"rank"`
	Engines []string `json:"engines"`
	Title   string   `json:"title,omitempty"`
	Snippet string   `json:"snippet,omitempty"`
}

// Search is seed search from Go: it sends every query to every engine and
// writes one url record per URL found to out. A failed request is
// skipped.
func Search(ctx context.Context, out io.Writer, o SearchOptions) error {
	s := cli.NewStream(nil, out, nil)
	return firstErr(SearchStream(ctx, s, o), s.Close())
}

// SearchStream is seed search over an open stream: failed requests are
// logged, progress drawn with s.Progress, the summary logged at the end.
// It does not close s.
func SearchStream(ctx context.Context, s *cli.Stream, o SearchOptions) error {
	p := &searchProgress{log: s.Log, total: max(o.Pages, 1) * len(o.Queries) * len(o.Engines), start: time.Now()}
	var engines []search.Engine
	for _, e := range o.Engines {
		engines = append(engines, countingEngine{Engine: e, p: p})
	}
	stop := s.ShowProgress(time.Second, p.draw)
	found, err := search.MetaSearch(ctx, engines, search.Options{
		Queries: o.Queries, Pages: o.Pages, Delay: o.Delay,
		OnError: func(engine, q string, page int, err error) {
			s.Log.Errorf("%s: query %q page %d: %v", engine, q, page, err)
		},
	})
	stop()
	if err != nil {
		return err
	}
	sites := map[string]bool{}
	for _, f := range found {
		meta, err := json.Marshal(SearchMeta{Queries: f.Queries, Rank: f.Rank, Engines: f.Engines, Title: f.Title, Snippet: f.Snippet})
		if err != nil {
			return err
		}
		u := record.URL{URL: f.URL, Meta: meta}
		u.Site = f.Site
		if err := s.Out.Write(u); err != nil {
			return err
		}
		sites[f.Site] = true
	}
	s.Log.Infof("%d queries, %d engines: %d URLs on %d sites", len(o.Queries), len(o.Engines), len(found), len(sites))
	return nil
}

// Queries trims the queries given and those of file (one a line, #
// comments; nil: none), and drops the empty ones and repeats.
func Queries(given []string, file *os.File) ([]string, error) {
	var qs []string
	seen := map[string]bool{}
	add := func(q string) {
		q = strings.TrimSpace(q)
		if q != "" && !seen[q] {
			seen[q] = true
			qs = append(qs, q)
		}
	}
	for _, q := range given {
		add(q)
	}
	if file == nil {
		return qs, nil
	}
	sc := bufio.NewScanner(file)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); !strings.HasPrefix(line, "#") {
			add(line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", file.Name(), err)
	}
	return qs, nil
}

// searchProgress counts the requests of a meta-search for its progress
// line; countingEngine wraps each engine to count.
type searchProgress struct {
	log                   *cli.Logger
	total                 int // requests, at most
	done, failed, results atomic.Int64
	start                 time.Time
}

func (p *searchProgress) draw() {
	p.log.Progressf("%d of at most %d requests, %d failed, %d results, %.0fs",
		p.done.Load(), p.total, p.failed.Load(), p.results.Load(), time.Since(p.start).Seconds())
}

type countingEngine struct {
	search.Engine
	p *searchProgress
}

func (e countingEngine) Search(ctx context.Context, query string, page int) ([]search.Result, error) {
	rs, err := e.Engine.Search(ctx, query, page)
	e.p.done.Add(1)
	if err != nil {
		e.p.failed.Add(1)
	}
	e.p.results.Add(int64(len(rs)))
	return rs, err
}
