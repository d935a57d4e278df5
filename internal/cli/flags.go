package cli

import (
	"time"

	ucli "github.com/urfave/cli/v2"
)

// EnvPrefix starts the environment variable that can set each flag
// (FlagEnv).
const EnvPrefix = "FOCUSCRAWL_"

// Names of the shared flags.
const (
	FlagOutput   = "output"
	FlagRejects  = "rejects"
	FlagQuiet    = "quiet"
	FlagProgress = "progress"
	// FlagProgressEvery is the interval of progress lines when stderr is
	// not a terminal.
	FlagProgressEvery = "progress-every"
	FlagTopic         = "topic"
	// FlagLimit, -n, is how many results or URLs a command gives at most,
	// in every command that has it (seed next, seed peek, dedupe search).
	FlagLimit = "limit"
)

// StreamFlags are the flags of every stage that writes records: -o,
// --rejects, -q and --progress.
func StreamFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringFlag{Name: FlagOutput, Aliases: []string{"o"}, Usage: "write records to `FILE` (.gz/.zst compress) instead of stdout"},
		&ucli.StringFlag{Name: FlagRejects, Usage: "keep input lines that could not be used in `FILE`, verbatim"},
		&ucli.BoolFlag{Name: FlagQuiet, Aliases: []string{"q"}, Usage: "no summary or warnings on stderr (errors still show)"},
		&ucli.StringFlag{Name: FlagProgress, Value: "auto", Usage: "progress on stderr: auto (when a terminal), on, off; on without a terminal writes a line every --progress-every"},
		&ucli.DurationFlag{Name: FlagProgressEvery, Value: 10 * time.Second, Usage: "with --progress on and stderr not a terminal (cron, nohup, a log file): one progress line per `DURATION`"},
	}
}

// TopicFlag is --topic FILE, the topic profile.
func TopicFlag(required bool) ucli.Flag {
	return &ucli.StringFlag{Name: FlagTopic, Usage: "topic profile `FILE` (YAML)", Required: required}
}

// ShortFlags are the one-letter flags: each is the alias of one long flag,
// the same in every command that has it (docs/cli.md).
var ShortFlags = map[string]string{
	"o": FlagOutput,
	"q": FlagQuiet,
	"n": FlagLimit,
	"c": "concurrency",
	"H": "header",
	"f": "follow",
	"k": "hamming",
	"h": "help",
	"v": "version",
}
