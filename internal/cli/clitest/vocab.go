package clitest

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

// The rules of the command-line vocabulary (docs/cli.md, "The rules"),
// which Vocabulary holds every flag of every command to:
//
//  1. Environment: each visible flag reads one variable, cli.FlagEnv's:
//     FOCUSCRAWL_ + the command path its sharing commands have in common +
//     the flag (FOCUSCRAWL_SEED_NEXT_LEASE; FOCUSCRAWL_TOPIC for a shared
//     flag), then only the names it had before the rule (cli.OldEnv). A
//     hidden flag (an old spelling) reads none. Every entry of the
//     register of shared flags names commands that exist and have the flag.
//  2. One letter, one flag: a one-letter name is only the alias of a long
//     flag, and the same long flag everywhere (cli.ShortFlags: -n is
//     --limit, -o --output, …).
//  3. Output format: chosen by --format FORMAT with values among
//     cli.Formats; --json only as the bool short for --format json(l),
//     beside a --format.
//  4. One default: a flag's help line shows at most one "(default…)".
//  5. Placeholders: every flag that takes a value shows an upper-case word
//     for it (`--delay DURATION`, never urfave/cli's "value";
//     cli.Placeholder); a duration's is DURATION; a flag name has one
//     placeholder across the commands of a program.
//  6. A mistyped flag gets "did you mean --flag?" (exit 2).
func Vocabulary(t *testing.T, newApp func() *ucli.App) {
	t.Helper()
	app := newApp()
	commands := allCommands(app)
	placeholders := map[string]string{} // flag name -> placeholder, over the app
	for _, c := range commands {
		path := append([]string{app.Name}, c.Path...)
		cmd := strings.Join(path, " ")
		hasFormat := findFlag(c.Flags, cli.FlagFormat) != nil
		for _, f := range c.Flags {
			name := f.Names()[0]
			if name == "help" || name == "version" {
				continue
			}
			where := fmt.Sprintf("%s --%s", cmd, name)
			envs := envVars(f)
			visible := true
			if v, ok := f.(ucli.VisibleFlag); ok {
				visible = v.IsVisible()
			}
			// 1. Environment.
			if !visible {
				if len(envs) != 0 {
					t.Errorf("%s: hidden (an old spelling) but reads %v", where, envs)
				}
				continue
			}
			want := append([]string{cli.FlagEnv(path, name)}, cli.OldEnv(path, name)...)
			if !slices.Equal(envs, want) {
				t.Errorf("%s: reads %v; the rule gives %v", where, envs, want)
			}
			// 2. One letter, one flag.
			if len(name) == 1 {
				t.Errorf("%s: a one-letter flag needs a long name (-%s as its alias)", where, name)
			}
			for _, a := range f.Names()[1:] {
				if len(a) != 1 {
					t.Errorf("%s: alias --%s: a long flag has one name", where, a)
				} else if long, ok := cli.ShortFlags[a]; !ok || long != name {
					t.Errorf("%s: -%s is --%s everywhere (cli.ShortFlags), not --%s", where, a, long, name)
				}
			}
			// 3. Output format.
			switch name {
			case cli.FlagFormat:
				sf, ok := f.(*ucli.StringFlag)
				if !ok || !slices.Contains(cli.Formats, sf.Value) || !strings.HasPrefix(sf.Usage, "write the result as `FORMAT`") {
					t.Errorf("%s: build it with cli.Format (values among %v)", where, cli.Formats)
				}
			case cli.FlagJSON:
				bf, ok := f.(*ucli.BoolFlag)
				if !ok || !hasFormat || !strings.HasPrefix(bf.Usage, "short for --format json") {
					t.Errorf("%s: --json is only the short form of --format json(l), beside a --format (cli.Format)", where)
				}
			}
			// 4. One default.
			line := f.String()
			if n := strings.Count(line, "(default"); n > 1 {
				t.Errorf("%s: %d defaults shown: %q", where, n, line)
			}
			// 5. Placeholders.
			if ph := cli.Placeholder(f); ph != "" {
				head, _, _ := strings.Cut(line, "\t")
				switch {
				case !strings.Contains(head, " "+ph):
					t.Errorf("%s: help shows %q, not its placeholder %q", where, head, ph)
				case !upperPlaceholder.MatchString(ph):
					t.Errorf("%s: placeholder %q is not upper case", where, ph)
				}
				if _, ok := f.(*ucli.DurationFlag); ok && ph != "DURATION" {
					t.Errorf("%s: a duration's placeholder is DURATION, not %q", where, ph)
				}
				if prev, ok := placeholders[name]; ok && prev != ph {
					t.Errorf("%s: placeholder %q, elsewhere in %s %q", where, ph, app.Name, prev)
				}
				placeholders[name] = ph
			}
			// 6. Did you mean.
			if len(name) >= 4 {
				typo := "--" + name + name[len(name)-1:]
				var stderr bytes.Buffer
				a := newApp()
				a.Writer = &bytes.Buffer{}
				code := cli.Run(a, append(slices.Clone(path), typo), &stderr)
				if code != cli.ExitUsage || !strings.Contains(stderr.String(), "did you mean --"+name+"?") {
					t.Errorf("%s: %s gave exit %d, %q; want exit 2 and did you mean --%s?", where, typo, code, stderr.String(), name)
				}
			}
		}
	}
	checkRegister(t, app.Name, commands)
}

// upperPlaceholder: upper case, with punctuation (N,N,…, HOST:PORT:ADDR),
// and values spelled out in brackets (HOST[=refused|timeout|dns]).
var upperPlaceholder = regexp.MustCompile(`^[A-Z][A-Z0-9_,.…:=|/-]*(\[[^\]]*\])?$`)

func envVars(f ucli.Flag) []string {
	if e, ok := f.(interface{ GetEnvVars() []string }); ok {
		return e.GetEnvVars()
	}
	return nil
}

// allCommands lists every command of app with its flags, those that only
// hold subcommands included (dedupe's flags are dedupe's own).
func allCommands(app *ucli.App) []Command {
	out := []Command{{Flags: app.Flags}}
	var walk func(path []string, cs []*ucli.Command)
	walk = func(path []string, cs []*ucli.Command) {
		for _, c := range cs {
			if c.Name == "help" {
				continue
			}
			p := append(slices.Clone(path), c.Name)
			out = append(out, Command{Path: p, Flags: c.Flags})
			walk(p, c.Subcommands)
		}
	}
	walk(nil, app.Commands)
	return out
}

// checkRegister: each command of this app that the register of shared
// flags names exists and has the flag.
func checkRegister(t *testing.T, app string, commands []Command) {
	t.Helper()
	byPath := map[string][]ucli.Flag{}
	for _, c := range commands {
		byPath[strings.Join(append([]string{app}, c.Path...), " ")] = c.Flags
	}
	for _, s := range cli.SharedFlags() {
		for _, cmd := range s.Commands {
			if strings.Fields(cmd)[0] != app {
				continue
			}
			flags, ok := byPath[cmd]
			if !ok {
				t.Errorf("shared flag --%s: no command %q", s.Name, cmd)
			} else if findFlag(flags, s.Name) == nil {
				t.Errorf("shared flag --%s: %s has no such flag", s.Name, cmd)
			}
		}
	}
}

func findFlag(flags []ucli.Flag, name string) ucli.Flag {
	for _, f := range flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}
