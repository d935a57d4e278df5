package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/linkauc"
	"github.com/focuscrawl/focuscrawl/internal/simweb"
)

func init() {
	commands = append(commands, &ucli.Command{
		Name:      "eval",
		Usage:     "measure a crawl against the truth: harvest rate (at checkpoints), discovery rate, topic drift, sites found",
		ArgsUsage: "[FILE...]",
		Description: "Reads the crawl's records in fetch order (fetch, segment or score output, or plain URL lines)\n" +
			"from FILEs or stdin; every record is one fetch. Writes one JSON object.",
		Flags: append(append(append(webFlags(), simTopicFlags("(required) ")...),
			&ucli.StringFlag{Name: "at", Value: "500,1000,2000", Usage: "harvest-rate checkpoints, comma-separated `N,N,…`"},
			&ucli.StringFlag{Name: "format", Value: "json", Usage: "`FORMAT` of the result: json (one object) or text (a report for people)"}),
			cli.StreamFlags()...),
		Action: evaluate,
	})
}

func evaluate(c *ucli.Context) error {
	topic, err := simTopic(c, true)
	if err != nil {
		return err
	}
	format, at, err := evalOptions(c)
	if err != nil {
		return err
	}
	web, err := newWeb(c)
	if err != nil {
		return err
	}
	ev, err := web.NewEvaluator(topic, at...)
	if err != nil {
		return err
	}
	st, err := cli.OpenStreamWith(c, c.Args().Slice(), os.Stdin, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return err
	}
	var auc linkauc.Counter
	for {
		line, err := st.In.Next()
		if errors.Is(err, io.EOF) {
			break
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
				pt, known := web.Page(l.URL)
				auc.Add(l.Priority, known && pt.Relevant(topic), known)
			}
		}
	}
	r := evalResult{Eval: ev.Result()}
	if !auc.Empty() {
		lp := auc.Result()
		r.LinkPriority = &lp
	}
	st.Log.Infof("%s: %d pages, harvest %.3f, discovery %.3f (%d of %d relevant pages), %d of %d relevant sites",
		r.Topic, r.Pages, r.Harvest, r.Discovery, r.Found, r.Exist, r.Sites, r.SitesExist)
	if format == "text" {
		// Through the stream's writer, so -o and compression apply.
		var sb strings.Builder
		writeEvalText(&sb, r.Eval)
		if lp := r.LinkPriority; lp != nil {
			fmt.Fprintf(&sb, "  link priority AUC %.3f (%d links to relevant pages, mean priority %.3f; %d to others, mean %.3f)\n",
				lp.AUC, lp.Relevant, lp.MeanRelevant, lp.Irrelevant, lp.MeanIrrelevant)
		}
		return firstErr(st.Out.WriteLine([]byte(strings.TrimSuffix(sb.String(), "\n"))), st.Close())
	}
	return firstErr(st.Out.Write(r), st.Close())
}

// evalResult is the evaluation with, when the records carry scored links,
// how well their priorities ranked the relevant targets.
type evalResult struct {
	simweb.Eval
	LinkPriority *linkauc.Result `json:"link_priority,omitempty"`
}
