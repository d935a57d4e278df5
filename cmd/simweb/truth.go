package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/simweb"
)

func init() {
	commands = append(commands, &ucli.Command{
		Name:      "truth",
		Usage:     "write the ground truth of every page, or of the URLs given with --lookup",
		ArgsUsage: "[FILE...]",
		Description: "Without --lookup: one JSON line per URL of the finite web (pages, print versions, carts,\n" +
			"redirects, ad clicks, search pages, calendar months within a year of the epoch).\n" +
			"With --lookup: reads URLs (plain lines or records with a url field) from FILEs or stdin and\n" +
			"writes the truth of each, trap URLs (session ids, any calendar month) included.",
		Flags: append(append(webFlags(),
			&ucli.BoolFlag{Name: "lookup", Usage: "judge the URLs read from FILEs or stdin instead of listing the web"}),
			cli.StreamFlags()...),
		Action: truth,
	})
}

func truth(c *ucli.Context) error {
	web, err := newWeb(c)
	if err != nil {
		return err
	}
	st, err := cli.OpenStreamWith(c, c.Args().Slice(), os.Stdin, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return err
	}
	if !c.Bool("lookup") {
		if c.Args().Len() > 0 {
			st.Close()
			return cli.Usagef("FILE arguments need --lookup")
		}
		err = web.URLs(func(u string) error {
			pt, _ := web.Page(u)
			return st.Out.Write(pt)
		})
		return firstErr(err, st.Close())
	}
	return firstErr(lookup(web, st), st.Close())
}

// lookup writes the truth of every URL read; a URL the web does not serve
// gets a record with an error, and a line that holds no URL is rejected.
func lookup(web *simweb.Web, st *cli.Stream) error {
	for {
		line, err := st.In.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		u, err := jsonl.DecodeURL(line.Bytes)
		if errors.Is(err, jsonl.ErrComment) {
			continue
		}
		if err != nil {
			st.Rejects.Reject(line, err)
			continue
		}
		pt, ok := web.Page(u.URL)
		if !ok {
			err = st.Out.Write(struct {
				URL   string `json:"url"`
				Error string `json:"error"`
			}{u.URL, fmt.Sprintf("not a URL of this simulated web: %s", u.URL)})
		} else {
			err = st.Out.Write(pt)
		}
		if err != nil {
			return err
		}
	}
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
