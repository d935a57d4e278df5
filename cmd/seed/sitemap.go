package main

import (
	"errors"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/sitemap"
	"github.com/focuscrawl/focuscrawl/internal/stage/seedurls"
	"github.com/focuscrawl/focuscrawl/internal/version"
)

const (
	flagSince       = "since"
	flagMaxSitemaps = "max-sitemaps"
	flagMaxURLs     = "max-urls"
	flagAnyHost     = "any-host"
	flagMaxBytes    = "max-bytes"
	flagProxy       = "proxy"
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
			&ucli.StringFlag{Name: flagSince, Usage: "keep only URLs with a lastmod on or after `DATE` (2024-05-01)"},
			&ucli.IntFlag{Name: flagMaxSitemaps, Value: 1000, Usage: "read at most `N` sitemap files per run (0: no limit)"},
			&ucli.IntFlag{Name: flagMaxURLs, Usage: "stop after `N` URLs (0: no limit)"},
			&ucli.Int64Flag{Name: flagMaxBytes, Value: sitemap.DefaultMaxBytes, Usage: "refuse sitemap files larger than `BYTES` once decompressed"},
			&ucli.BoolFlag{Name: flagAnyHost, Usage: "keep URLs of other sites than the sitemap's own"},
			&ucli.DurationFlag{Name: flagDelay, Value: time.Second, Usage: "wait `DURATION` between two requests"},
			&ucli.DurationFlag{Name: flagTimeout, Value: 30 * time.Second, Usage: "give up a request after `DURATION`"},
			&ucli.StringFlag{Name: flagUserAgent, Value: "focuscrawl/" + version.Version + " (+https://github.com/focuscrawl/focuscrawl)", Usage: "User-Agent `STRING`"},
			// fetch's --proxy, same variable: a crawl behind a proxy reaches sitemaps through it too
			&ucli.StringFlag{Name: flagProxy, Usage: "HTTP proxy `URL`", DefaultText: "$HTTP_PROXY, $HTTPS_PROXY, $NO_PROXY"},
			allowPrivateFlag(),
		}, cli.StreamFlags()...),
		Action: runSitemap,
	}
}

func runSitemap(c *ucli.Context) error {
	o := seedurls.SitemapOptions{Starts: c.Args().Slice(), MaxSitemaps: c.Int(flagMaxSitemaps), MaxURLs: c.Int(flagMaxURLs),
		MaxBytes: c.Int64(flagMaxBytes), AnyHost: c.Bool(flagAnyHost), Delay: c.Duration(flagDelay),
		Timeout: c.Duration(flagTimeout), UserAgent: c.String(flagUserAgent), Net: netPolicy(c)}
	if s := c.String(flagSince); s != "" {
		t, ok := sitemap.ParseTime(s)
		if !ok {
			return cli.Usagef("--%s %q: not a date (2024-05-01 or 2024-05-01T10:00:00Z)", flagSince, s)
		}
		o.Since = t
	}
	if p := c.String(flagProxy); p != "" {
		u, err := seedurls.ParseProxy(p)
		if err != nil {
			return cli.Usagef("--%s %v", flagProxy, err)
		}
		o.Proxy = u
	}
	st, err := cli.OpenStreamWith(c, nil, c.App.Reader, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return err
	}
	return errors.Join(seedurls.SitemapStream(c.Context, st, o), st.Close())
}
