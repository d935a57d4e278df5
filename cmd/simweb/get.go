package main

import (
	"fmt"
	"net/http/httptest"
	"sort"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

func init() {
	commands = append(commands, &ucli.Command{
		Name:      "get",
		Usage:     "print the body of a page as the web serves it (status and headers on stderr), without a server",
		ArgsUsage: "URL",
		Flags: append(webFlags(),
			&ucli.BoolFlag{Name: "headers", Usage: "print the status line and headers on stderr"}),
		Action: func(c *ucli.Context) error {
			if c.NArg() != 1 {
				return cli.Usagef("get takes one URL, got %d arguments", c.NArg())
			}
			web, err := newWeb(c)
			if err != nil {
				return err
			}
			u := c.Args().First()
			rec := httptest.NewRecorder()
			web.Handler().ServeHTTP(rec, httptest.NewRequest("GET", u, nil))
			if c.Bool("headers") {
				fmt.Fprintf(c.App.ErrWriter, "HTTP/1.1 %d\n", rec.Code)
				keys := make([]string, 0, len(rec.Header()))
				for k := range rec.Header() {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				for _, k := range keys {
					fmt.Fprintf(c.App.ErrWriter, "%s: %s\n", k, rec.Header().Get(k))
				}
			}
			if _, err := c.App.Writer.Write(rec.Body.Bytes()); err != nil {
				return err
			}
			if rec.Code >= 400 {
				return ucli.Exit(fmt.Sprintf("%s: status %d", u, rec.Code), 1)
			}
			return nil
		},
	})
}
