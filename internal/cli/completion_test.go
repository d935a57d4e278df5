package cli

import (
	"bytes"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"
)

// TestBashCompletion: every command answers the completion protocol of
// scripts/completion.bash: subcommands, and flags after a dash.
func TestBashCompletion(t *testing.T) {
	app := New(App{Name: "seed", Commands: []*ucli.Command{
		{Name: "add", Flags: []ucli.Flag{&ucli.StringFlag{Name: "db"}}, Action: func(*ucli.Context) error { return nil }},
		{Name: "next", Action: func(*ucli.Context) error { return nil }},
	}})
	run := func(args ...string) int { return Run(app, args, &bytes.Buffer{}) }
	var out bytes.Buffer
	app.Writer = &out
	if code := run("seed", "--generate-bash-completion"); code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	if got := strings.Fields(out.String()); strings.Join(got, " ") != "add next" {
		t.Fatalf("subcommands %q", out.String())
	}
	out.Reset()
	run("seed", "add", "--d", "--generate-bash-completion")
	if out.String() != "--db\n" {
		t.Fatalf("flags of seed add after --d: %q", out.String())
	}
	out.Reset()
	run("seed", "add", "-", "--generate-bash-completion")
	if got := out.String(); !strings.Contains(got, "--db\n") || !strings.Contains(got, "--help\n") || strings.Contains(got, "next") {
		t.Fatalf("flags of seed add: %q", got)
	}
}
