package main

import (
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	stage "github.com/focuscrawl/focuscrawl/internal/stage/simweb"
)

func evalCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "eval",
		Usage:     "measure a crawl against the truth: harvest rate (at checkpoints), discovery rate, topic drift, sites found",
		ArgsUsage: "[FILE...]",
		Description: "Reads the crawl's records in fetch order (fetch, segment or score output, or plain URL lines)\n" +
			"from FILEs or stdin; every record is one fetch. Writes one JSON object.",
		Flags: webFlags(append(simTopicFlags("(required) "), evalFlags("harvest-rate checkpoints", "(one object) or text (a report for people)")...)...),
		Action: func(c *ucli.Context) error {
			topic, err := simTopic(c, true)
			if err != nil {
				return err
			}
			format, at, err := parseEvalFlags(c)
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

func seedsCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "seeds",
		Usage: "print a few seed URLs for a topic: portal homes, a portal channel, the best relevant site",
		Flags: webFlags(append(simTopicFlags("(required) "), &ucli.BoolFlag{Name: "json", Usage: "write url records instead of plain lines"})...),
		Action: func(c *ucli.Context) error {
			topic, err := simTopic(c, true)
			if err != nil {
				return err
			}
			web, err := newWeb(c)
			if err != nil {
				return err
			}
			return stage.Seeds(c.App.Writer, stage.SeedsOptions{Web: web, Topic: topic, JSON: c.Bool("json")})
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
		Flags: webFlags(serveFlags("simweb-addr",
			&ucli.DurationFlag{Name: flagSlow, Value: 150 * time.Millisecond, Usage: "delay `D` of each answer of a slow host (0: none)", EnvVars: cli.Env("simweb-" + flagSlow)},
			&ucli.Float64Flag{Name: flagRate, Value: 5, Usage: "requests per second `R` a rate-limited host answers before 429", EnvVars: cli.Env("simweb-" + flagRate)},
			&ucli.BoolFlag{Name: flagNoFaults, Usage: "no slow hosts, 429s or flaky first answers (dead hosts, 5xx pages, redirects and traps stay)", EnvVars: cli.Env("simweb-" + flagNoFaults)},
		)...),
		Action: func(c *ucli.Context) error {
			o := webOptions(c)
			o.SlowLatency, o.RateLimit, o.NoFaults = c.Duration(flagSlow), c.Float64(flagRate), c.Bool(flagNoFaults)
			return stage.Serve(c.Context, stage.ServeOptions{Web: o, Addr: c.String("addr"), Out: c.App.Writer,
				Log: cli.NewLogger("simweb", c.App.ErrWriter, c.Bool(cli.FlagQuiet))})
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
			st, err := cli.OpenStreamWith(c, nil, nil, c.App.Writer, c.App.ErrWriter)
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
		Flags: webFlags(append([]ucli.Flag{&ucli.BoolFlag{Name: "lookup", Usage: "judge the URLs read from FILEs or stdin instead of listing the web"}},
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
			return stage.TruthStream(c.Context, st, stage.TruthOptions{Web: web, Lookup: c.Bool("lookup")})
		},
	}
}
