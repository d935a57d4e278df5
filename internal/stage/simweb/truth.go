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
	return firstErr(lookup(ctx, o.Web, st), st.Close())
}

// lookup writes the truth of every URL read; a URL the web does not serve
// gets a record with an error, and a line that holds no URL is rejected.
func lookup(ctx context.Context, web *sim.Web, st *cli.Stream) error {
	return eachLine(ctx, st, func(line jsonl.Line) error {
		u, ok := urlOf(st, line)
		if !ok {
			return nil
		}
		if pt, ok := web.Page(u); ok {
			return st.Out.Write(pt)
		}
		return st.Out.Write(struct {
			URL   string `json:"url"`
			Error string `json:"error"`
		}{u, fmt.Sprintf("not a URL of this simulated web: %s", u)})
	})
}
