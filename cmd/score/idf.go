package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/stage/score"
	"github.com/focuscrawl/focuscrawl/internal/text"
	"github.com/focuscrawl/focuscrawl/internal/topic"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

const (
	flagMinDF  = "min-df"
	flagMaxIDF = "max-idf"
)

func idfBuildCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "build",
		Usage:     "build an IDF table from doc records or plain text lines (one document per line)",
		ArgsUsage: "[FILE...]",
		Description: `Each input line is a document: a doc record (its tokens, or its title, description
and content tokenized here) or a line of plain text. The table gives every term found in
at least --min-df documents idf = ln((1+N)/(1+df)) + 1; unseen terms get ln(1+N) + 1.
Use it with score --idf FILE.

EXAMPLE:
   score idf build --topic forestry.yaml docs.jsonl.zst -o forestry.idf.zst`,
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: cli.FlagOutput, Aliases: []string{"o"}, Usage: "write the table to `FILE` (.gz/.zst compress) instead of stdout"},
			&ucli.StringFlag{Name: cli.FlagRejects, Usage: "keep input lines that could not be used in `FILE`, verbatim"},
			&ucli.BoolFlag{Name: cli.FlagQuiet, Aliases: []string{"q"}, Usage: "no summary on stderr"},
			cli.TopicFlag(false),
			&ucli.IntFlag{Name: flagMinDF, Value: 1, Usage: "keep terms found in at least `N` documents"},
		},
		Action: runIDFBuild,
	}
}

func runIDFBuild(c *ucli.Context) error {
	if c.Int(flagMinDF) < 1 {
		return cli.Usagef("--%s must be at least 1", flagMinDF)
	}
	var opts text.Options
	if path := c.String(cli.FlagTopic); path != "" {
		p, err := topic.Load(path)
		if err != nil {
			return &cli.UsageError{Err: err}
		}
		opts = text.Options{Dictionary: p.Dictionary, Stopwords: p.Stopwords}
	}
	tok := text.NewTokenizer(opts)
	log := cli.NewLogger("score idf build", c.App.ErrWriter, c.Bool(cli.FlagQuiet))
	rej, err := jsonl.OpenRejects(c.String(cli.FlagRejects), c.App.ErrWriter)
	if err != nil {
		return err
	}
	defer rej.Close()
	in := jsonl.NewReader(c.Args().Slice(), os.Stdin)
	defer in.Close()
	b := vsm.NewBuilder()
	if err := score.AddIDFDocs(c.Context, in, rej, tok, b); err != nil {
		return err
	}
	tab, err := b.Table(c.Int(flagMinDF))
	if err != nil {
		return fmt.Errorf("idf build: %w", err)
	}
	if err := writeTable(c.String(cli.FlagOutput), tab); err != nil {
		return err
	}
	log.Infof("%d documents, %d terms", b.Docs(), tab.Len())
	if rej.Count() > 0 {
		return fmt.Errorf("%w: %d", cli.ErrRejected, rej.Count())
	}
	return nil
}

func idfTrimCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "trim",
		Usage:     "keep the terms of an IDF table under --max-idf (rarer terms fall back to its default)",
		ArgsUsage: "TABLE",
		Description: `Reads a table (focuscrawl's format, or jieba's and gse's "term idf" lines, whose
unseen terms get the median) and writes the terms with idf below --max-idf, keeping the
table's defaults: a smaller table for rare words that the default already weighs alike.

EXAMPLE:
   score idf trim --max-idf 11 $(go env GOMODCACHE)/github.com/go-ego/gse@v0.80.3/data/dict/zh/idf.txt -o zh.idf.zst`,
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: cli.FlagOutput, Aliases: []string{"o"}, Usage: "write the table to `FILE` (.gz/.zst compress) instead of stdout"},
			&ucli.Float64Flag{Name: flagMaxIDF, Value: 11, Usage: "keep terms with idf below `X`"},
		},
		Action: func(c *ucli.Context) error {
			if c.NArg() != 1 {
				return cli.Usagef("idf trim takes one TABLE file, got %d arguments", c.NArg())
			}
			tab, err := vsm.Load(c.Args().First())
			if err != nil {
				return err
			}
			return writeTable(c.String(cli.FlagOutput), tab.Trim(c.Float64(flagMaxIDF)))
		},
	}
}

// writeTable writes tab to name, compressed by its suffix, or to stdout.
func writeTable(name string, tab *vsm.IDF) error {
	if name == "" || name == "-" {
		_, err := tab.WriteTo(os.Stdout)
		return err
	}
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("create idf table: %w", err)
	}
	var w io.Writer = f
	var closeComp func() error
	switch {
	case strings.HasSuffix(name, ".gz"):
		zw := gzip.NewWriter(f)
		w, closeComp = zw, zw.Close
	case strings.HasSuffix(name, ".zst"):
		zw, err := zstd.NewWriter(f, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
		if err != nil {
			f.Close()
			return err
		}
		w, closeComp = zw, zw.Close
	}
	_, err = tab.WriteTo(w)
	if closeComp != nil {
		err = errors.Join(err, closeComp())
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write idf table %s: %w", name, err)
	}
	return nil
}
