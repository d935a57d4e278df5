package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/segmenter"
	"github.com/focuscrawl/focuscrawl/internal/text"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

// Flags of segment.
const (
	flagWorkers    = "workers"
	flagKeepHTML   = "keep-html"
	flagLinkTokens = "link-tokens"
	flagTokens     = "tokens"
	flagEmit       = "emit"
	flagHubRatio   = "hub-ratio"
	flagTZ         = "tz"
	flagMaxBytes   = "max-bytes"
)

func newApp() *ucli.App {
	return cli.New(cli.App{
		Name:    "segment",
		Usage:   "HTML pages -> docs: title, metadata, page type, blocks, main content, links, tokens",
		Args:    "[FILE...]",
		Example: "fetch urls.txt | segment --topic forestry.yaml | score --topic forestry.yaml",
		Flags: append(append(cli.StreamFlags(), linkFlags()...),
			cli.TopicFlag(false),
			&ucli.IntFlag{Name: flagWorkers, Value: runtime.GOMAXPROCS(0), DefaultText: "number of CPUs", Usage: "pages segmented in parallel (output keeps input order)", EnvVars: cli.Env(flagWorkers)},
			&ucli.BoolFlag{Name: flagTokens, Value: true, Usage: "tokenize title and content (gse for Chinese, loaded on the first CJK text)", EnvVars: cli.Env(flagTokens)},
			&ucli.BoolFlag{Name: flagLinkTokens, Usage: "tokenize every link's anchor text into the link's tokens", EnvVars: cli.Env(flagLinkTokens)},
			&ucli.BoolFlag{Name: flagKeepHTML, Usage: "keep the page's HTML in the doc", EnvVars: cli.Env(flagKeepHTML)},
			&ucli.StringFlag{Name: flagEmit, Value: "docs", Usage: "docs: one doc per page; blocks: one block record per block", EnvVars: cli.Env(flagEmit)},
			&ucli.Float64Flag{Name: flagHubRatio, Value: segmenter.DefaultHubRatio, Usage: "μ: a page whose anchor text over other text exceeds it is a hub", EnvVars: cli.Env(flagHubRatio)},
			&ucli.StringFlag{Name: flagTZ, Value: "auto", Usage: "time zone of dates without one: auto (+08:00 for Chinese pages, UTC otherwise), an offset like +08:00, or a name like Asia/Shanghai", EnvVars: cli.Env(flagTZ)},
			&ucli.StringFlag{Name: flagMaxBytes, Value: "16MiB", Usage: "HTML segmented per page; longer pages are cut", EnvVars: cli.Env("segment-" + flagMaxBytes)},
		),
		Action:   runSegment,
		Commands: []*ucli.Command{evalCommand()},
	})
}

// parseTZ reads --tz: auto, an offset (+08:00, -0500, Z) or an IANA name.
func parseTZ(s string) (*time.Location, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "", "auto":
		return nil, nil
	case "utc", "z", "gmt":
		return time.UTC, nil
	}
	if s[0] == '+' || s[0] == '-' {
		t, err := time.Parse("-07:00", s)
		if err != nil {
			t, err = time.Parse("-0700", s)
		}
		if err != nil {
			return nil, fmt.Errorf("%q is not an offset like +08:00", s)
		}
		_, off := t.Zone()
		return time.FixedZone(s, off), nil
	}
	return time.LoadLocation(s)
}

// options builds the segmenter options from the flags and the profile.
func options(c *ucli.Context) (segmenter.Options, error) {
	o := segmenter.Options{
		KeepHTML:   c.Bool(flagKeepHTML),
		LinkTokens: c.Bool(flagLinkTokens),
		HubRatio:   c.Float64(flagHubRatio),
	}
	if o.HubRatio <= 0 {
		return o, cli.Usagef("--%s: must be above 0", flagHubRatio)
	}
	loc, err := parseTZ(c.String(flagTZ))
	if err != nil {
		return o, cli.Usagef("--%s: %v", flagTZ, err)
	}
	o.Location = loc
	mb, err := cli.ParseSize(c.String(flagMaxBytes))
	if err != nil || mb <= 0 {
		return o, cli.Usagef("--%s: %q is not a size like 16MiB", flagMaxBytes, c.String(flagMaxBytes))
	}
	o.MaxBytes = int(mb)
	if err := linkBounds(c, &o); err != nil {
		return o, err
	}
	var to text.Options
	if path := c.String(cli.FlagTopic); path != "" {
		p, err := topic.Load(path)
		if err != nil {
			return o, cli.Usagef("--%s: %w", cli.FlagTopic, err)
		}
		o.LinkStopwords, o.AdHosts, o.Rules = p.LinkStopwords, p.AdHosts, p.Extract
		to = text.Options{Dictionary: p.Dictionary, Stopwords: p.Stopwords}
	}
	o.NoTokens = !c.Bool(flagTokens)
	if !o.NoTokens || o.LinkTokens {
		o.Tokenizer = text.NewTokenizer(to)
	}
	return o, nil
}

func runSegment(c *ucli.Context) error {
	emit := c.String(flagEmit)
	if emit != "docs" && emit != "blocks" {
		return cli.Usagef("--%s: %q is not docs or blocks", flagEmit, emit)
	}
	if c.Int(flagWorkers) < 1 {
		return cli.Usagef("--%s: must be at least 1", flagWorkers)
	}
	o, err := options(c)
	if err != nil {
		return err
	}
	sg, err := segmenter.New(o)
	if err != nil {
		return cli.Usagef("--%s: %w", cli.FlagTopic, err)
	}
	s, err := cli.OpenStream(c)
	if err != nil {
		return err
	}
	st, err := segmentStream(c.Context, s, sg, emit == "blocks", c.Int(flagWorkers))
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err == nil || errors.Is(err, cli.ErrRejected) {
		s.Log.Infof("%d pages, %d errors, %d rejected lines", st.pages.Load(), st.errors.Load(), s.Rejects.Count())
	}
	return err
}

type stats struct {
	pages, errors atomic.Int64
}

type job struct {
	page record.Page
	out  chan []any
}

// segmentStream segments pages with a pool of workers and writes the
// results in input order from one goroutine.
func segmentStream(ctx context.Context, s *cli.Stream, sg *segmenter.Segmenter, blocks bool, workers int) (*stats, error) {
	st := &stats{}
	jobs := make(chan job, workers*2)
	order := make(chan chan []any, workers*4)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if blocks {
					recs := sg.SegmentBlocks(j.page)
					out := make([]any, len(recs))
					for i := range recs {
						out[i] = recs[i]
					}
					if len(recs) == 1 && recs[0].Error != "" {
						st.errors.Add(1)
					}
					j.out <- out
				} else {
					d := sg.Segment(j.page)
					if d.Error != "" {
						st.errors.Add(1)
					}
					j.out <- []any{d}
				}
				st.pages.Add(1)
			}
		}()
	}
	werr := make(chan error, 1)
	go func() {
		var err error
		for ch := range order {
			recs := <-ch
			if err != nil {
				continue
			}
			for _, r := range recs {
				if err = s.Out.Write(r); err != nil {
					break
				}
			}
		}
		werr <- err
	}()
	var stop func()
	if s.Progress {
		start := time.Now()
		stop = cli.Ticker(time.Second, func() {
			n := st.pages.Load()
			s.Log.Progressf("%d pages, %.0f pages/s, %d errors", n, float64(n)/time.Since(start).Seconds(), st.errors.Load())
		})
	}
	rerr := readPages(ctx, s, jobs, order)
	close(jobs)
	wg.Wait()
	close(order)
	err := <-werr
	if stop != nil {
		stop()
		s.Log.EndProgress()
	}
	if rerr != nil {
		return st, rerr
	}
	return st, err
}

func readPages(ctx context.Context, s *cli.Stream, jobs chan<- job, order chan<- chan []any) error {
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		line, err := s.In.Next()
		if err != nil {
			if !errors.Is(err, jsonl.ErrLineTooLong) {
				if errors.Is(err, io.EOF) {
					return nil
				}
				return err
			}
			s.Rejects.Reject(line, err)
			closing, ok := jsonl.ClosingRecord(line.Bytes, err)
			if !ok {
				continue
			}
			line.Bytes = closing // an error doc for the URL, so the frontier closes it
		}
		var p record.Page
		if err := jsonl.Decode(line.Bytes, &p); err != nil {
			s.Rejects.Reject(line, err)
			continue
		}
		if p.URL == "" {
			s.Rejects.Reject(line, errors.New(`missing "url" field`))
			continue
		}
		j := job{page: p, out: make(chan []any, 1)}
		order <- j.out
		jobs <- j
	}
}
