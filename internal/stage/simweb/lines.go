package simweb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/linkauc"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// eachLine calls f with every line of st's input, to the end of the
// input, the first error reading it or of f, or the end of ctx.
func eachLine(ctx context.Context, st *cli.Stream, f func(jsonl.Line) error) error {
	for {
		line, err := st.In.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return err
		}
		if err := f(line); err != nil {
			return err
		}
	}
}

// urlOf is the URL of a line, a record's url or a URL line; ok is false
// for a comment and for a line without a URL, which it rejects.
func urlOf(st *cli.Stream, line jsonl.Line) (u string, ok bool) {
	r, ok := recordOf(st, line)
	return r.URL, ok
}

// recordOf is urlOf with the record's error.
func recordOf(st *cli.Stream, line jsonl.Line) (r record.URL, ok bool) {
	r, err := jsonl.DecodeURL(line.Bytes)
	if err != nil && !errors.Is(err, jsonl.ErrComment) {
		st.Rejects.Reject(line, err)
	}
	return r, err == nil
}

// addLinks counts the scored links of a record line, if it has any, by
// the relevance of their targets; links that do not decode reject it.
func addLinks(st *cli.Stream, line jsonl.Line, auc *linkauc.Counter, judge func(url string) (relevant, known bool)) {
	if !jsonl.IsJSON(line.Bytes) {
		return
	}
	links, err := linkauc.Links(line.Bytes)
	if err != nil {
		st.Rejects.Reject(line, fmt.Errorf("links: %w", err))
		return
	}
	for _, l := range links {
		relevant, known := judge(l.URL)
		auc.Add(l.Priority, relevant, known)
	}
}

// linkPriority is how well the links' priorities ranked the relevant
// targets, nil when no record had scored links.
func linkPriority(auc *linkauc.Counter) *linkauc.Result {
	if auc.Empty() {
		return nil
	}
	r := auc.Result()
	return &r
}

// writeResult writes an evaluation as one JSON object or, with format
// text, as its report for people (through the stream's writer, so -o and
// compression apply), and closes st.
func writeResult(st *cli.Stream, format string, r any, text func() string) error {
	if format == "text" {
		// Site names and URLs in the report come from the crawl's records.
		return firstErr(st.Out.WriteLine([]byte(strings.TrimSuffix(cli.PrintableText(text()), "\n"))), st.Close())
	}
	return firstErr(st.Out.Write(r), st.Close())
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
