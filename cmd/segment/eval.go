package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/segmenter"
	"github.com/focuscrawl/focuscrawl/internal/segmenter/eval"
	"github.com/focuscrawl/focuscrawl/internal/text"
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
			&ucli.StringFlag{Name: "explain", Usage: "print how the content region of page `ID` was chosen, and stop"},
			&ucli.StringSliceFlag{Name: "tune", Usage: "override a content threshold, `NAME=VALUE` (extend-prose, extend-link-density, extend-loose, no-extend)"},
			&ucli.BoolFlag{Name: "tokens", Usage: "tokenize title and content too (for timing)"},
		},
		Action: runEval,
	}
}

func runEval(c *ucli.Context) error {
	dir := "../shared/data"
	if c.NArg() > 0 {
		dir = c.Args().First()
	}
	base := filepath.Join(dir, "extraction")
	if _, err := os.Stat(base); err != nil {
		return cli.Usagef("DATA_DIR: %v", err)
	}
	o := segmenter.Options{}
	if c.Bool("tokens") {
		o.Tokenizer = text.NewTokenizer(text.Options{})
	}
	for _, kv := range c.StringSlice("tune") {
		if err := setTuning(&o.Tuning, kv); err != nil {
			return cli.Usagef("--tune %s: %v", kv, err)
		}
	}
	sg, err := segmenter.New(o)
	if err != nil {
		return err
	}
	var dump *json.Encoder
	if p := c.String("dump"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			return fmt.Errorf("dump: %w", err)
		}
		defer f.Close()
		dump = json.NewEncoder(f)
		dump.SetEscapeHTML(false)
	}
	var sums []eval.Summary
	for _, set := range strings.Split(c.String("sets"), ",") {
		cases, err := eval.Load(base, strings.TrimSpace(set), segmenter.HTMLText)
		if err != nil {
			return cli.Usagef("--sets: %v", err)
		}
		for _, tf := range c.StringSlice("titles") {
			if err := eval.LoadTitles(tf, cases); err != nil {
				return cli.Usagef("--titles: %v", err)
			}
		}
		if id := c.String("explain"); id != "" {
			for _, cs := range cases {
				if cs.ID == id {
					fmt.Fprint(c.App.Writer, segmenter.Explain(cs.HTML, o.Tuning))
					return nil
				}
			}
			continue
		}
		results, sum := eval.Score(cases, func(p record.Page) record.Doc { return sg.Segment(p) })
		sums = append(sums, sum)
		if dump != nil {
			sort.Slice(results, func(i, j int) bool { return results[i].F < results[j].F })
			for _, r := range results {
				dump.Encode(map[string]any{
					"set": r.Set, "id": r.ID, "f1": r.F, "p": r.P, "r": r.R,
					"title": r.Got.Title, "gold_title": r.Title, "title_ok": r.TitleOK,
					"author": r.Got.Author, "gold_author": r.Case.Author, "author_ok": r.AuthorOK,
					"published": r.Got.Published, "gold_published": r.Case.Published, "date_ok": r.DateOK,
					"content": r.Got.Content, "gold_content": r.Content,
				})
			}
		}
	}
	eval.WriteTable(c.App.Writer, sums)
	return nil
}

func setTuning(t *segmenter.Tuning, kv string) error {
	name, val, ok := strings.Cut(kv, "=")
	if !ok {
		return fmt.Errorf("want NAME=VALUE")
	}
	switch name {
	case "no-extend":
		t.NoExtend = val == "true" || val == "1"
		return nil
	case "extend-loose":
		t.ExtendLoose = val == "true" || val == "1"
		return nil
	}
	v, err := strconv.ParseFloat(val, 64)
	if err != nil {
		return err
	}
	switch name {
	case "extend-prose":
		t.ExtendProse = v
	case "extend-link-density":
		t.ExtendLinkDensity = v
	default:
		return fmt.Errorf("unknown name %q", name)
	}
	return nil
}
