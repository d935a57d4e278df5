package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

func init() {
	mirrorCmd.Subcommands = append(mirrorCmd.Subcommands, &ucli.Command{
		Name:      "serve",
		Usage:     "serve the mirror on one loopback listener, by Host header and as an HTTP proxy",
		ArgsUsage: "[SOURCE...]",
		Description: "Prints {\"addr\":\"127.0.0.1:PORT\",\"proxy\":\"http://127.0.0.1:PORT\",...} as the first stdout line once\n" +
			"the listener is up, then serves until SIGINT or SIGTERM. Unknown hosts answer 502 with\n" +
			"Proxy-Status: simweb; error=dns_error.",
		Flags: append(mirrorFlags(),
			&ucli.StringFlag{Name: "addr", Value: "127.0.0.1:0", Usage: "listen on `HOST:PORT` (port 0: any free port)", EnvVars: cli.Env("mirror-addr")},
			&ucli.StringFlag{Name: "log", Usage: "append every request to `FILE` as a JSON line (time, host, uri, status, bytes, ms)", EnvVars: cli.Env("mirror-log")},
			&ucli.BoolFlag{Name: cli.FlagQuiet, Aliases: []string{"q"}, Usage: "no log on stderr"},
		),
		Action: mirrorServe,
	})
}

func mirrorServe(c *ucli.Context) error {
	web, err := newMirror(c, c.Args().Slice())
	if err != nil {
		return err
	}
	defer web.Close()
	log := cli.NewLogger("simweb mirror", c.App.ErrWriter, c.Bool(cli.FlagQuiet))
	var reqLog io.Writer
	if p := c.String("log"); p != "" {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("--log: %w", err)
		}
		defer f.Close()
		reqLog = f
	}
	ln, err := net.Listen("tcp", c.String("addr"))
	if err != nil {
		return fmt.Errorf("listen on %s: %w", c.String("addr"), err)
	}
	srv := &http.Server{Handler: web.Handler(reqLog), ReadHeaderTimeout: 10 * time.Second}
	hello, _ := json.Marshal(map[string]any{
		"addr": ln.Addr().String(), "proxy": "http://" + ln.Addr().String(),
		"hosts": len(web.Hosts()), "warc_records": web.Records(),
	})
	if _, err := fmt.Fprintf(c.App.Writer, "%s\n", hello); err != nil {
		ln.Close()
		return err
	}
	log.Infof("serving %d hosts (%d WARC records) on %s", len(web.Hosts()), web.Records(), ln.Addr())
	return serveUntilDone(c, srv, ln, log)
}
