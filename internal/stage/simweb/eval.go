package simweb

import (
	"context"
	"io"

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
	err = eachLine(ctx, st, func(line jsonl.Line) error {
		r, ok := recordOf(st, line)
		if !ok {
			return nil
		}
		u := r.URL
		if r.Error != "" {
			ev.AddFailed(u) // a failed fetch finds nothing
		} else {
			ev.Add(u)
		}
		addLinks(st, line, &auc, func(u string) (relevant, known bool) {
			pt, known := o.Web.Page(u)
			return known && pt.Relevant(o.Topic), known
		})
		return nil
	})
	if err != nil {
		st.Close()
		return err
	}
	r := EvalResult{Eval: ev.Result(), LinkPriority: linkPriority(&auc)}
	st.Log.Infof("%s: %d pages, harvest %.3f, discovery %.3f (%d of %d relevant pages), %d of %d relevant sites",
		r.Topic, r.Pages, r.Harvest, r.Discovery, r.Found, r.Exist, r.Sites, r.SitesExist)
	return writeResult(st, o.Format, r, func() string { return EvalText(r) })
}
