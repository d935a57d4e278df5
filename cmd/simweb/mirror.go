package main

import (
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/mirrorweb"
	stage "github.com/focuscrawl/focuscrawl/internal/stage/simweb"
)

func mirrorCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "mirror",
		Usage: "a static mirror of real sites (HOST=DIR trees, WARC files) as a web on loopback, with path-rule truth",
		Description: "SOURCES are HOST=DIR (a directory served as one host) or WARC files (.warc, .warc.gz),\n" +
			"given as arguments or in --sources files. See docs/realweb.md.",
		Subcommands: []*ucli.Command{mirrorEvalCommand(), mirrorServeCommand(), mirrorTruthCommand()},
	}
}

// mirrorFlags choose the mirror; serve and truth take them, so both see
// the same web.
func mirrorFlags(more ...ucli.Flag) []ucli.Flag {
	return append([]ucli.Flag{
		&ucli.StringSliceFlag{Name: "sources", Usage: "`FILE` listing sources, one per line (HOST=DIR or a WARC path, relative to the file); repeatable", EnvVars: cli.Env("mirror-sources")},
		&ucli.StringSliceFlag{Name: "down", Usage: "`HOST[=refused|timeout|dns]`: a host that does not answer (refused by default); repeatable", EnvVars: cli.Env("mirror-down")},
		&ucli.DurationFlag{Name: "down-delay", Value: 5 * time.Second, Usage: "how long a host declared timeout keeps a request before 504", EnvVars: cli.Env("mirror-down-delay")},
		&ucli.BoolFlag{Name: "autoindex", Value: true, Usage: "list directories that have no index.html (as Apache's autoindex); --autoindex=false: 404", EnvVars: cli.Env("mirror-autoindex")},
	}, more...)
}

func mirrorOptions(c *ucli.Context) stage.MirrorOptions {
	return stage.MirrorOptions{SourceFiles: c.StringSlice("sources"), Sources: c.Args().Slice(), Down: c.StringSlice("down"),
		DownDelay: c.Duration("down-delay"), AutoIndex: c.Bool("autoindex")}
}

func mirrorEvalCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "eval",
		Usage:     "measure a crawl of a mirror: harvest, recall of reachable relevant pages, budget lost to unfetchable URLs, upper bound",
		ArgsUsage: "[FILE...]",
		Description: "Reads the crawl's records in fetch order (fetch, segment or score output — crawl.sh's archive —\n" +
			"or URL lines) from FILEs or stdin; every record is one fetch slot, but for the first fetch of each\n" +
			"unreachable host that failed to reach it (its host probe: no page requested). Writes one JSON object.",
		Flags: append([]ucli.Flag{
			&ucli.StringFlag{Name: "truth", Required: true, Usage: "truth `FILE` written by simweb mirror truth"},
			&ucli.StringFlag{Name: "topic", Required: true, Usage: "`TOPIC` of the truth's rules"},
		}, evalFlags("checkpoints", "or text")...),
		Action: func(c *ucli.Context) error {
			format, at, err := parseEvalFlags(c)
			if err != nil {
				return err
			}
			g, err := mirrorweb.ReadGraph(c.String("truth"))
			if err != nil {
				return cli.Usagef("--truth: %v", err)
			}
			st, err := openStream(c, c.Args().Slice())
			if err != nil {
				return err
			}
			return stage.MirrorEvalStream(c.Context, st, stage.MirrorEvalOptions{Truth: g, Topic: c.String("topic"), At: at, Format: format})
		},
	}
}

func mirrorServeCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "serve",
		Usage:     "serve the mirror on one loopback listener, by Host header and as an HTTP proxy",
		ArgsUsage: "[SOURCE...]",
		Description: "Prints {\"addr\":\"127.0.0.1:PORT\",\"proxy\":\"http://127.0.0.1:PORT\",...} as the first stdout line once\n" +
			"the listener is up, then serves until SIGINT or SIGTERM. Unknown hosts answer 502 with\n" +
			"Proxy-Status: simweb; error=dns_error.",
		Flags: mirrorFlags(serveFlags("mirror-addr",
			&ucli.StringFlag{Name: "log", Usage: "append every request to `FILE` as a JSON line (time, host, uri, status, bytes, ms)", EnvVars: cli.Env("mirror-log")})...),
		Action: func(c *ucli.Context) error {
			return stage.MirrorServe(c.Context, stage.MirrorServeOptions{Mirror: mirrorOptions(c), Addr: c.String("addr"), LogFile: c.String("log"),
				Out: c.App.Writer, Log: cli.NewLogger("simweb mirror", c.App.ErrWriter, c.Bool(cli.FlagQuiet))})
		},
	}
}

func mirrorTruthCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "truth",
		Usage:     "walk the mirror from its portal and write its truth: every URL, its links, reachability, relevance per topic",
		ArgsUsage: "[SOURCE...]",
		Description: "Fetches every page in process (no server), breadth-first from --portal, obeying robots.txt,\n" +
			"then every page no portal leads to. Writes a header line and one node per URL (JSON lines;\n" +
			"-o FILE.zst compresses), the input of simweb mirror eval.",
		Flags: mirrorFlags(append([]ucli.Flag{
			&ucli.StringSliceFlag{Name: "portal", Required: true, Usage: "`URL` the crawl starts from; repeatable"},
			&ucli.StringFlag{Name: "rules", Usage: "truth rules `FILE` (YAML: topics → host and path rules)"},
		}, cli.StreamFlags()...)...),
		Action: func(c *ucli.Context) error {
			var rules *mirrorweb.Rules
			if p := c.String("rules"); p != "" {
				r, err := mirrorweb.ReadRules(p)
				if err != nil {
					return cli.Usagef("--rules: %v", err)
				}
				rules = r
			}
			web, err := stage.NewMirror(mirrorOptions(c))
			if err != nil {
				return err
			}
			defer web.Close()
			st, err := cli.OpenStreamWith(c, nil, nil, c.App.Writer, c.App.ErrWriter)
			if err != nil {
				return err
			}
			return stage.MirrorTruthStream(c.Context, st, stage.MirrorTruthOptions{Web: web, Portals: c.StringSlice("portal"), Rules: rules})
		},
	}
}
