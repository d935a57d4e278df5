package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/kb"
)

// csvColumns are the columns of dedupe export --format csv.
var csvColumns = []string{"url", "title", "published", "source", "author", "score", "fingerprint", "duplicates", "first_seen", "updated", "meta", "content"}

// exportFormat is the --format of dedupe export.
var exportFormat = cli.Format{Values: []string{cli.FormatJSONL, cli.FormatCSV, cli.FormatAuto}, Default: cli.FormatAuto,
	Usage: "auto is csv when -o ends in .csv, .csv.gz or .csv.zst, else jsonl"}

func exportCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "export",
		Usage: "write every record of the knowledge base as JSON Lines (knowledge records) or CSV",
		Description: "JSON Lines are knowledge records, as dedupe writes them (dedupe reads them back).\n" +
			"CSV has a header row and the columns " + strings.Join(csvColumns, ", ") + ";\n" +
			"duplicates are separated by spaces, meta is JSON. Records come in the order they were first stored.",
		Flags: append(append([]ucli.Flag{
			&ucli.StringFlag{Name: flagStore, Usage: "knowledge base `FILE` (must exist)", Required: true},
		}, exportFormat.Flags()...),
			&ucli.StringFlag{Name: cli.FlagOutput, Aliases: []string{"o"}, Usage: "write to `FILE` (.gz/.zst compress) instead of stdout"},
			&ucli.BoolFlag{Name: cli.FlagQuiet, Aliases: []string{"q"}, Usage: "no summary on stderr"},
		),
		Action: runExport,
	}
}

func runExport(c *ucli.Context) error {
	if c.Args().Present() {
		return cli.Usagef("export takes no arguments, got %q", c.Args().First())
	}
	out := c.String(cli.FlagOutput)
	format, err := exportFormat.Value(c)
	if err != nil {
		return err
	}
	if format == cli.FormatAuto {
		format = cli.FormatJSONL
		trimmed := strings.TrimSuffix(strings.TrimSuffix(out, ".gz"), ".zst")
		if strings.HasSuffix(trimmed, ".csv") {
			format = cli.FormatCSV
		}
	}
	store, err := openExistingKB(c.String(flagStore))
	if err != nil {
		return err
	}
	defer store.Close()
	w, err := jsonl.Create(out, c.App.Writer)
	if err != nil {
		return err
	}
	n := 0
	switch format {
	case "jsonl":
		err = store.Each(func(s *kb.Stored) error {
			n++
			return w.Write(&s.Knowledge)
		})
	case "csv":
		err = writeCSVRow(w, csvColumns)
		if err == nil {
			err = store.Each(func(s *kb.Stored) error {
				n++
				return writeCSVRow(w, []string{s.URL, s.Title, s.Published, s.Source, s.Author,
					strconv.FormatFloat(s.Score, 'f', -1, 64), s.Fingerprint, strings.Join(s.Duplicates, " "),
					s.FirstSeen.Format(time.RFC3339), s.Updated.Format(time.RFC3339), string(s.Meta), s.Content})
			})
		}
	}
	err = errors.Join(err, w.Close())
	if err == nil && !c.Bool(cli.FlagQuiet) {
		fmt.Fprintf(c.App.ErrWriter, "dedupe: %d records exported (%s)\n", n, format)
	}
	return err
}

// writeCSVRow writes one CSV row (RFC 4180 quoting; a field may hold
// newlines) through the output, which compresses by name as every output
// does.
func writeCSVRow(w *jsonl.Writer, row []string) error {
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	if err := cw.Write(row); err != nil {
		return err
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return w.WriteLine(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// openExistingKB opens a knowledge base that a command reads (export,
// search): a missing file is a mistake, not an empty knowledge base to
// create.
func openExistingKB(path string) (*kb.KB, error) {
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, cli.Usagef("--%s %s: no such knowledge base (dedupe --store %s makes it)", flagStore, path, path)
		}
		return nil, err
	}
	return kb.Open(path, nil)
}
