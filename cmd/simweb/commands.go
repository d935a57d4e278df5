package main

import (
	"slices"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	sim "github.com/focuscrawl/focuscrawl/internal/simweb"
	stage "github.com/focuscrawl/focuscrawl/internal/stage/simweb"
)

func evalCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "eval",
		Usage:     "measure a crawl against the truth: harvest rate (at checkpoints), discovery rate, topic drift, sites found",
		ArgsUsage: "[FILE...]",
		Description: "Reads the crawl's records in fetch order (fetch, segment or score output, or plain URL lines)\n" +
			"from FILEs or stdin; every record is one fetch. Writes one JSON object.",
		Flags: webFlags(append(simTopicFlags("(required) "), evalFlags("harvest-rate checkpoints")...)...),
		Action: func(c *ucli.Context) error {
			topic, err := simTopic(c, true)
			if err != nil {
				return err
			}
			format, err := evalFormat.Value(c)
			if err != nil {
				return err
			}
			at, err := stage.ParseEvalFlags(format, c.String("at"))
			if err != nil {
				return err
			}
			web, err := newWeb(c)
			if err != nil {
				return err
			}
			st, err := openStream(c, c.Args().Slice())
			if err != nil {
				return err
			}
			return stage.EvalStream(c.Context, st, stage.EvalOptions{Web: web, Topic: topic, At: at, Format: format})
		},
	}
}

func getCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "get",
		Usage:     "print the body of a page as the web serves it (status and headers on stderr), without a server",
		ArgsUsage: "URL",
		Flags:     webFlags(&ucli.BoolFlag{Name: "headers", Usage: "print the status line and headers on stderr"}),
		Action: func(c *ucli.Context) error {
			if c.NArg() != 1 {
				return cli.Usagef("get takes one URL, got %d arguments", c.NArg())
			}
			web, err := newWeb(c)
			if err != nil {
				return err
			}
			return stage.Get(c.App.Writer, c.App.ErrWriter, stage.GetOptions{Web: web, URL: c.Args().First(), Headers: c.Bool("headers")})
		},
	}
}

// seedsFormat is the --format of simweb seeds.
var seedsFormat = cli.Format{Values: []string{cli.FormatText, cli.FormatJSONL}, Default: cli.FormatText,
	Usage: "text is one URL a line, jsonl url records"}

func seedsCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "seeds",
		Usage: "print a few seed URLs for a topic: portal homes, a portal channel, the best relevant site",
		Flags: webFlags(append(simTopicFlags("(required) "), seedsFormat.Flags()...)...),
		Action: func(c *ucli.Context) error {
			topic, err := simTopic(c, true)
			if err != nil {
				return err
			}
			web, err := newWeb(c)
			if err != nil {
				return err
			}
			format, err := seedsFormat.Value(c)
			if err != nil {
				return err
			}
			return stage.Seeds(c.App.Writer, stage.SeedsOptions{Web: web, Topic: topic, JSON: format == cli.FormatJSONL})
		},
	}
}

func serveCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "serve",
		Usage: "serve every site on one loopback listener, by Host header and as an HTTP proxy",
		Description: "Prints {\"addr\":\"127.0.0.1:PORT\",...} as the first line on stdout once the listener is up,\n" +
			"then serves until SIGINT or SIGTERM. Point a client at it as an HTTP proxy (fetch --proxy http://ADDR)\n" +
			"or send requests to ADDR with the site's Host header.",
		Flags: webFlags(serveFlags(
			&ucli.DurationFlag{Name: "slow-latency", Value: 150 * time.Millisecond, Usage: "delay `DURATION` of each answer of a slow host (0: none)"},
			&ucli.Float64Flag{Name: "rate-limit", Value: 5, Usage: "requests per second `R` a rate-limited host answers before 429"},
			&ucli.BoolFlag{Name: "no-faults", Usage: "no slow hosts, 429s or flaky first answers (dead hosts, 5xx pages, redirects and traps stay)"},
		)...),
		Action: func(c *ucli.Context) error {
			o := stage.ServeOptions{Addr: c.String("addr"), Out: c.App.Writer, Log: cli.NewLogger("simweb", c.App.ErrWriter, c.Bool(cli.FlagQuiet))}
			o.Web = stage.WebOptions{Seed: c.Int64("seed"), Sites: c.Int("sites"), SlowLatency: c.Duration("slow-latency"), RateLimit: c.Float64("rate-limit"), NoFaults: c.Bool("no-faults")}
			return stage.Serve(c.Context, o)
		},
	}
}

func sitesCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "sites",
		Usage: "list the sites with their kind, topic, rank, charset, traits and relevance per topic",
		Flags: webFlags(append(append(simTopicFlags("only the sites relevant to "),
			&ucli.StringFlag{Name: "kind", Usage: "only the sites of `KIND` (portal, authority, government, bookstore, shop, content, forum, linkfarm, ads)"}),
			cli.StreamFlags()...)...),
		Action: func(c *ucli.Context) error {
			web, err := newWeb(c)
			if err != nil {
				return err
			}
			topic, err := simTopic(c, false)
			if err != nil {
				return err
			}
			st, err := openStream(c, nil)
			if err != nil {
				return err
			}
			return stage.SitesStream(st, stage.SitesOptions{Web: web, Topic: topic, Kind: c.String("kind")})
		},
	}
}

func truthCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "truth",
		Usage:     "write the ground truth of every page, or of the URLs given with --lookup",
		ArgsUsage: "[FILE...]",
		Description: "Without --lookup: one JSON line per URL of the finite web (pages, print versions, carts,\n" +
			"redirects, ad clicks, search pages, calendar months within a year of the epoch).\n" +
			"With --lookup: reads URLs (plain lines or records with a url field) from FILEs or stdin and\n" +
			"writes the truth of each, trap URLs (session ids, any calendar month) included.",
		Flags: webFlags(append([]ucli.Flag{&ucli.BoolFlag{Name: "lookup", Usage: "judge the URLs read from FILEs or stdin instead of listing the web"},
			&ucli.StringFlag{Name: "labels", Usage: "with --lookup: write {\"url\",\"relevant\"} label lines for `TOPIC` (score train --labels), as a person labelling pages would"}},
			cli.StreamFlags()...)...),
		Action: func(c *ucli.Context) error {
			web, err := newWeb(c)
			if err != nil {
				return err
			}
			st, err := openStream(c, c.Args().Slice())
			if err != nil {
				return err
			}
			if !c.Bool("lookup") && c.Args().Len() > 0 {
				st.Close()
				return cli.Usagef("FILE arguments need --lookup")
			}
			topic := c.String("labels")
			if topic != "" {
				if !c.Bool("lookup") {
					st.Close()
					return cli.Usagef("--labels needs --lookup")
				}
				if !slices.Contains(sim.Topics, topic) {
					st.Close()
					return cli.Usagef("--labels %q: not a simweb topic", topic)
				}
			}
			return stage.TruthStream(c.Context, st, stage.TruthOptions{Web: web, Lookup: c.Bool("lookup"), Labels: topic})
		},
	}
}

func mirrorCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "mirror",
		Usage: "a static mirror of real sites (HOST=DIR trees, WARC files) as a web on loopback, with path-rule truth",
		Description: "SOURCES are HOST=DIR (a directory served as one host) or WARC files (.warc, .warc.gz),\n" +
			"given as arguments or in --sources files. See docs/realweb.md.",
		Subcommands: []*ucli.Command{mirrorEvalCommand(), mirrorServeCommand(), mirrorTruthCommand()},
	}
}

func mirrorEvalCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "eval",
		Usage:     "measure a crawl of a mirror: harvest, recall of reachable relevant pages, budget lost to unfetchable URLs, upper bound, the crawl's own verdicts",
		ArgsUsage: "[FILE...]",
		Description: "Reads the crawl's records in fetch order (fetch, segment or score output — crawl.sh's archive —\n" +
			"or URL lines) from FILEs or stdin; every record is one fetch slot, but for the first fetch of each\n" +
			"unreachable host that failed to reach it (its host probe: no page requested). Writes one JSON object.\n" +
			"When the records are scored docs (they carry relevant), \"verdicts\" judges those verdicts against the\n" +
			"truth: precision, recall and the harvest the crawl believes it has.",
		Flags: append([]ucli.Flag{
			&ucli.StringFlag{Name: "truth", Required: true, Usage: "truth `FILE` written by simweb mirror truth"},
			&ucli.StringFlag{Name: "topic", Required: true, Usage: "`TOPIC` of the truth's rules"},
		}, evalFlags("checkpoints")...),
		Action: func(c *ucli.Context) error {
			format, err := evalFormat.Value(c)
			if err != nil {
				return err
			}
			at, err := stage.ParseEvalFlags(format, c.String("at"))
			if err != nil {
				return err
			}
			g, err := stage.ReadTruth(c.String("truth"))
			if err != nil {
				return err
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
		Flags: mirrorFlags(serveFlags(
			&ucli.StringFlag{Name: "log", Usage: "append every request to `FILE` as a JSON line (time, host, uri, status, bytes, ms)"})...),
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
			rules, err := stage.ReadRules(c.String("rules"))
			if err != nil {
				return err
			}
			web, err := stage.NewMirror(mirrorOptions(c))
			if err != nil {
				return err
			}
			defer web.Close()
			st, err := openStream(c, nil)
			if err != nil {
				return err
			}
			return stage.MirrorTruthStream(c.Context, st, stage.MirrorTruthOptions{Web: web, Portals: c.StringSlice("portal"), Rules: rules})
		},
	}
}
