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
		var rec fetchRecord
		if !jsonl.IsJSON(line.Bytes) {
			rec.URL = strings.TrimSpace(string(line.Bytes))
		} else if err := jsonl.Decode(line.Bytes, &rec); err != nil {
			st.Rejects.Reject(line, err)
			continue
		}
		if rec.URL == "" {
			st.Rejects.Reject(line, errors.New("no url"))
			continue
		}
		fetches = append(fetches, mirrorweb.Fetch(rec))
		if jsonl.IsJSON(line.Bytes) {
			links, err := linkauc.Links(line.Bytes)
			if err != nil {
				st.Rejects.Reject(line, fmt.Errorf("links: %w", err))
				continue
			}
			for _, l := range links {
				rel, known := o.Truth.Judge(o.Topic, l.URL)
				auc.Add(l.Priority, rel, known)
			}
		}
	}
	res, err := o.Truth.Evaluate(o.Topic, fetches, o.At)
	if err != nil {
		st.Close()
		return cli.Usagef("--topic: %v", err)
	}
	r := MirrorEvalResult{Result: res}
	if !auc.Empty() {
		lp := auc.Result()
		r.LinkPriority = &lp
	}
	st.Log.Infof("%s: %d pages, harvest %.3f, recall %.3f (%d of %d reachable relevant), %d slots on unfetchable URLs, %d host probes",
		r.Topic, r.Pages, r.Harvest, r.Recall, r.Found, r.Reachable, r.Unfetchable, r.HostProbes)
	if o.Format == "text" {
		return firstErr(st.Out.WriteLine([]byte(strings.TrimSuffix(MirrorEvalText(r), "\n"))), st.Close())
	}
	return firstErr(st.Out.Write(r), st.Close())
}
