package main

import (
	"fmt"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

const flagArchive = "archive"

// archiveFlag lets seed add keep every record it reads, in place of a tee
// and a compressor in the crawl loop: one stage fewer to die, and an
// archive whose frames end at each batch, so a kill costs at most the last
// frame, which readers skip.
func archiveFlag() ucli.Flag {
	return &ucli.StringFlag{Name: flagArchive, Usage: "append every input record to `FILE` before recording it " +
		"(.zst/.gz compress, one frame per batch)", EnvVars: cli.Env("add-archive")}
}

// addArchive is the archive of one run, or nil.
type addArchive struct{ w *jsonl.Writer }

func openArchive(c *ucli.Context) (*addArchive, error) {
	path := c.String(flagArchive)
	if path == "" {
		return nil, nil
	}
	w, err := jsonl.Append(path)
	if err != nil {
		return nil, fmt.Errorf("--%s: %w", flagArchive, err)
	}
	return &addArchive{w: w}, nil
}

// line keeps one input line.
func (a *addArchive) line(b []byte) error {
	if a == nil {
		return nil
	}
	if err := a.w.WriteLine(b); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	return nil
}

// flush writes out (and ends the frame of) every line read so far; it is
// called before a batch is recorded, so a page recorded done in the
// frontier is always in the archive.
func (a *addArchive) flush() error {
	if a == nil {
		return nil
	}
	if err := a.w.Flush(); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	return nil
}

func (a *addArchive) close() error {
	if a == nil {
		return nil
	}
	if err := a.w.Close(); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	return nil
}
