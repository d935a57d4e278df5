package cli

import (
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// The one rule for environment variables (docs/cli.md): a flag's variable
// is FOCUSCRAWL_, then the command path that all the commands sharing the
// flag have in common, then the flag's name, upper case with - as _:
//
//   - a flag of one command is named by that command's whole path:
//     FOCUSCRAWL_SEED_NEXT_LEASE, FOCUSCRAWL_FETCH_QUEUE;
//   - a flag shared by the subcommands of one command is named by that
//     command: FOCUSCRAWL_SIMWEB_SEED (every simweb subcommand's --seed);
//   - a flag shared by several programs has no command in its name:
//     FOCUSCRAWL_TOPIC, FOCUSCRAWL_DELAY (fetch and verify).
//
// Which flags are shared, and by which commands, is written once, in
// sharedFlags. -o and --rejects are never shared: one value for every
// stage of a pipe would send them all to one file.

// sharedFlag is a flag that means the same in each of its commands, and
// whose one value suits them all.
type sharedFlag struct {
	name string
	// commands are the command paths ("seed next") that read the shared
	// variable; nil: every command that has a flag of this name.
	commands []string
}

// fetcherShared are the fetcher's and the renderer's settings that fetch
// and verify both offer.
var fetcherShared = []string{
	"per-host", "delay", "max-crawl-delay", "retries", "backoff", "max-backoff", "max-retry-after",
	"timeout", "connect-timeout", "header-timeout", "max-bytes", "max-redirects", "user-agent",
	"ignore-robots", "robots-ttl", "resolve", "insecure",
	"render", "chromium", "render-timeout", "render-tabs", "render-third-party",
}

var simwebWeb = []string{"simweb serve", "simweb get", "simweb seeds", "simweb eval", "simweb sites", "simweb truth"}

// sharedFlags is the register of shared flags; docs/cli.md lists their
// variables, and a test holds every command's flags to it.
var sharedFlags = append([]sharedFlag{
	{FlagQuiet, nil},
	{FlagProgress, nil},
	{FlagProgressEvery, nil},
	{FlagTopic, []string{"segment", "score", "score train", "score idf build", "verify", "dedupe", "dedupe search", "seed hosts"}},
	{"db", []string{"seed add", "seed next", "seed peek", "seed stats", "seed requeue", "score"}},
	{"store", []string{"dedupe", "dedupe search", "dedupe export"}},
	{"workers", []string{"segment", "score", "dedupe", "seed urls"}},
	{"proxy", []string{"fetch", "verify", "seed sitemap"}},
	{"allow-private", []string{"fetch", "verify", "seed search", "seed sitemap"}},
	{"seed", simwebWeb},
	{"sites", simwebWeb},
	{"sim-topic", []string{"simweb seeds", "simweb eval", "simweb sites"}},
	{"sources", []string{"simweb mirror serve", "simweb mirror truth"}},
	{"down", []string{"simweb mirror serve", "simweb mirror truth"}},
	{"down-delay", []string{"simweb mirror serve", "simweb mirror truth"}},
	{"autoindex", []string{"simweb mirror serve", "simweb mirror truth"}},
}, fetcherOnes()...)

func fetcherOnes() []sharedFlag {
	var out []sharedFlag
	for _, n := range fetcherShared {
		out = append(out, sharedFlag{n, []string{"fetch", "verify"}})
	}
	return out
}

// has says whether the command at path reads the shared variable.
func (s sharedFlag) has(path []string) bool {
	return s.commands == nil || slices.Contains(s.commands, strings.Join(path, " "))
}

// scope is the command path the variable is named by: the longest one
// common to all the flag's commands.
func (s sharedFlag) scope() []string {
	if len(s.commands) == 0 {
		return nil
	}
	common := strings.Fields(s.commands[0])
	for _, c := range s.commands[1:] {
		words := strings.Fields(c)
		n := 0
		for n < len(common) && n < len(words) && common[n] == words[n] {
			n++
		}
		common = common[:n]
	}
	return common
}

// FlagEnv is the environment variable of the flag named flag of the command
// at path ("seed", "next"): FOCUSCRAWL_SEED_NEXT_LEASE, FOCUSCRAWL_TOPIC.
func FlagEnv(path []string, flag string) string {
	for _, s := range sharedFlags {
		if s.name == flag && s.has(path) {
			return envName(s.scope(), flag)
		}
	}
	return envName(path, flag)
}

// SharedEnv lists the variables of the shared flags, each once: docs/cli.md
// documents them.
func SharedEnv() []string {
	var out []string
	for _, s := range sharedFlags {
		if e := envName(s.scope(), s.name); !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

func envName(path []string, flag string) string {
	words := append(slices.Clone(path), flag)
	return EnvPrefix + strings.ToUpper(strings.NewReplacer("-", "_", " ", "_").Replace(strings.Join(words, "_")))
}

// setEnv gives each flag of the command at path its variable by the rule,
// followed by the names it had before the rule, which still work (with a
// warning, warnRenamedEnv). A hidden flag is an old spelling: it reads
// no variable, so that it cannot catch one meant for another flag.
func setEnv(path []string, flags []ucli.Flag) {
	for _, f := range flags {
		v := reflect.ValueOf(f)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			continue
		}
		field := v.Elem().FieldByName("EnvVars")
		if !field.IsValid() || !field.CanSet() {
			continue
		}
		if vf, ok := f.(ucli.VisibleFlag); ok && !vf.IsVisible() {
			field.Set(reflect.ValueOf([]string(nil)))
			continue
		}
		name := f.Names()[0]
		envs := []string{FlagEnv(path, name)}
		envs = append(envs, renamedFrom(path, name)...)
		field.Set(reflect.ValueOf(envs))
	}
}

// renamedFrom is the variables the flag at path read before the rule.
func renamedFrom(path []string, flag string) []string {
	cmd := strings.Join(path, " ")
	var out []string
	for _, r := range renamedEnv {
		if r.command == cmd && r.flag == flag {
			out = append(out, r.old)
		}
	}
	return out
}

// warnOldEnv wraps the Before of the command at path: it warns about the
// old variables that are set and that the command reads, naming the
// variable to set instead, unless -q.
func warnOldEnv(path []string, before ucli.BeforeFunc) ucli.BeforeFunc {
	cmd := strings.Join(path, " ")
	return func(c *ucli.Context) error {
		if !c.Bool(FlagQuiet) {
			for _, r := range renamedEnv {
				if _, set := os.LookupEnv(r.old); set && r.command == cmd {
					fmt.Fprintf(c.App.ErrWriter, "%s: warning: %s is deprecated: set %s (same meaning)\n", cmd, r.old, FlagEnv(path, r.flag))
				}
			}
		}
		if before != nil {
			return before(c)
		}
		return nil
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

// SharedFlag is an entry of the register of shared flags, for tests.
type SharedFlag struct {
	Name     string
	Commands []string // nil: every command with a flag of this name
}

// SharedFlags is the register of shared flags.
func SharedFlags() []SharedFlag {
	out := make([]SharedFlag, len(sharedFlags))
	for i, s := range sharedFlags {
		out[i] = SharedFlag{s.name, slices.Clone(s.commands)}
	}
	return out
}

// OldEnv is the variables the flag of the command at path read before the
// one rule, which it still reads, with a warning.
func OldEnv(path []string, flag string) []string { return renamedFrom(path, flag) }
