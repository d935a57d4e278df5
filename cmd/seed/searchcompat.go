package main

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
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
