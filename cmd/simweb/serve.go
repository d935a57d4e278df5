package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

func init() {
	commands = append(commands, &ucli.Command{
		Name:  "serve",
		Usage: "serve every site on one loopback listener, by Host header and as an HTTP proxy",
		Description: "Prints {\"addr\":\"127.0.0.1:PORT\",...} as the first line on stdout once the listener is up,\n" +
			"then serves until SIGINT or SIGTERM. Point a client at it as an HTTP proxy (fetch --proxy http://ADDR)\n" +
			"or send requests to ADDR with the site's Host header.",
		Flags: append(webFlags(),
			&ucli.StringFlag{Name: "addr", Value: "127.0.0.1:0", Usage: "listen on `HOST:PORT` (port 0: any free port)", EnvVars: cli.Env("simweb-addr")},
			&ucli.DurationFlag{Name: flagSlow, Value: 150 * time.Millisecond, Usage: "delay `D` of each answer of a slow host (0: none)", EnvVars: cli.Env("simweb-" + flagSlow)},
			&ucli.Float64Flag{Name: flagRate, Value: 5, Usage: "requests per second `R` a rate-limited host answers before 429", EnvVars: cli.Env("simweb-" + flagRate)},
			&ucli.BoolFlag{Name: flagNoFaults, Usage: "no slow hosts, 429s or flaky first answers (dead hosts, 5xx pages, redirects and traps stay)", EnvVars: cli.Env("simweb-" + flagNoFaults)},
			&ucli.BoolFlag{Name: cli.FlagQuiet, Aliases: []string{"q"}, Usage: "no log on stderr"},
		),
		Action: serve,
	})
}

func serve(c *ucli.Context) error {
	web, err := newWeb(c)
	if err != nil {
		return err
	}
	log := cli.NewLogger("simweb", c.App.ErrWriter, c.Bool(cli.FlagQuiet))
	ln, err := net.Listen("tcp", c.String("addr"))
	if err != nil {
		return fmt.Errorf("listen on %s: %w", c.String("addr"), err)
	}
	srv := &http.Server{Handler: web.Handler(), ReadHeaderTimeout: 10 * time.Second}
	hello, _ := json.Marshal(map[string]any{
		"addr": ln.Addr().String(), "proxy": "http://" + ln.Addr().String(),
		"seed": c.Int64(flagSeed), "sites": c.Int(flagSites),
	})
	if _, err := fmt.Fprintf(c.App.Writer, "%s\n", hello); err != nil {
		ln.Close()
		return err
	}
	st := web.Stats()
	log.Infof("serving %d sites, %d pages on %s", st.Sites, st.Pages, ln.Addr())
	return serveUntilDone(c, srv, ln, log)
}
