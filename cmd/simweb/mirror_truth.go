package main

import (
	"os"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/mirrorweb"
)

func init() {
	mirrorCmd.Subcommands = append(mirrorCmd.Subcommands, &ucli.Command{
		Name:      "truth",
		Usage:     "walk the mirror from its portal and write its truth: every URL, its links, reachability, relevance per topic",
		ArgsUsage: "[SOURCE...]",
		Description: "Fetches every page in process (no server), breadth-first from --portal, obeying robots.txt,\n" +
			"then every page no portal leads to. Writes a header line and one node per URL (JSON lines;\n" +
			"-o FILE.zst compresses), the input of simweb mirror eval.",
		Flags: append(append(mirrorFlags(),
			&ucli.StringSliceFlag{Name: "portal", Required: true, Usage: "`URL` the crawl starts from; repeatable"},
			&ucli.StringFlag{Name: "rules", Usage: "truth rules `FILE` (YAML: topics → host and path rules)"}),
			cli.StreamFlags()...),
		Action: mirrorTruth,
	})
}

func mirrorTruth(c *ucli.Context) error {
	var rules *mirrorweb.Rules
	if p := c.String("rules"); p != "" {
		r, err := mirrorweb.ReadRules(p)
		if err != nil {
			return cli.Usagef("--rules: %v", err)
		}
		rules = r
	}
	web, err := newMirror(c, c.Args().Slice())
	if err != nil {
		return err
	}
	defer web.Close()
	st, err := cli.OpenStreamWith(c, nil, os.Stdin, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return err
	}
	g, err := web.Build(c.Context, c.StringSlice("portal"), rules)
	if err != nil {
		st.Close()
		return err
	}
	reach, rel := 0, map[string][2]int{}
	for _, n := range g.Nodes {
		if n.Reachable() {
			reach++
		}
		for _, t := range n.Relevant {
			v := rel[t]
			v[0]++
			if n.Reachable() {
				v[1]++
			}
			rel[t] = v
		}
	}
	st.Log.Infof("%d URLs, %d reachable from the portal", len(g.Nodes), reach)
	for _, t := range g.Topics {
		st.Log.Infof("topic %s: %d relevant URLs, %d of them reachable", t, rel[t][0], rel[t][1])
	}
	if err := g.Records(st.Out.Write); err != nil {
		st.Close()
		return err
	}
	return st.Close()
}
