package main

import (
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/simweb"
)

// flagSimTopic names one of simweb's simulated topics. Every other command's
// --topic is a topic profile FILE (docs/cli.md); simweb's was a name, so it
// is --sim-topic now, and --topic NAME still works with a warning.
const (
	flagSimTopic = "sim-topic"
	flagOldTopic = "topic"
)

// simTopicFlags are --sim-topic and the hidden old --topic.
func simTopicFlags(usage string) []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringFlag{Name: flagSimTopic, Usage: usage + "`TOPIC`: " + strings.Join(simweb.Topics, ", "), EnvVars: cli.Env("simweb-topic")},
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
	if t == "" {
		if required {
			return "", cli.Usagef("missing required flag --%s", flagSimTopic)
		}
		return "", nil
	}
	if simweb.TopicIndex(t) < 0 {
		return "", cli.Usagef("--%s: %q is not a topic of simweb (%s)", flagSimTopic, t, strings.Join(simweb.Topics, ", "))
	}
	return t, nil
}
