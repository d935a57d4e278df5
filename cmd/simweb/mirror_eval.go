package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/linkauc"
	"github.com/focuscrawl/focuscrawl/internal/mirrorweb"
)

func init() {
	mirrorCmd.Subcommands = append(mirrorCmd.Subcommands, &ucli.Command{
		Name:      "eval",
		Usage:     "measure a crawl of a mirror: harvest, recall of reachable relevant pages, budget lost to unfetchable URLs, upper bound",
		ArgsUsage: "[FILE...]",
		Description: "Reads the crawl's records in fetch order (fetch, segment or score output — crawl.sh's archive —\n" +
			"or URL lines) from FILEs or stdin; every record is one fetch slot, but for the first fetch of each\n" +
			"unreachable host that failed to reach it (its host probe: no page requested). Writes one JSON object.",
		Flags: append([]ucli.Flag{
			&ucli.StringFlag{Name: "truth", Required: true, Usage: "truth `FILE` written by simweb mirror truth"},
			&ucli.StringFlag{Name: "topic", Required: true, Usage: "`TOPIC` of the truth's rules"},
			&ucli.StringFlag{Name: "at", Value: "500,1000,2000", Usage: "checkpoints, comma-separated `N,N,…`"},
			&ucli.StringFlag{Name: "format", Value: "json", Usage: "`FORMAT` of the result: json or text"},
		}, cli.StreamFlags()...),
		Action: mirrorEval,
	})
}

func mirrorEval(c *ucli.Context) error {
	format, at, err := evalOptions(c)
	if err != nil {
		return err
	}
	g, err := mirrorweb.ReadGraph(c.String("truth"))
	if err != nil {
		return cli.Usagef("--truth: %v", err)
	}
	st, err := cli.OpenStreamWith(c, c.Args().Slice(), os.Stdin, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return err
	}
	var fetches []mirrorweb.Fetch
	var auc linkauc.Counter
	topic := c.String("topic")
	for {
		line, err := st.In.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			st.Close()
			return err
		}
		var rec struct {
			URL      string `json:"url"`
			FinalURL string `json:"final_url"`
			Error    string `json:"error"`
		}
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
		fetches = append(fetches, mirrorweb.Fetch{URL: rec.URL, FinalURL: rec.FinalURL, Error: rec.Error})
		if jsonl.IsJSON(line.Bytes) {
			links, err := linkauc.Links(line.Bytes)
			if err != nil {
				st.Rejects.Reject(line, fmt.Errorf("links: %w", err))
				continue
			}
			for _, l := range links {
				rel, known := g.Judge(topic, l.URL)
				auc.Add(l.Priority, rel, known)
			}
		}
	}
	res, err := g.Evaluate(topic, fetches, at)
	if err != nil {
		st.Close()
		return cli.Usagef("--topic: %v", err)
	}
	r := mirrorEvalResult{Result: res}
	if !auc.Empty() {
		lp := auc.Result()
		r.LinkPriority = &lp
	}
	st.Log.Infof("%s: %d pages, harvest %.3f, recall %.3f (%d of %d reachable relevant), %d slots on unfetchable URLs, %d host probes",
		r.Topic, r.Pages, r.Harvest, r.Recall, r.Found, r.Reachable, r.Unfetchable, r.HostProbes)
	if format == "text" {
		return firstErr(st.Out.WriteLine([]byte(strings.TrimSuffix(mirrorEvalText(r), "\n"))), st.Close())
	}
	return firstErr(st.Out.Write(r), st.Close())
}

// mirrorEvalResult is the evaluation with, when the records carry scored
// links, how well their priorities ranked the relevant targets.
type mirrorEvalResult struct {
	mirrorweb.Result
	LinkPriority *linkauc.Result `json:"link_priority,omitempty"`
}

// mirrorEvalText is the evaluation as a short report for people.
func mirrorEvalText(r mirrorEvalResult) string {
	var b strings.Builder
	keys := func(m map[int]float64) []int {
		out := make([]int, 0, len(m))
		for k := range m {
			out = append(out, k)
		}
		sort.Ints(out)
		return out
	}
	series := func(m map[int]float64) string {
		var parts []string
		for _, k := range keys(m) {
			parts = append(parts, fmt.Sprintf("%.3f at %d", m[k], k))
		}
		return strings.Join(parts, ", ")
	}
	fmt.Fprintf(&b, "topic %s: %d pages fetched, %d relevant by the truth\n", r.Topic, r.Pages, r.Relevant)
	fmt.Fprintf(&b, "  harvest rate       %.3f  (%s)\n", r.Harvest, series(r.HarvestAt))
	fmt.Fprintf(&b, "  upper bound        %s; every reachable relevant URL by fetch %d\n", series(r.Upper.HarvestAt), r.Upper.AllFoundAt)
	fmt.Fprintf(&b, "  recall             %.3f  (%d distinct relevant pages; %d reachable from the portal, %d in the mirror) (%s)\n",
		r.Recall, r.Found, r.Reachable, r.RelevantExist, series(r.RecallAt))
	if len(r.FetchesFor) > 0 {
		var parts []string
		for _, level := range []string{"0.5", "0.9", "1"} {
			if n, ok := r.FetchesFor[level]; ok {
				parts = append(parts, fmt.Sprintf("%s by fetch %d", level, n))
			}
		}
		fmt.Fprintf(&b, "  recall reached     %s\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, "  unfetchable URLs   %d fetches, %.3f of the budget %v\n", r.Unfetchable, r.UnfetchableShare, r.UnfetchableBy)
	fmt.Fprintf(&b, "  host probes        %d (the first fetch of each unreachable host: no page requested, not a slot)\n", r.HostProbes)
	if r.Unknown > 0 {
		fmt.Fprintf(&b, "  not in the truth   %d URLs\n", r.Unknown)
	}
	if lp := r.LinkPriority; lp != nil {
		fmt.Fprintf(&b, "  link priority AUC  %.3f  (%d links to relevant pages, mean priority %.3f; %d to others, mean %.3f)\n",
			lp.AUC, lp.Relevant, lp.MeanRelevant, lp.Irrelevant, lp.MeanIrrelevant)
	}
	return b.String()
}
