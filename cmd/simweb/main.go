// Command simweb serves a deterministic simulated web on loopback and
// writes its ground truth: the test bed of focuscrawl's tests, demo and
// benchmarks. Its subcommands parse their flags into the Options of
// internal/stage/simweb, which runs them (and is callable from Go).
package main

import (
	"fmt"
	"os"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	sim "github.com/focuscrawl/focuscrawl/internal/simweb"
	stage "github.com/focuscrawl/focuscrawl/internal/stage/simweb"
)

//go:generate go test -run ^TestHelpPages$ -update-help .

func main() {
	cli.Main(newApp())
}

func newApp() *ucli.App {
	return cli.New(cli.App{
		Name:    "simweb",
		Usage:   "a simulated web with ground truth, served on loopback",
		Args:    "COMMAND [options]",
		Example: "simweb serve --addr 127.0.0.1:0 & simweb truth --seed 1 -o truth.jsonl.zst",
		// Listed here in the order of --help.
		Commands: []*ucli.Command{
			evalCommand(), getCommand(), mirrorCommand(), seedsCommand(), serveCommand(), sitesCommand(), truthCommand(),
		},
	})
}

// Flag names shared by the subcommands.
const (
	flagSeed     = "seed"
	flagSites    = "sites"
	flagSlow     = "slow-latency"
	flagRate     = "rate-limit"
	flagNoFaults = "no-faults"
	// flagSimTopic names one of simweb's simulated topics. Every other
	// command's --topic is a topic profile FILE (docs/cli.md); simweb's was
	// a name, so it is --sim-topic now, and --topic NAME still works with a
	// warning.
	flagSimTopic = "sim-topic"
	flagOldTopic = "topic"
)

// webFlags choose the web; every subcommand takes them, so truth and
// serve agree when given the same values.
func webFlags(more ...ucli.Flag) []ucli.Flag {
	return append([]ucli.Flag{
		&ucli.Int64Flag{Name: flagSeed, Value: 1, Usage: "the web's `SEED`: the same seed gives the same pages and truth", EnvVars: cli.Env("simweb-" + flagSeed)},
		&ucli.IntFlag{Name: flagSites, Value: sim.DefaultSites, Usage: "number of `N` sites (at least 12)", EnvVars: cli.Env("simweb-" + flagSites)},
	}, more...)
}

// webOptions are the web of webFlags, without the timing faults (only
// serve has them; the truth does not depend on them).
func webOptions(c *ucli.Context) stage.WebOptions {
	return stage.WebOptions{Seed: c.Int64(flagSeed), Sites: c.Int(flagSites)}
}

func newWeb(c *ucli.Context) (*sim.Web, error) { return stage.NewWeb(webOptions(c)) }

// simTopicFlags are --sim-topic and the hidden old --topic.
func simTopicFlags(usage string) []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringFlag{Name: flagSimTopic, Usage: usage + "`TOPIC`: " + strings.Join(sim.Topics, ", "), EnvVars: cli.Env("simweb-topic")},
		&ucli.StringFlag{Name: flagOldTopic, Hidden: true, Usage: "old name of --sim-topic"},
	}
}

// simTopic reads --sim-topic (or the old --topic); required says whether
// the command needs one. "" means none was given.
func simTopic(c *ucli.Context, required bool) (string, error) {
	t := c.String(flagSimTopic)
	if c.IsSet(flagOldTopic) {
		if c.IsSet(flagSimTopic) {
			return "", cli.Usagef("give --%s only (--%s is its old name)", flagSimTopic, flagOldTopic)
		}
		t = c.String(flagOldTopic)
		fmt.Fprintf(c.App.ErrWriter, "%s: --topic %s is deprecated: write --sim-topic %s (--topic is a topic profile file in every other command)\n", c.App.Name, t, t)
	}
	return t, stage.CheckTopic(t, required)
}

// openStream opens the inputs (stdin when none), -o and --rejects.
func openStream(c *ucli.Context, inputs []string) (*cli.Stream, error) {
	return cli.OpenStreamWith(c, inputs, os.Stdin, c.App.Writer, c.App.ErrWriter)
}

// evalFlags are --at and --format of eval and mirror eval; parseEvalFlags
// reads them.
func evalFlags(atUsage string, formatUsage string) []ucli.Flag {
	return append([]ucli.Flag{
		&ucli.StringFlag{Name: "at", Value: "500,1000,2000", Usage: atUsage + ", comma-separated `N,N,…`"},
		&ucli.StringFlag{Name: "format", Value: "json", Usage: "`FORMAT` of the result: json " + formatUsage},
	}, cli.StreamFlags()...)
}

func parseEvalFlags(c *ucli.Context) (format string, at []int, err error) {
	at, err = stage.ParseEvalFlags(c.String("format"), c.String("at"))
	return c.String("format"), at, err
}

// serveFlags are --addr (its environment variable named by env) and -q.
func serveFlags(env string, more ...ucli.Flag) []ucli.Flag {
	return append([]ucli.Flag{
		&ucli.StringFlag{Name: "addr", Value: "127.0.0.1:0", Usage: "listen on `HOST:PORT` (port 0: any free port)", EnvVars: cli.Env(env)},
	}, append(more, &ucli.BoolFlag{Name: cli.FlagQuiet, Aliases: []string{"q"}, Usage: "no log on stderr"})...)
}
