package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/sitemap"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
	"github.com/focuscrawl/focuscrawl/internal/version"
)

const (
	flagSince       = "since"
	flagMaxSitemaps = "max-sitemaps"
	flagMaxURLs     = "max-urls"
	flagAnyHost     = "any-host"
	flagMaxBytes    = "max-bytes"
)

func sitemapCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "sitemap",
		Usage:     "list the URLs of sites' sitemaps as url records",
		ArgsUsage: "[SITE|ROBOTS.TXT|SITEMAP URL|FILE...]",
		Description: "Each argument (or each URL read from stdin when there is none) is a site root\n" +
			"(its robots.txt Sitemap: lines are read, /sitemap.xml when it has none), a robots.txt\n" +
			"URL, a sitemap URL, or a local sitemap file. Sitemap indexes are followed, gzip and\n" +
			"text sitemaps read. Writes one url record per URL with meta.lastmod, meta.changefreq,\n" +
			"meta.priority and meta.sitemap.",
		Flags: append([]ucli.Flag{
			&ucli.StringFlag{Name: flagSince, Usage: "keep only URLs with a lastmod on or after `DATE` (2024-05-01)", EnvVars: cli.Env(flagSince)},
			&ucli.IntFlag{Name: flagMaxSitemaps, Value: 1000, Usage: "read at most `N` sitemap files per run (0: no limit)", EnvVars: cli.Env(flagMaxSitemaps)},
			&ucli.IntFlag{Name: flagMaxURLs, Usage: "stop after `N` URLs (0: no limit)", EnvVars: cli.Env("sitemap-max-urls")},
			&ucli.Int64Flag{Name: flagMaxBytes, Value: sitemap.DefaultMaxBytes, Usage: "refuse sitemap files larger than `BYTES` once decompressed", EnvVars: cli.Env("sitemap-max-bytes")},
			&ucli.BoolFlag{Name: flagAnyHost, Usage: "keep URLs of other sites than the sitemap's own", EnvVars: cli.Env(flagAnyHost)},
			&ucli.DurationFlag{Name: flagDelay, Value: time.Second, Usage: "wait `DURATION` between two requests", EnvVars: cli.Env("sitemap-delay")},
			&ucli.DurationFlag{Name: flagTimeout, Value: 30 * time.Second, Usage: "give up a request after `DURATION`", EnvVars: cli.Env("sitemap-timeout")},
			&ucli.StringFlag{Name: flagUserAgent, Value: "focuscrawl/" + version.Version + " (+https://github.com/focuscrawl/focuscrawl)", Usage: "User-Agent `STRING`", EnvVars: cli.Env("sitemap-user-agent")},
			sitemapProxyFlag(),
			allowPrivateFlag(),
		}, cli.StreamFlags()...),
		Action: runSitemap,
	}
}

// sitemapMeta is the meta object of a url record from seed sitemap.
type sitemapMeta struct {
	LastMod    string  `json:"lastmod,omitempty"`
	ChangeFreq string  `json:"changefreq,omitempty"`
	Priority   float64 `json:"priority,omitempty"`
	Sitemap    string  `json:"sitemap"`
}

// errEnough stops a walk at --max-urls.
var errEnough = errors.New("enough URLs")

func runSitemap(c *ucli.Context) error {
	var since time.Time
	if s := c.String(flagSince); s != "" {
		t, ok := sitemap.ParseTime(s)
		if !ok {
			return cli.Usagef("--%s %q: not a date (2024-05-01 or 2024-05-01T10:00:00Z)", flagSince, s)
		}
		since = t
	}
	transport, err := sitemapTransport(c)
	if err != nil {
		return err
	}
	st, err := cli.OpenStreamWith(c, nil, c.App.Reader, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return err
	}
	var failures int
	var lastFailure string
	starts := c.Args().Slice()
	if len(starts) == 0 {
		if starts, err = readStarts(st); err != nil {
			return errors.Join(err, st.Close())
		}
	}
	w := &sitemap.Walker{
		Client:      &http.Client{Timeout: c.Duration(flagTimeout), Transport: transport},
		UserAgent:   c.String(flagUserAgent),
		MaxSitemaps: c.Int(flagMaxSitemaps),
		MaxBytes:    c.Int64(flagMaxBytes),
		Delay:       c.Duration(flagDelay),
		AnyHost:     c.Bool(flagAnyHost),
		OnError: func(loc string, err error) {
			failures++
			lastFailure = jsonl.Echo(fmt.Sprintf("%s: %v", loc, err)) // a <loc> may be 100 KB
			st.Log.Errorf("%s", lastFailure)
		},
	}
	maxURLs := c.Int(flagMaxURLs)
	n, old := 0, 0
	err = w.Walk(c.Context, starts, func(f sitemap.Found) error {
		if !since.IsZero() {
			if t, ok := f.Modified(); ok && t.Before(since) {
				old++
				return nil
			}
		}
		meta, err := json.Marshal(sitemapMeta{LastMod: f.LastMod, ChangeFreq: f.ChangeFreq, Priority: f.Priority, Sitemap: f.Sitemap})
		if err != nil {
			return err
		}
		u := record.URL{URL: f.Loc, Meta: meta}
		u.Site = urlx.SiteKey(f.Loc)
		if err := st.Out.Write(u); err != nil {
			return err
		}
		n++
		if maxURLs > 0 && n >= maxURLs {
			return errEnough
		}
		return nil
	})
	if errors.Is(err, errEnough) {
		err = nil
	}
	if err == nil && n == 0 && old == 0 {
		err = allFailed(transport, failures, lastFailure)
	}
	if old > 0 {
		st.Log.Infof("%d URLs, %d older than --since left out", n, old)
	} else {
		st.Log.Infof("%d URLs", n)
	}
	return errors.Join(err, st.Close())
}

// readStarts reads the starting points from the input, one URL per line
// or url record.
func readStarts(st *cli.Stream) ([]string, error) {
	var out []string
	for {
		l, err := st.In.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			if errors.Is(err, jsonl.ErrLineTooLong) {
				st.Rejects.Reject(l, err)
				continue
			}
			return out, err
		}
		u, err := jsonl.DecodeURL(l.Bytes)
		if errors.Is(err, jsonl.ErrComment) {
			continue
		}
		if err != nil {
			st.Rejects.Reject(l, err)
			continue
		}
		out = append(out, u.URL)
	}
}
