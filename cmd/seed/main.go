// Command seed produces and manages the URLs of a crawl: seed lists,
// meta-search, the host library, sitemaps, and the crawl frontier.
package main

import (
	"sort"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

// commands is filled by the init functions of the subcommand files, one
// file per subcommand.
var commands []*ucli.Command

//go:generate go test -run ^TestHelpPages$ -update-help .

func main() {
	cli.Main(newApp())
}

func newApp() *ucli.App {
	sort.Slice(commands, func(i, j int) bool { return commands[i].Name < commands[j].Name })
	return cli.New(cli.App{
		Name:     "seed",
		Usage:    "seed URLs and the crawl frontier",
		Args:     "COMMAND [options] [FILE...]",
		Example:  "seed urls seeds.txt | seed add --db crawl.db",
		Commands: commands,
	})
}
