// Package clitest checks, for the tests of each command, what every
// focuscrawl command must do on its command line: flags after file names
// are flags (cli.ReorderArgs), and a wrong flag is a usage error before
// any input is read.
package clitest

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

// Command is one runnable command of an app: its words after the program
// name ("add" for seed add, nothing for fetch) and its flags.
type Command struct {
	Path  []string
	Flags []ucli.Flag
}

// Commands lists the commands of app that run an action, the app itself
// included when it has one.
func Commands(app *ucli.App) []Command {
	var out []Command
	if app.Action != nil {
		out = append(out, Command{Flags: app.Flags})
	}
	var walk func(path []string, cs []*ucli.Command)
	walk = func(path []string, cs []*ucli.Command) {
		for _, c := range cs {
			if c.Name == "help" {
				continue // urfave/cli's own
			}
			p := append(slices.Clone(path), c.Name)
			if c.Action != nil {
				out = append(out, Command{Path: p, Flags: c.Flags})
			}
			walk(p, c.Subcommands)
		}
	}
	walk(nil, app.Commands)
	return out
}

// FlagsAfterArguments checks every command of the app newApp builds:
//   - each of its flags written after an argument is moved in front of it,
//     with its value when it takes one;
//   - an unknown flag after a file name that does not exist is a usage
//     error (exit 2) that names the flag, not an attempt to open the file
//     or the flag.
func FlagsAfterArguments(t *testing.T, newApp func() *ucli.App) {
	t.Helper()
	app := newApp()
	name := app.Name
	for _, c := range Commands(app) {
		t.Run(strings.Join(append([]string{name}, c.Path...), " "), func(t *testing.T) {
			for _, f := range c.Flags {
				flag := "--" + f.Names()[0]
				if len(f.Names()[0]) == 1 {
					flag = "-" + f.Names()[0]
				}
				tail := []string{flag}
				if v, ok := f.(interface{ TakesValue() bool }); ok && v.TakesValue() {
					tail = append(tail, "VALUE")
				}
				args := append(append(append([]string{name}, c.Path...), "ARG"), tail...)
				want := append(append(append([]string{name}, c.Path...), tail...), "ARG")
				if got := cli.ReorderArgs(newApp(), args); !slices.Equal(got, want) {
					t.Errorf("ReorderArgs(%q) = %q, want %q", args, got, want)
				}
			}
			// Completion (scripts/completion.bash) lists the command's flags.
			var words bytes.Buffer
			a := newApp()
			a.Writer = &words
			cli.Run(a, append(append([]string{name}, c.Path...), "-", "--generate-bash-completion"), &bytes.Buffer{})
			for _, f := range c.Flags {
				if v, ok := f.(ucli.VisibleFlag); ok && !v.IsVisible() {
					continue
				}
				if n := f.Names()[0]; len(n) > 1 && !strings.Contains(words.String(), "--"+n+"\n") {
					t.Errorf("completion of %q lacks --%s: %q", c.Path, n, words.String())
				}
			}
			var stderr bytes.Buffer
			args := append(append([]string{name}, c.Path...), "no-such-input.txt", "--no-such-flag")
			code := cli.Run(newApp(), args, &stderr)
			if code != cli.ExitUsage || !strings.Contains(stderr.String(), "no-such-flag") || strings.Contains(stderr.String(), "no-such-input") {
				t.Errorf("%q: exit %d, stderr %q; want exit %d naming the flag, not the file", args, code, stderr.String(), cli.ExitUsage)
			}
		})
	}
}

// RequiredFlags checks that every command of the app newApp builds that
// has a required flag answers its absence with one usage line on stderr,
// exit 2, and nothing on stdout (in a pipe, stdout is the next stage's
// input). It fails when no command has a required flag, so that a test
// calling it cannot pass by having nothing to check.
func RequiredFlags(t *testing.T, newApp func() *ucli.App) {
	t.Helper()
	app := newApp()
	checked := 0
	for _, c := range Commands(app) {
		var required []string
		for _, f := range c.Flags {
			if u, ok := f.(interface{ GetUsage() string }); ok && strings.HasSuffix(u.GetUsage(), "(required)") {
				required = append(required, f.Names()[0])
			}
		}
		if len(required) == 0 {
			continue
		}
		checked++
		t.Run(strings.Join(append([]string{app.Name}, c.Path...), " "), func(t *testing.T) {
			for _, name := range required {
				for _, env := range f(c.Flags, name).(interface{ GetEnvVars() []string }).GetEnvVars() {
					t.Setenv(env, "") // restored after the test
					os.Unsetenv(env)
				}
			}
			var stdout, stderr bytes.Buffer
			a := newApp()
			a.Writer = &stdout
			code := cli.Run(a, append([]string{app.Name}, c.Path...), &stderr)
			first := strings.SplitN(stderr.String(), "\n", 2)[0]
			if code != cli.ExitUsage || stdout.Len() != 0 || !strings.Contains(first, "missing required flag") || !strings.Contains(first, required[0]) {
				t.Errorf("exit %d, stdout %d bytes, stderr %q; want exit 2, one line naming --%s", code, stdout.Len(), stderr.String(), required[0])
			}
		})
	}
	if checked == 0 {
		t.Fatalf("no command of %s has a required flag", app.Name)
	}
}

func f(flags []ucli.Flag, name string) ucli.Flag {
	for _, fl := range flags {
		if fl.Names()[0] == name {
			return fl
		}
	}
	return nil
}
