package main

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/fetcher/fetchflags"
	"github.com/focuscrawl/focuscrawl/internal/render/renderflags"
)

// flagWARC is fetch's own flag; the fetcher's flags are in fetchflags.
const flagWARC = "warc"

// fetcherFlags: fetch offers every setting of the fetcher.
var fetcherFlags = fetchflags.Options{}

func fetchFlags() []ucli.Flag {
	return append(append(append(cli.StreamFlags(), fetchflags.Flags(fetcherFlags)...), renderflags.Flags()...),
		&ucli.StringFlag{Name: flagWARC, Usage: "also write every HTTP exchange to `FILE` (WARC/1.1): FILE.warc.gz is gzip, one member per record; FILE.warc is plain"},
	)
}
