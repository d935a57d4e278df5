// Command simweb serves a deterministic simulated web on loopback and
// writes its ground truth: the test bed of focuscrawl's tests, demo and
// benchmarks.
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
		Name:     "simweb",
		Usage:    "a simulated web with ground truth, served on loopback",
		Args:     "COMMAND [options]",
		Example:  "simweb serve --addr 127.0.0.1:0 & simweb truth --seed 1 -o truth.jsonl.zst",
		Commands: commands,
	})
}
