package main

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

// existingDBFlag is --db for the commands that read a frontier (next,
// stats): they refuse a missing file rather than create an empty frontier
// and report on it, so their help says the file must exist.
func existingDBFlag() ucli.Flag {
	return &ucli.StringFlag{Name: flagDB, Usage: "the frontier: a SQLite `FILE` (must exist: seed add --db makes it), or redis://HOST:PORT/DB?prefix=NAME", EnvVars: cli.Env(flagDB), Required: true}
}
