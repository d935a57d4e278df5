package main

import (
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/mirrorweb"
)

// mirrorCmd is simweb mirror; its subcommands add themselves to it, one
// file each (package variables are set before any init runs).
var mirrorCmd = &ucli.Command{
	Name:  "mirror",
	Usage: "a static mirror of real sites (HOST=DIR trees, WARC files) as a web on loopback, with path-rule truth",
	Description: "SOURCES are HOST=DIR (a directory served as one host) or WARC files (.warc, .warc.gz),\n" +
		"given as arguments or in --sources files. See docs/realweb.md.",
}

func init() { commands = append(commands, mirrorCmd) }

const (
	flagSources   = "sources"
	flagDown      = "down"
	flagDownDelay = "down-delay"
	flagAutoIndex = "autoindex"
)

// mirrorFlags choose the mirror; serve and truth take them, so both see
// the same web.
func mirrorFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringSliceFlag{Name: flagSources, Usage: "`FILE` listing sources, one per line (HOST=DIR or a WARC path, relative to the file); repeatable", EnvVars: cli.Env("mirror-" + flagSources)},
		&ucli.StringSliceFlag{Name: flagDown, Usage: "`HOST[=refused|timeout|dns]`: a host that does not answer (refused by default); repeatable", EnvVars: cli.Env("mirror-" + flagDown)},
		&ucli.DurationFlag{Name: flagDownDelay, Value: 5 * time.Second, Usage: "how long a host declared timeout keeps a request before 504", EnvVars: cli.Env("mirror-" + flagDownDelay)},
		&ucli.BoolFlag{Name: flagAutoIndex, Value: true, Usage: "list directories that have no index.html (as Apache's autoindex); --autoindex=false: 404", EnvVars: cli.Env("mirror-" + flagAutoIndex)},
	}
}

// newMirror opens the mirror the flags and the arguments describe.
func newMirror(c *ucli.Context, args []string) (*mirrorweb.Web, error) {
	var sources []mirrorweb.Source
	for _, f := range c.StringSlice(flagSources) {
		s, err := mirrorweb.ReadSources(f)
		if err != nil {
			return nil, cli.Usagef("--%s: %v", flagSources, err)
		}
		sources = append(sources, s...)
	}
	for _, a := range args {
		s, err := mirrorweb.ParseSource(a, "")
		if err != nil {
			return nil, cli.Usagef("%v", err)
		}
		sources = append(sources, s)
	}
	if len(sources) == 0 {
		return nil, cli.Usagef("no sources: give HOST=DIR or WARC files, or --%s FILE", flagSources)
	}
	opts := mirrorweb.Options{DownDelay: c.Duration(flagDownDelay), AutoIndex: c.Bool(flagAutoIndex), Down: map[string]mirrorweb.Down{}}
	for _, d := range c.StringSlice(flagDown) {
		h, kind, err := mirrorweb.ParseDown(d)
		if err != nil {
			return nil, cli.Usagef("--%s: %v", flagDown, err)
		}
		opts.Down[h] = kind
	}
	return mirrorweb.New(sources, opts)
}
