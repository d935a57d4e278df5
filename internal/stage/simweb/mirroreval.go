package simweb

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/linkauc"
	"github.com/focuscrawl/focuscrawl/internal/mirrorweb"
)

// MirrorEvalOptions say what simweb mirror eval measures a crawl against.
type MirrorEvalOptions struct {
	Truth  *mirrorweb.Graph // written by MirrorTruth (mirrorweb.ReadGraph)
	Topic  string           // a topic of the truth's rules
	At     []int            // checkpoints, in fetches
	Format string           // "text": a report for people; else one JSON object
}

// ReadTruth reads the truth file of mirror eval's --truth.
func ReadTruth(path string) (*mirrorweb.Graph, error) {
	g, err := mirrorweb.ReadGraph(path)
	if err != nil {
		return nil, cli.Usagef("--truth: %v", err)
	}
	return g, nil
}

// MirrorEvalResult is the evaluation with, when the records carry scored
// links, how well their priorities ranked the relevant targets.
type MirrorEvalResult struct {
	mirrorweb.Result
	LinkPriority *linkauc.Result `json:"link_priority,omitempty"`
}

// fetchRecord is the part of a fetch record that mirror eval reads.
type fetchRecord struct {
	URL      string `json:"url"`
	FinalURL string `json:"final_url"`
	Error    string `json:"error"`
	Verdict  *bool  `json:"relevant"` // score's verdict on the page, when the records are scored docs
}

// MirrorEval reads a crawl of a mirror in fetch order (fetch, segment or
// score records, or URL lines) from in and writes its evaluation against
// the truth to out: every record is a fetch slot, but for the first
// fetch of each unreachable host that failed to reach it (its host probe).
func MirrorEval(ctx context.Context, in io.Reader, out io.Writer, o MirrorEvalOptions) error {
	return MirrorEvalStream(ctx, cli.NewStream(in, out, nil), o)
}

// MirrorEvalStream is MirrorEval on an open stream, which it closes. An
// unknown topic is a usage error.
func MirrorEvalStream(ctx context.Context, st *cli.Stream, o MirrorEvalOptions) error {
	var fetches []mirrorweb.Fetch
	var auc linkauc.Counter
	err := eachLine(ctx, st, func(line jsonl.Line) error {
		var rec fetchRecord
		if !jsonl.IsJSON(line.Bytes) {
			rec.URL = strings.TrimSpace(string(line.Bytes))
		} else if err := jsonl.Decode(line.Bytes, &rec); err != nil {
			st.Rejects.Reject(line, err)
			return nil
		}
		if rec.URL == "" {
			st.Rejects.Reject(line, errors.New("no url"))
			return nil
		}
		fetches = append(fetches, mirrorweb.Fetch(rec))
		addLinks(st, line, &auc, func(u string) (relevant, known bool) { return o.Truth.Judge(o.Topic, u) })
		return nil
	})
	if err != nil {
		st.Close()
		return err
	}
	res, err := o.Truth.Evaluate(o.Topic, fetches, o.At)
	if err != nil {
		st.Close()
		return cli.Usagef("--topic: %v", err)
	}
	r := MirrorEvalResult{Result: res, LinkPriority: linkPriority(&auc)}
	st.Log.Infof("%s: %d pages, harvest %.3f, recall %.3f (%d of %d reachable relevant), %d slots on unfetchable URLs, %d host probes",
		r.Topic, r.Pages, r.Harvest, r.Recall, r.Found, r.Reachable, r.Unfetchable, r.HostProbes)
	if v := r.Verdicts; v != nil {
		st.Log.Infof("%s: verdicts on %d judged pages: precision %.3f, recall %.3f; believed harvest %.3f",
			r.Topic, v.Judged, v.Precision, v.Recall, v.BelievedHarvest)
	}
	return writeResult(st, o.Format, r, func() string { return MirrorEvalText(r) })
}
