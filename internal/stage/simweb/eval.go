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
	sim "github.com/focuscrawl/focuscrawl/internal/simweb"
)

// EvalOptions say what simweb eval measures a crawl against.
type EvalOptions struct {
	Web    *sim.Web // the web the crawl ran on
	Topic  string   // one of sim.Topics
	At     []int    // harvest-rate checkpoints, in pages
	Format string   // "text": a report for people; else one JSON object
}

// EvalResult is the evaluation with, when the records carry scored links,
// how well their priorities ranked the relevant targets.
type EvalResult struct {
	sim.Eval
	LinkPriority *linkauc.Result `json:"link_priority,omitempty"`
}

// Eval reads a crawl's records in fetch order (fetch, segment or score
// output, or URL lines; each one is a fetch) from in and writes its
// evaluation against the web's truth to out.
func Eval(ctx context.Context, in io.Reader, out io.Writer, o EvalOptions) error {
	return EvalStream(ctx, cli.NewStream(in, out, nil), o)
}

// EvalStream is Eval on an open stream, which it closes.
func EvalStream(ctx context.Context, st *cli.Stream, o EvalOptions) error {
	ev, err := o.Web.NewEvaluator(o.Topic, o.At...)
	if err != nil {
		st.Close()
		return err
	}
	var auc linkauc.Counter
	for {
		line, err := st.In.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			st.Close()
			return err
		}
		u, err := jsonl.DecodeURL(line.Bytes)
		if errors.Is(err, jsonl.ErrComment) {
			continue
		}
		if err != nil {
			st.Rejects.Reject(line, err)
			continue
		}
		ev.Add(u.URL)
		if jsonl.IsJSON(line.Bytes) {
			links, err := linkauc.Links(line.Bytes)
			if err != nil {
				st.Rejects.Reject(line, fmt.Errorf("links: %w", err))
				continue
			}
			for _, l := range links {
				pt, known := o.Web.Page(l.URL)
				auc.Add(l.Priority, known && pt.Relevant(o.Topic), known)
			}
		}
	}
	r := EvalResult{Eval: ev.Result()}
	if !auc.Empty() {
		lp := auc.Result()
		r.LinkPriority = &lp
	}
	st.Log.Infof("%s: %d pages, harvest %.3f, discovery %.3f (%d of %d relevant pages), %d of %d relevant sites",
		r.Topic, r.Pages, r.Harvest, r.Discovery, r.Found, r.Exist, r.Sites, r.SitesExist)
	if o.Format == "text" {
		// Through the stream's writer, so -o and compression apply.
		text := strings.TrimSuffix(EvalText(r), "\n")
		return firstErr(st.Out.WriteLine([]byte(text)), st.Close())
	}
	return firstErr(st.Out.Write(r), st.Close())
}
