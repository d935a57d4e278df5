package main

import (
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/segmenter/eval"
	"github.com/focuscrawl/focuscrawl/internal/stage/segment"
)

// evalCommand is the hidden "segment eval": extraction quality against
// the human gold of ../shared/data/extraction (scripts/eval-extract.sh).
func evalCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "eval",
		Hidden:    true,
		Usage:     "measure extraction against human gold (six sets)",
		ArgsUsage: "[DATA_DIR]",
		Description: `DATA_DIR (default ../shared/data) holds extraction/aeb, readability, cwce-dev,
cleaneval-dev, cleanportal and pagesignal. Prints one markdown row per set: content P/R/F1,
title exact-match rate, author and published-date accuracy.`,
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "sets", Value: strings.Join(eval.Sets, ","), Usage: "comma-separated sets to run"},
			&ucli.StringFlag{Name: "dump", Usage: "write one JSON line per page (gold, extraction, scores) to `FILE`"},
			&ucli.StringSliceFlag{Name: "titles", Usage: "gold titles kept apart (`FILE` of set, id, title lines), e.g. scripts/eval-data/titles-sample.jsonl"},
			&ucli.StringSliceFlag{Name: "authors", Usage: "hand-checked authors in place of a set's own gold (`FILE` of set, id, author lines; \"\" for none), e.g. scripts/eval-data/authors-checked.jsonl"},
			&ucli.StringFlag{Name: "explain", Usage: "print how the content region of page `ID` was chosen, and stop"},
			&ucli.StringSliceFlag{Name: "tune", Usage: "override a content threshold, `NAME=VALUE` (extend-prose, extend-link-density, extend-loose, no-extend)"},
			&ucli.BoolFlag{Name: "tokens", Usage: "tokenize title and content too (for timing)"},
			&ucli.BoolFlag{Name: "diagnose", Usage: "add the error analysis: missed gold text and kept noise by class of paragraph"},
		},
		Action: func(c *ucli.Context) error {
			dir := "../shared/data"
			if c.NArg() > 0 {
				dir = c.Args().First()
			}
			return segment.Eval(c.App.Writer, segment.EvalOptions{
				Dir: dir, Sets: strings.Split(c.String("sets"), ","), Dump: c.String("dump"), Titles: c.StringSlice("titles"),
				Authors: c.StringSlice("authors"),
				Explain: c.String("explain"), Tune: c.StringSlice("tune"), Tokens: c.Bool("tokens"),
				Diagnose: c.Bool("diagnose"),
			})
		},
	}
}
