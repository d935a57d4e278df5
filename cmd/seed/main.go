// Command seed produces and manages the URLs of a crawl: seed lists,
// meta-search, the host library, sitemaps, and the crawl frontier.
package main

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

//go:generate go test -run ^TestHelpPages$ -update-help .

func main() {
	cli.Main(newApp())
}

func newApp() *ucli.App {
	return cli.New(cli.App{
		Name:    "seed",
		Usage:   "seed URLs and the crawl frontier",
		Args:    "COMMAND [options] [FILE...]",
		Example: "seed urls seeds.txt | seed add --db crawl.db",
		// One file per subcommand; listed here in the order of --help.
		Commands: []*ucli.Command{
			addCommand(),
			hostsCommand(),
			nextCommand(),
			peekCommand(),
			reportCommand(),
			requeueCommand(),
			searchCommand(),
			sitemapCommand(),
			statsCommand(),
			urlsCommand(),
		},
	})
}
