package main

import (
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/simweb"
)

func init() {
	commands = append(commands, &ucli.Command{
		Name:  "seeds",
		Usage: "print a few seed URLs for a topic: portal homes, a portal channel, the best relevant site",
		Flags: append(webFlags(),
			&ucli.StringFlag{Name: "topic", Required: true, Usage: "`TOPIC`: " + strings.Join(simweb.Topics, ", ")},
			&ucli.BoolFlag{Name: "json", Usage: "write url records instead of plain lines"}),
		Action: func(c *ucli.Context) error {
			if err := checkTopic(c.String("topic")); err != nil {
				return err
			}
			web, err := newWeb(c)
			if err != nil {
				return err
			}
			seeds, err := web.Seeds(c.String("topic"))
			if err != nil {
				return err
			}
			for _, u := range seeds {
				line := u
				if c.Bool("json") {
					line = fmt.Sprintf(`{"url":%q,"depth":0}`, u)
				}
				if _, err := fmt.Fprintln(c.App.Writer, line); err != nil {
					return err
				}
			}
			return nil
		},
	})
}

func checkTopic(t string) error {
	if simweb.TopicIndex(t) < 0 {
		return cli.Usagef("--topic: %q is not a topic of simweb (%s)", t, strings.Join(simweb.Topics, ", "))
	}
	return nil
}
