package main

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

// existingDBFlag is --db for the commands that read a frontier (next,
// stats): they refuse a missing file rather than create an empty frontier
// and report on it, so their help says the file must exist.
func existingDBFlag() ucli.Flag {
	return &ucli.StringFlag{Name: flagDB, Usage: "the frontier: a SQLite `FILE` (must exist: seed add --db makes it), redis://HOST:PORT/DB?prefix=NAME or postgres://HOST:PORT/DATABASE?schema=NAME", Required: true}
}

func dbFlag() ucli.Flag {
	return &ucli.StringFlag{Name: flagDB, Usage: "the frontier: a SQLite `FILE`, created if missing, redis://HOST:PORT/DB?prefix=NAME or postgres://HOST:PORT/DATABASE?schema=NAME (docs/frontier.md)", Required: true}
}

// sinkFlags are the stream flags of a command that writes no records.
func sinkFlags() []ucli.Flag {
	var fs []ucli.Flag
	for _, f := range cli.StreamFlags() {
		if f.Names()[0] != cli.FlagOutput {
			fs = append(fs, f)
		}
	}
	return fs
}
