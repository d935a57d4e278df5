package main

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/fetcher/fetchflags"
	"github.com/focuscrawl/focuscrawl/internal/render/renderflags"
	"github.com/focuscrawl/focuscrawl/internal/stage/fetch"
)

func newApp() *ucli.App {
	app := cli.New(cli.App{
		Name:    "fetch",
		Usage:   "fetch URLs politely into page records (UTF-8 HTML)",
		Args:    "[FILE...]",
		Example: "seed urls seeds.txt | fetch --per-host 2 --warc crawl.warc.gz > pages.jsonl",
		Flags:   fetchFlags(),
		Action:  run,
	})
	// Header values hold commas ("zh-CN,zh;q=0.9"); --accept splits its
	// own.
	app.DisableSliceFlagSeparator = true
	return app
}

func run(c *ucli.Context) error {
	cfg, err := fetchflags.Config(c, fetcherFlags)
	if err != nil {
		return err
	}
	ro, err := renderflags.Read(c)
	if err != nil {
		return err
	}
	s, err := cli.OpenStreamWith(c, c.Args().Slice(), c.App.Reader, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return err
	}
	return fetch.RunStream(c.Context, s, fetch.Options{Fetcher: cfg, WARC: c.String(flagWARC), Render: ro})
}
