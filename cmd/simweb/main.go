// Command simweb serves a deterministic simulated web on loopback and
// writes its ground truth: the test bed of focuscrawl's tests, demo and
// benchmarks. Its flags become the Options of internal/stage/simweb's runs.
package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	sim "github.com/focuscrawl/focuscrawl/internal/simweb"
	stage "github.com/focuscrawl/focuscrawl/internal/stage/simweb"
)

//go:generate go test -run ^TestHelpPages$ -update-help .

func main() { cli.Main(newApp()) }

func newApp() *ucli.App {
	return cli.New(cli.App{
		Name:     "simweb",
		Usage:    "a simulated web with ground truth, served on loopback",
		Args:     "COMMAND [options]",
		Example:  "simweb serve --addr 127.0.0.1:0 & simweb truth --seed 1 -o truth.jsonl.zst",
		Commands: []*ucli.Command{evalCommand(), getCommand(), mirrorCommand(), seedsCommand(), serveCommand(), sitesCommand(), truthCommand()},
	})
}

// webFlags choose the web; every subcommand takes them, so truth and
// serve agree when given the same values.
func webFlags(more ...ucli.Flag) []ucli.Flag {
	return append([]ucli.Flag{
		&ucli.Int64Flag{Name: "seed", Value: 1, Usage: "the web's `SEED`: the same seed gives the same pages and truth"},
		&ucli.IntFlag{Name: "sites", Value: sim.DefaultSites, Usage: "number of `N` sites (at least 12)"},
	}, more...)
}

// newWeb builds the web of webFlags, without the timing faults (only serve
// has them; the truth does not depend on them).
func newWeb(c *ucli.Context) (*sim.Web, error) {
	return stage.NewWeb(stage.WebOptions{Seed: c.Int64("seed"), Sites: c.Int("sites")})
}

// simTopicFlags are --sim-topic, one of simweb's simulated topics, and the
// hidden old --topic: every other command's --topic is a topic profile FILE
// (docs/cli.md); simweb's was a name, so it is --sim-topic now, and --topic
// NAME still works with a warning.
func simTopicFlags(usage string) []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringFlag{Name: "sim-topic", Usage: usage + "`TOPIC`: " + strings.Join(sim.Topics, ", ")},
		&ucli.StringFlag{Name: "topic", Hidden: true, Usage: "old name of --sim-topic"},
	}
}

// simTopic reads --sim-topic (or the old --topic); required says whether
// the command needs one. "" means none was given.
func simTopic(c *ucli.Context, required bool) (string, error) {
	t := c.String("sim-topic")
	if c.IsSet("topic") {
		if c.IsSet("sim-topic") {
			return "", cli.Usagef("give --sim-topic only (--topic is its old name)")
		}
		t = c.String("topic")
		fmt.Fprintf(c.App.ErrWriter, "%s: --topic %s is deprecated: write --sim-topic %s (--topic is a topic profile file in every other command)\n", c.App.Name, t, t)
	}
	return t, stage.CheckTopic(t, required)
}

// openStream opens the inputs (stdin when none), -o and --rejects.
func openStream(c *ucli.Context, inputs []string) (*cli.Stream, error) {
	return cli.OpenStreamWith(c, inputs, os.Stdin, c.App.Writer, c.App.ErrWriter)
}

// evalFormat is the --format of eval and mirror eval.
var evalFormat = cli.Format{Values: []string{cli.FormatJSON, cli.FormatText}, Default: cli.FormatJSON,
	Usage: "json is one object, text a report for people"}

// evalFlags are --at and --format of eval and mirror eval
// (stage.ParseEvalFlags reads them), and the stream flags.
func evalFlags(atUsage string) []ucli.Flag {
	return append(append([]ucli.Flag{
		&ucli.StringFlag{Name: "at", Value: "500,1000,2000", Usage: atUsage + ", comma-separated `N,N,…`"},
	}, evalFormat.Flags()...), cli.StreamFlags()...)
}

// serveFlags are --addr and -q.
func serveFlags(more ...ucli.Flag) []ucli.Flag {
	return append([]ucli.Flag{
		&ucli.StringFlag{Name: "addr", Value: "127.0.0.1:0", Usage: "listen on `HOST:PORT` (port 0: any free port)"},
	}, append(more, &ucli.BoolFlag{Name: cli.FlagQuiet, Aliases: []string{"q"}, Usage: "no log on stderr"})...)
}

// mirrorFlags choose the mirror; serve and truth take them, so both see
// the same web.
func mirrorFlags(more ...ucli.Flag) []ucli.Flag {
	return append([]ucli.Flag{
		&ucli.StringSliceFlag{Name: "sources", Usage: "`FILE` listing sources, one per line (HOST=DIR or a WARC path, relative to the file); repeatable"},
		&ucli.StringSliceFlag{Name: "down", Usage: "`HOST[=refused|timeout|dns]`: a host that does not answer (refused by default); repeatable"},
		&ucli.DurationFlag{Name: "down-delay", Value: 5 * time.Second, Usage: "how long a host declared timeout keeps a request before 504"},
		&ucli.BoolFlag{Name: "autoindex", Value: true, Usage: "list directories that have no index.html (as Apache's autoindex); --autoindex=false: 404"},
	}, more...)
}

// mirrorOptions are the mirror of mirrorFlags and the SOURCE arguments.
func mirrorOptions(c *ucli.Context) stage.MirrorOptions {
	return stage.MirrorOptions{SourceFiles: c.StringSlice("sources"), Sources: c.Args().Slice(), Down: c.StringSlice("down"),
		DownDelay: c.Duration("down-delay"), AutoIndex: c.Bool("autoindex")}
}
