package main

import (
	"strconv"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/segmenter"
)

const (
	flagMaxLinks        = "max-links"
	flagMaxContextBytes = "max-context-bytes"
)

// linkFlags bound what a link-dense page costs: its doc line, and the
// memory it takes while segmented.
func linkFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.IntFlag{Name: flagMaxLinks, Value: segmenter.DefaultMaxLinks, Usage: "links kept per page, in document order; the doc's links_dropped counts the rest"},
		&ucli.StringFlag{Name: flagMaxContextBytes, Value: strconv.Itoa(segmenter.DefaultMaxContextBytes>>20) + "MiB", Usage: "bytes of link context per page; later links get none (counted in contexts_dropped)"},
	}
}

// linkBounds reads the link flags into o.
func linkBounds(c *ucli.Context, o *segmenter.Options) error {
	if n := c.Int(flagMaxLinks); n < 1 {
		return cli.Usagef("--%s %d: must be at least 1", flagMaxLinks, n)
	}
	o.MaxLinks = c.Int(flagMaxLinks)
	n, err := cli.ParseSize(c.String(flagMaxContextBytes))
	if err != nil || n < 1 {
		return cli.Usagef("--%s: %q is not a size like 2MiB", flagMaxContextBytes, c.String(flagMaxContextBytes))
	}
	o.MaxContextBytes = int(n)
	return nil
}
