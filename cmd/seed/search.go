package main

import (
	"errors"
	"os"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/search"
	"github.com/focuscrawl/focuscrawl/internal/stage/seedurls"
)

const (
	flagQuery      = "query"
	flagQueries    = "queries"
	flagEngine     = "engine"
	flagEndpoint   = "endpoint"
	flagPages      = "pages"
	flagDelay      = "delay"
	flagTimeout    = "timeout"
	flagUserAgent  = "user-agent"
	flagLanguage   = "language"
	flagCategories = "categories"
)

func searchCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "search",
		Usage:     "meta-search: query search engines and write the union of the results as url records",
		ArgsUsage: " ",
		Description: "Sends every query (-q, --queries) to every engine (--engine searxng with --endpoint,\n" +
			"or --engine FILE.yaml describing a result page; see examples/engines/), --pages pages\n" +
			"each, one request per engine every --delay. Writes one url record per unique URL with\n" +
			"meta.queries, meta.rank (best rank), meta.engines, meta.title and meta.snippet.\n" +
			"A failed request is reported on stderr and the others go on.\n" +
			"-q is --quiet, as in every command; the old -q QUERY still works, with a warning.",
		Flags: append([]ucli.Flag{
			&ucli.StringSliceFlag{Name: flagQuery, Usage: "a search `QUERY` (repeatable)"},
			&ucli.StringFlag{Name: flagQueries, Usage: "read queries from `FILE`, one per line (# comments)"},
			&ucli.StringSliceFlag{Name: flagEngine, Value: ucli.NewStringSlice("searxng"), Usage: "`ENGINE`: searxng, or a YAML engine description file (repeatable)"},
			&ucli.StringFlag{Name: flagEndpoint, Usage: "the SearXNG instance's `URL`"},
			&ucli.IntFlag{Name: flagPages, Value: 1, Usage: "result pages per query"},
			&ucli.DurationFlag{Name: flagDelay, Value: 2 * time.Second, Usage: "wait `DURATION` between two requests to one engine"},
			&ucli.DurationFlag{Name: flagTimeout, Value: 20 * time.Second, Usage: "give up a request after `DURATION`"},
			&ucli.StringFlag{Name: flagUserAgent, Value: search.DefaultUserAgent, Usage: "User-Agent `STRING`"},
			&ucli.StringFlag{Name: flagLanguage, Usage: "SearXNG language `CODE` (zh-CN, en, all)"},
			&ucli.StringFlag{Name: flagCategories, Usage: "SearXNG `CATEGORIES` (general, news, …)"},
			allowPrivateFlag(),
		}, cli.StreamFlags()...),
		Action: runSearch,
	}
}

func runSearch(c *ucli.Context) error {
	oldQueries, err := deprecatedQueryFlag(c)
	if err != nil {
		return err
	}
	o := seedurls.SearchOptions{Pages: c.Int(flagPages), Delay: c.Duration(flagDelay)}
	if o.Queries, err = searchQueries(c, oldQueries); err != nil {
		return err
	}
	if o.Pages < 1 {
		return cli.Usagef("--%s %d: ask at least one page", flagPages, o.Pages)
	}
	client := search.NewClient(c.Duration(flagTimeout), c.String(flagUserAgent), netPolicy(c))
	for _, name := range c.StringSlice(flagEngine) {
		if name == "searxng" {
			if c.String(flagEndpoint) == "" {
				return cli.Usagef("--engine searxng needs --%s URL (a SearXNG instance with the json format on)", flagEndpoint)
			}
			o.Engines = append(o.Engines, &search.SearXNG{Endpoint: c.String(flagEndpoint), Language: c.String(flagLanguage),
				Categories: c.String(flagCategories), Client: client})
			continue
		}
		g, err := search.LoadGeneric(name, client)
		if err != nil {
			return cli.Usagef("--%s: %w", flagEngine, err)
		}
		o.Engines = append(o.Engines, g)
	}
	st, err := cli.OpenStreamWith(c, nil, nil, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return err
	}
	if len(oldQueries) > 0 {
		st.Log.Errorf("-q QUERY is deprecated: -q is --quiet in every command; write --query QUERY")
	}
	return errors.Join(seedurls.SearchStream(c.Context, st, o), st.Close())
}

// searchQueries gathers -q and --queries, without duplicates.
func searchQueries(c *ucli.Context, extra []string) ([]string, error) {
	var file *os.File
	if path := c.String(flagQueries); path != "" {
		f, err := os.Open(path)
		if err != nil {
			return nil, cli.Usagef("--%s: %w", flagQueries, err)
		}
		defer f.Close()
		file = f
	}
	qs, err := seedurls.Queries(append(c.StringSlice(flagQuery), extra...), file)
	if err == nil && len(qs) == 0 {
		err = cli.Usagef("no query: give -q QUERY or --%s FILE", flagQueries)
	}
	return qs, err
}
