package cli

import (
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"
)

// EnvPrefix starts the environment variable that can set each flag.
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
)

// Env gives the environment variable for a flag: FOCUSCRAWL_MAX_BYTES for
// max-bytes.
func Env(flag string) []string {
	return []string{EnvPrefix + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))}
}

// StreamFlags are the flags of every stage that writes records: -o,
// --rejects, -q and --progress.
func StreamFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringFlag{Name: FlagOutput, Aliases: []string{"o"}, Usage: "write records to `FILE` (.gz/.zst compress) instead of stdout", EnvVars: Env(FlagOutput)},
		&ucli.StringFlag{Name: FlagRejects, Usage: "keep input lines that could not be used in `FILE`, verbatim", EnvVars: Env(FlagRejects)},
		&ucli.BoolFlag{Name: FlagQuiet, Aliases: []string{"q"}, Usage: "no summary or warnings on stderr (errors still show)", EnvVars: Env(FlagQuiet)},
		&ucli.StringFlag{Name: FlagProgress, Value: "auto", Usage: "progress on stderr: auto (when a terminal), on, off; on without a terminal writes a line every --progress-every", EnvVars: Env(FlagProgress)},
		&ucli.DurationFlag{Name: FlagProgressEvery, Value: 10 * time.Second, Usage: "with --progress on and stderr not a terminal (cron, nohup, a log file): one progress line per `D`", EnvVars: Env(FlagProgressEvery)},
	}
}

// TopicFlag is --topic FILE, the topic profile.
func TopicFlag(required bool) ucli.Flag {
	return &ucli.StringFlag{Name: FlagTopic, Usage: "topic profile `FILE` (YAML)", EnvVars: Env(FlagTopic), Required: required}
}
