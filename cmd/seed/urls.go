package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/seenset"
	"github.com/focuscrawl/focuscrawl/internal/stage/seedurls"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// Flags of seed urls.
const (
	urlsFlagSortQuery     = "sort-query"
	urlsFlagMemory        = "memory"
	urlsFlagTempDir       = "temp-dir"
	urlsFlagScope         = "scope"
	urlsFlagDefaultScheme = "default-scheme"
	urlsFlagWorkers       = "workers"
)

func urlsCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "urls",
		Usage:     "normalise and de-duplicate URL lists into url records (depth 0)",
		ArgsUsage: "[FILE...]",
		Description: `Reads plain lines holding one URL, or url records (any JSON object with a
"url" field), from the FILEs in order or from stdin; "#" lines are comments.
Each URL is normalised (see docs/seed-urls.md), exact duplicates after
normalisation are dropped (the first one wins) and the rest come out as url
records with depth 0 and their site key. The other fields of input records,
meta included, are kept. Lines that are not http(s) URLs are reported as
NAME:LINE: reason and the exit status is 3.

De-duplication is exact and bounded in memory: beyond --memory the set of
seen URLs spills to sorted files in --temp-dir.

EXAMPLE:
   seed urls seeds.txt more-seeds.jsonl.gz | seed add --db crawl.db`,
		Flags: append(cli.StreamFlags(),
			&ucli.BoolFlag{Name: urlsFlagSortQuery, Usage: "sort query parameters by name before comparing (some servers care about the order)"},
			&ucli.StringFlag{Name: urlsFlagScope, Value: cli.ScopeSite, Usage: "site key: site (registrable domain) or host"},
			&ucli.StringFlag{Name: urlsFlagDefaultScheme, Usage: "scheme (http or https) for lines without one, such as www.example.com; by default they are rejected"},
			&ucli.StringFlag{Name: urlsFlagMemory, Value: "256MiB", Usage: "memory budget of the seen-URL set before it spills to disk"},
			&ucli.StringFlag{Name: urlsFlagTempDir, Usage: "`DIR` for spill files (default: $TMPDIR)"},
			&ucli.IntFlag{Name: urlsFlagWorkers, Value: runtime.GOMAXPROCS(0), DefaultText: "number of CPUs", Usage: "goroutines normalising URLs"},
		),
		Action: runURLs,
	}
}

func runURLs(c *ucli.Context) error {
	o := seedurls.Options{Normalize: urlx.Options{SortQuery: c.Bool(urlsFlagSortQuery)}, Workers: c.Int(urlsFlagWorkers)}
	scope, err := urlsScope.Value(c)
	if err != nil {
		return err
	}
	o.HostScope = scope == cli.ScopeHost
	switch s := c.String(urlsFlagDefaultScheme); s {
	case "", "http", "https":
		o.DefaultScheme = s
	default:
		return cli.Usagef("--%s: %q is not http or https", urlsFlagDefaultScheme, s)
	}
	mem, err := cli.ParseSize(c.String(urlsFlagMemory))
	if err != nil {
		return cli.Usagef("--%s: %v", urlsFlagMemory, err)
	}
	o.Seen = seenset.Options{Memory: mem, TempDir: c.String(urlsFlagTempDir)}
	if o.Workers < 1 {
		return cli.Usagef("--%s: must be at least 1", urlsFlagWorkers)
	}
	for _, name := range c.Args().Slice() {
		if name == "-" {
			continue
		}
		if _, err := os.Stat(name); err != nil {
			return fmt.Errorf("input: %w", err)
		}
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// The seen set's arena is live to the end, so by default the heap
		// would grow to twice the budget before a collection: a soft limit
		// keeps the process near the budget instead.
		debug.SetMemoryLimit(o.Seen.Memory + o.Seen.Memory/4 + 64<<20)
	}
	s, err := cli.OpenStream(c)
	if err != nil {
		return err
	}
	if _, err := seedurls.RunStream(c.Context, s, o); err != nil {
		s.CloseOutput() //nolint:errcheck // err says more; the reader may still be blocked on stdin
		return err
	}
	return s.Close()
}
