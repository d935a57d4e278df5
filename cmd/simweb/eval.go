package main

import (
	"errors"
	"io"
	"os"
	"strconv"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
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
	format := c.String("format")
	if format != "json" && format != "text" {
		return cli.Usagef("--format: %q is not json or text", format)
	}
	var at []int
	for _, f := range strings.Split(c.String("at"), ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			return cli.Usagef("--at: %q is not a positive number of pages", f)
		}
		at = append(at, n)
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
	}
	r := ev.Result()
	st.Log.Infof("%s: %d pages, harvest %.3f, discovery %.3f (%d of %d relevant pages), %d of %d relevant sites",
		r.Topic, r.Pages, r.Harvest, r.Discovery, r.Found, r.Exist, r.Sites, r.SitesExist)
	if format == "text" {
		// Through the stream's writer, so -o and compression apply.
		var sb strings.Builder
		writeEvalText(&sb, r)
		return firstErr(st.Out.WriteLine([]byte(strings.TrimSuffix(sb.String(), "\n"))), st.Close())
	}
	return firstErr(st.Out.Write(r), st.Close())
}
