package main

import (
	"fmt"

	ucli "github.com/urfave/cli/v2"
)

func init() {
	commands = append(commands, &ucli.Command{
		Name:  "seeds",
		Usage: "print a few seed URLs for a topic: portal homes, a portal channel, the best relevant site",
		Flags: append(append(webFlags(), simTopicFlags("(required) ")...),
			&ucli.BoolFlag{Name: "json", Usage: "write url records instead of plain lines"}),
		Action: func(c *ucli.Context) error {
			topic, err := simTopic(c, true)
			if err != nil {
				return err
			}
			web, err := newWeb(c)
			if err != nil {
				return err
			}
			seeds, err := web.Seeds(topic)
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
