package simweb

import (
	"context"
	"fmt"
	"io"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	sim "github.com/focuscrawl/focuscrawl/internal/simweb"
)

// TruthOptions say whose truth simweb truth writes.
type TruthOptions struct {
	Web *sim.Web
	// Lookup: the truth of every URL read (plain lines or records with a
	// url field), trap URLs included; without it, of every URL of the
	// finite web, and the input is not read.
	Lookup bool
	// Labels, with Lookup, writes label lines {"url", "relevant"} for
	// this topic (score train --labels) in place of the truth records,
	// as a person labelling the pages in seed report would; URLs the web
	// does not serve are left out.
	Labels string
}

// Truth writes the ground truth of the web's pages to out, one JSON line
// per URL, or with o.Lookup of the URLs read from in.
func Truth(ctx context.Context, in io.Reader, out io.Writer, o TruthOptions) error {
	return TruthStream(ctx, cli.NewStream(in, out, nil), o)
}

// TruthStream is Truth on an open stream, which it closes.
func TruthStream(ctx context.Context, st *cli.Stream, o TruthOptions) error {
	if !o.Lookup {
		err := o.Web.URLs(func(u string) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			pt, _ := o.Web.Page(u)
			return st.Out.Write(pt)
		})
		return firstErr(err, st.Close())
	}
	return firstErr(lookup(ctx, o.Web, st, o.Labels), st.Close())
}

// label is a label line of score train.
type label struct {
	URL      string `json:"url"`
	Relevant bool   `json:"relevant"`
}

// lookup writes the truth of every URL read (or its label for the topic
// labels: records of failed fetches, which show no page to label, are
// left out); a URL the web does not serve gets a record with an error (no
// label), and a line that holds no URL is rejected.
func lookup(ctx context.Context, web *sim.Web, st *cli.Stream, labels string) error {
	return eachLine(ctx, st, func(line jsonl.Line) error {
		if r, err := jsonl.DecodeURL(line.Bytes); labels != "" && err == nil && r.Error != "" {
			return nil // a failed fetch: no page to label
		}
		u, ok := urlOf(st, line)
		if !ok {
			return nil
		}
		pt, ok := web.Page(u)
		switch {
		case ok && labels != "":
			return st.Out.Write(label{URL: u, Relevant: pt.Relevant(labels)})
		case ok:
			return st.Out.Write(pt)
		case labels != "":
			return nil
		}
		return st.Out.Write(struct {
			URL   string `json:"url"`
			Error string `json:"error"`
		}{u, fmt.Sprintf("not a URL of this simulated web: %s", u)})
	})
}
