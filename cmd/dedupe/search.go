package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/kb"
	"github.com/focuscrawl/focuscrawl/internal/stage/dedupe"
)

const (
	flagAny     = "any"
	flagRaw     = "raw"
	flagSnippet = "snippet"
)

// searchFormat is the --format of dedupe search; table is the old
// spelling of text.
var searchFormat = cli.Format{Values: []string{cli.FormatJSONL, cli.FormatText, cli.FormatAuto}, Default: cli.FormatAuto,
	Usage: "auto is text on a terminal, else jsonl", Deprecated: map[string]string{"table": cli.FormatText}}

func searchCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "search",
		Usage:     "search the knowledge base: records ranked by bm25, with highlighted snippets",
		ArgsUsage: "QUERY...",
		Description: "The query is cut into words like the stored text (Chinese by gse, traditional folded to\n" +
			"simplified, stop words dropped); records holding all of them (--any: any) are ranked by\n" +
			"bm25, the title weighing 3 and the content 1. --raw passes FTS5 query syntax unchanged.\n" +
			"--format jsonl writes one hit per line; text (the default on a terminal) a readable list.",
		Flags: append(append([]ucli.Flag{
			&ucli.StringFlag{Name: flagStore, Usage: "knowledge base `FILE`", Required: true},
		}, searchFormat.Flags()...),
			&ucli.IntFlag{Name: cli.FlagLimit, Aliases: []string{"n"}, Value: 20, Usage: "at most `N` hits"},
			&ucli.BoolFlag{Name: flagAny, Usage: "match records with any of the words, not all"},
			&ucli.BoolFlag{Name: flagRaw, Usage: "the query is FTS5 syntax over the segmented text"},
			&ucli.IntFlag{Name: flagSnippet, Value: 120, Usage: "snippet length in `CHARS`"},
			cli.TopicFlag(false),
		),
		Action: runSearch,
	}
}

func runSearch(c *ucli.Context) error {
	query := strings.TrimSpace(strings.Join(c.Args().Slice(), " "))
	if query == "" {
		return cli.Usagef("search: give a QUERY")
	}
	out := c.App.Writer
	format, err := searchFormat.Value(c)
	if err != nil {
		return err
	}
	if format == cli.FormatAuto {
		format = cli.FormatJSONL
		if cli.IsTerminal(out) {
			format = cli.FormatText
		}
	}
	if _, err := os.Stat(c.String(flagStore)); err != nil {
		return cli.Usagef("--store: %v", err)
	}
	words, err := topicWords(c)
	if err != nil {
		return err
	}
	store, err := kb.Open(c.String(flagStore), dedupe.Tokenizer(words))
	if err != nil {
		return err
	}
	defer store.Close()
	if !c.IsSet(cli.FlagTopic) {
		// Cut the query with the words the stored text was cut with.
		if words, err = store.Words(); err != nil {
			return err
		}
		if len(words.Dictionary)+len(words.Stopwords) > 0 {
			store.SetTokenizer(dedupe.Tokenizer(words))
		}
	}
	open, close := "[", "]"
	if format == cli.FormatText {
		// Marks the table replaces after it has made the page's text
		// printable (the text may hold escape sequences of its own).
		open, close = markOpen, markClose
	}
	hits, err := store.Search(kb.Query{Text: query, Any: c.Bool(flagAny), Raw: c.Bool(flagRaw),
		Limit: c.Int(cli.FlagLimit), Snippet: c.Int(flagSnippet), Open: open, Close: close})
	if errors.Is(err, kb.ErrEmptyQuery) {
		return cli.Usagef("search %q: %v", query, err)
	}
	if err != nil {
		if c.Bool(flagRaw) {
			return cli.Usagef("--raw query %q: %v", query, err)
		}
		return err
	}
	if format == cli.FormatText {
		hl := highlight{"[", "]"}
		if cli.IsTerminal(out) {
			hl = highlight{"\033[1;31m", "\033[0m"}
		}
		return writeTable(out, hits, hl)
	}
	w := jsonl.NewWriter(out)
	for i := range hits {
		if err := w.Write(&hits[i]); err != nil {
			break
		}
	}
	return w.Close()
}

// markOpen and markClose bracket a match in a table's snippet until the
// snippet is printable: NUL never survives Printable, so page text cannot
// forge them.
const markOpen, markClose = "\x00\x01", "\x00\x02"

// highlight is how a table shows a match: red on a terminal, else [ ].
type highlight struct{ open, close string }

// writeTable prints hits as a readable list: rank and title, then URL,
// date, source, copies and score, then the snippet. Everything that came
// from a page is made printable (cli.Printable): a title may hold
// terminal escape sequences.
func writeTable(w io.Writer, hits []kb.Hit, hl highlight) error {
	bw := bufio.NewWriter(w)
	if len(hits) == 0 {
		fmt.Fprintln(bw, "no match")
	}
	for _, h := range hits {
		title := cli.Printable(h.Title)
		if title == "" {
			title = "(no title)"
		}
		fmt.Fprintf(bw, "%2d. %s\n", h.Rank, title)
		facts := []string{cli.Printable(h.URL)}
		for _, f := range []string{h.Published, h.Source} {
			if f != "" {
				facts = append(facts, cli.Printable(f))
			}
		}
		if len(h.Duplicates) > 0 {
			facts = append(facts, fmt.Sprintf("+%d copies", len(h.Duplicates)))
		}
		facts = append(facts, fmt.Sprintf("bm25 %.3g", h.Score))
		fmt.Fprintf(bw, "    %s\n", strings.Join(facts, " · "))
		if h.Snippet != "" {
			fmt.Fprintf(bw, "    %s\n", printableSnippet(h.Snippet, hl))
		}
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}

// printableSnippet makes a snippet printable piece by piece, the match
// marks turned into hl.
func printableSnippet(s string, hl highlight) string {
	var b strings.Builder
	for {
		i := strings.Index(s, markOpen)
		j := strings.Index(s, markClose)
		if i < 0 && j < 0 {
			b.WriteString(cli.Printable(s))
			return b.String()
		}
		mark, with := markOpen, hl.open
		if i < 0 || j >= 0 && j < i {
			i, mark, with = j, markClose, hl.close
		}
		b.WriteString(cli.Printable(s[:i]))
		b.WriteString(with)
		s = s[i+len(mark):]
	}
}
