package main

import (
	"fmt"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// flagErrors names the file of the docs that carry an error. They are not
// knowledge: a knowledge file that starts with failed fetches reads as a
// broken crawl, so by default they are only counted.
const flagErrors = "errors"

func errorsFlag() ucli.Flag {
	return &ucli.StringFlag{Name: flagErrors, Usage: "write the docs that carry an error (failed fetch, segment or score) to `FILE` (.gz/.zst compress); by default they are left out of the output and counted", EnvVars: cli.Env("dedupe-" + flagErrors)}
}

// openErrors opens the --errors file, or returns nil.
func openErrors(c *ucli.Context) (*jsonl.Writer, error) {
	path := c.String(flagErrors)
	if path == "" {
		return nil, nil
	}
	w, err := jsonl.Create(path, nil)
	if err != nil {
		return nil, fmt.Errorf("--%s: %w", flagErrors, err)
	}
	return w, nil
}

// writeError passes on a doc that carries an error to --errors.
func (r *runner) writeError(k *record.Knowledge) error {
	if r.errs == nil {
		return nil
	}
	return r.errs.Write(k)
}

// errorsWhere says in the summary where the error docs went.
func (r *runner) errorsWhere() string {
	if r.errs == nil {
		return "left out (--errors FILE keeps them)"
	}
	return "written to " + r.errsPath
}
