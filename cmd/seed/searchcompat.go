package main

import (
	"context"
	"sync/atomic"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/search"
)

// deprecatedQueryFlag reads the old spelling `-q QUERY`. -q used to be
// --query in seed search and is now --quiet, as everywhere; seed search
// takes no arguments, so words left after a -q are the queries of the
// old spelling: they are returned, and quiet is turned off again.
func deprecatedQueryFlag(c *ucli.Context) ([]string, error) {
	if !c.Args().Present() {
		return nil, nil
	}
	if !c.Bool(cli.FlagQuiet) {
		return nil, cli.Usagef("seed search reads no input: unexpected argument %q (queries go in --query)", c.Args().First())
	}
	if err := c.Set(cli.FlagQuiet, "false"); err != nil {
		return nil, err
	}
	return c.Args().Slice(), nil
}

// searchProgress counts the requests of a meta-search for its progress
// line, by wrapping each engine.
type searchProgress struct {
	st       *cli.Stream
	engines  []search.Engine
	total    int // requests per engine
	done     atomic.Int64
	failed   atomic.Int64
	results  atomic.Int64
	start    time.Time
	nEngines int
}

func newSearchProgress(st *cli.Stream, engines []search.Engine, perEngine int) *searchProgress {
	p := &searchProgress{st: st, total: perEngine, start: time.Now(), nEngines: len(engines)}
	for _, e := range engines {
		p.engines = append(p.engines, countingEngine{Engine: e, p: p})
	}
	return p
}

func (p *searchProgress) draw() {
	p.st.Log.Progressf("%d of at most %d requests, %d failed, %d results, %.0fs",
		p.done.Load(), p.total*p.nEngines, p.failed.Load(), p.results.Load(), time.Since(p.start).Seconds())
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
