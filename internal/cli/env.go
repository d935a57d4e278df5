package cli

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// perCommandFlags are the shared flags whose environment variable is the
// command's own: FOCUSCRAWL_FETCH_OUTPUT, FOCUSCRAWL_SEED_NEXT_REJECTS.
// One FOCUSCRAWL_OUTPUT would send every stage of a pipe to one file.
var perCommandFlags = []string{FlagOutput, FlagRejects}

// CommandEnv is the environment variable of flag for the command at path
// ("seed", "next"): FOCUSCRAWL_SEED_NEXT_OUTPUT.
func CommandEnv(path []string, flag string) string {
	return Env(strings.Join(append(slices.Clone(path), flag), "-"))[0]
}

// setCommandEnv gives the per-command flags among flags the environment
// variable of the command at path.
func setCommandEnv(path []string, flags []ucli.Flag) {
	for _, f := range flags {
		sf, ok := f.(*ucli.StringFlag)
		if !ok || !slices.Contains(perCommandFlags, sf.Name) {
			continue
		}
		sf.EnvVars = []string{CommandEnv(path, sf.Name)}
	}
}

// retiredEnv are environment variables no longer read, with what to set
// instead, and the commands that read them before (nil: all).
var retiredEnv = []struct {
	name     string
	commands []string
	instead  string
}{
	{"FOCUSCRAWL_OUTPUT", nil, "it sent every stage of a pipe to one file; each command has its own, as FOCUSCRAWL_FETCH_OUTPUT"},
	{"FOCUSCRAWL_REJECTS", nil, "it sent every stage's rejects to one file; each command has its own, as FOCUSCRAWL_FETCH_REJECTS"},
	{"FOCUSCRAWL_WINDOW", []string{"score", "dedupe"}, "it meant docs scored together in score and docs a group is held in dedupe: set FOCUSCRAWL_SCORE_WINDOW or FOCUSCRAWL_DEDUPE_WINDOW"},
	{"FOCUSCRAWL_MAX_BYTES", []string{"segment"}, "in segment it is now FOCUSCRAWL_SEGMENT_MAX_BYTES; FOCUSCRAWL_MAX_BYTES is fetch's and verify's body cap"},
}

// warnRetiredEnv warns about the retired variables that are set.
func warnRetiredEnv(app string, stderr io.Writer) {
	for _, r := range retiredEnv {
		if _, set := os.LookupEnv(r.name); !set || (r.commands != nil && !slices.Contains(r.commands, app)) {
			continue
		}
		fmt.Fprintf(stderr, "%s: warning: %s is no longer read by %s: %s\n", app, r.name, app, r.instead)
	}
}
