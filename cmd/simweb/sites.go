package main

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

func init() {
	commands = append(commands, &ucli.Command{
		Name:  "sites",
		Usage: "list the sites with their kind, topic, rank, charset, traits and relevance per topic",
		Flags: append(append(append(webFlags(), simTopicFlags("only the sites relevant to ")...),
			&ucli.StringFlag{Name: "kind", Usage: "only the sites of `KIND` (portal, authority, government, bookstore, shop, content, forum, linkfarm, ads)"}),
			cli.StreamFlags()...),
		Action: func(c *ucli.Context) error {
			web, err := newWeb(c)
			if err != nil {
				return err
			}
			kind := c.String("kind")
			topic, err := simTopic(c, false)
			if err != nil {
				return err
			}
			st, err := cli.OpenStreamWith(c, nil, nil, c.App.Writer, c.App.ErrWriter)
			if err != nil {
				return err
			}
			for _, s := range web.Sites() {
				if (topic != "" && s.Relevance[topic] == 0) || (kind != "" && s.Kind != kind) {
					continue
				}
				if err := st.Out.Write(s); err != nil {
					st.Close()
					return err
				}
			}
			return st.Close()
		},
	})
}
