package cli

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	ucli "github.com/urfave/cli/v2"
)

func reorderApp() *ucli.App {
	return New(App{
		Name: "tool",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "proxy"},
			&ucli.BoolFlag{Name: "quiet", Aliases: []string{"q"}},
			&ucli.IntFlag{Name: "concurrency", Aliases: []string{"c"}},
			&ucli.BoolFlag{Name: "verbose", Aliases: []string{"V"}},
		},
		Commands: []*ucli.Command{{
			Name:  "sub",
			Flags: []ucli.Flag{&ucli.StringFlag{Name: "db"}, &ucli.BoolFlag{Name: "headers"}},
			Subcommands: []*ucli.Command{{
				Name:  "leaf",
				Flags: []ucli.Flag{&ucli.Float64Flag{Name: "prior"}},
			}},
		}},
	})
}

func TestReorderArgs(t *testing.T) {
	tests := []struct {
		name string
		args string
		want string
	}{
		{"flags first already", "--proxy p a b", "--proxy p a b"},
		{"value flag after files", "a b --proxy p", "--proxy p a b"},
		{"flag between files", "a --proxy p b", "--proxy p a b"},
		{"flag=value", "a --proxy=p", "--proxy=p a"},
		{"boolean does not take the next word", "a -q b", "-q a b"},
		{"short value flag", "a -c 4", "-c 4 a"},
		{"combined shorts ending in a value flag", "a -qc 4", "-qc 4 a"},
		{"stdin dash is an argument", "- --proxy p", "--proxy p -"},
		{"negative number is an argument", "a -5", "a -5"},
		{"double dash ends flags", "a -- -b --proxy", "-- a -b --proxy"},
		{"flags before and after double dash", "a --proxy p -- -b", "--proxy p -- a -b"},
		{"subcommand flags after its arguments", "sub x --db f.db", "sub --db f.db x"},
		{"root flags stay at the root", "-q sub x --headers", "-q sub --headers x"},
		{"subsubcommand", "sub leaf y --prior 0.5", "sub leaf --prior 0.5 y"},
		{"negative flag value", "sub leaf y --prior -0.5", "sub leaf --prior -0.5 y"},
		{"command name after an argument is an argument", "a sub", "a sub"},
		{"help after arguments", "sub x --help", "sub --help x"},
		{"unknown flag moves too, for urfave to report", "a --nope", "--nope a"},
	}
	app := reorderApp()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"tool"}, strings.Fields(tt.args)...)
			got := ReorderArgs(app, args)
			want := append([]string{"tool"}, strings.Fields(tt.want)...)
			if !slices.Equal(got, want) {
				t.Fatalf("ReorderArgs(%q) = %q, want %q", tt.args, got, want)
			}
		})
	}
}

// TestFlagAfterFileNameIsAFlag runs an app: the flag after the argument
// takes effect, and the argument is not the flag's name.
func TestFlagAfterFileNameIsAFlag(t *testing.T) {
	var gotProxy string
	var gotArgs []string
	app := New(App{Name: "tool",
		Flags: []ucli.Flag{&ucli.StringFlag{Name: "proxy"}},
		Action: func(c *ucli.Context) error {
			gotProxy, gotArgs = c.String("proxy"), c.Args().Slice()
			return nil
		}})
	if code := Run(app, []string{"tool", "seeds.txt", "--proxy", "http://127.0.0.1:1"}, &bytes.Buffer{}); code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	if gotProxy != "http://127.0.0.1:1" || !slices.Equal(gotArgs, []string{"seeds.txt"}) {
		t.Fatalf("proxy %q, args %q", gotProxy, gotArgs)
	}
}

func TestMissingRequiredFlagIsOneUsageLine(t *testing.T) {
	app := New(App{Name: "tool", Commands: []*ucli.Command{{
		Name:   "add",
		Flags:  []ucli.Flag{&ucli.StringFlag{Name: "db", Usage: "frontier `FILE`", Required: true}},
		Action: func(*ucli.Context) error { return nil },
	}}})
	var stdout, stderr bytes.Buffer
	app.Writer = &stdout
	code := Run(app, []string{"tool", "add"}, &stderr)
	if code != ExitUsage {
		t.Fatalf("exit %d, want %d", code, ExitUsage)
	}
	if stdout.Len() != 0 {
		t.Fatalf("stdout %q: help must not go to stdout", stdout.String())
	}
	if stderr.String() != "tool add: missing required flag --db\nRun 'tool add --help' for usage.\n" {
		t.Fatalf("stderr %q", stderr.String())
	}
	// Set, or from the environment, it runs.
	if code := Run(app, []string{"tool", "add", "--db", "x"}, &stderr); code != ExitOK {
		t.Fatalf("with --db: exit %d", code)
	}
	stdout.Reset()
	Run(app, []string{"tool", "add", "--help"}, &bytes.Buffer{})
	if !strings.Contains(stdout.String(), "(required)") {
		t.Fatalf("help does not mark --db required:\n%s", stdout.String())
	}
}

// TestBareNumberDurations: `--delay 5` is five seconds, from the command
// line and from the environment.
func TestBareNumberDurations(t *testing.T) {
	var got []time.Duration
	app := New(App{Name: "tool",
		Flags: []ucli.Flag{
			&ucli.DurationFlag{Name: "delay"},
			&ucli.DurationFlag{Name: "timeout"},
			&ucli.DurationFlag{Name: "wait"}, // FOCUSCRAWL_TOOL_WAIT
			&ucli.StringFlag{Name: "name"},
		},
		Action: func(c *ucli.Context) error {
			got = []time.Duration{c.Duration("delay"), c.Duration("timeout"), c.Duration("wait")}
			if c.String("name") != "5" {
				t.Errorf("a string flag's value was changed to %q", c.String("name"))
			}
			return nil
		}})
	t.Setenv("FOCUSCRAWL_TOOL_WAIT", "2.5")
	var stderr bytes.Buffer
	if code := Run(app, []string{"tool", "--delay", "5", "--timeout=0.5", "--name", "5"}, &stderr); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := []time.Duration{5 * time.Second, 500 * time.Millisecond, 2500 * time.Millisecond}
	if !slices.Equal(got, want) {
		t.Fatalf("durations %v, want %v", got, want)
	}
	if code := Run(app, []string{"tool", "--delay", "5x"}, &stderr); code != ExitUsage {
		t.Fatalf("--delay 5x: exit %d", code)
	}
}
