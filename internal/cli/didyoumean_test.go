package cli

import (
	"bytes"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"
)

// TestUsageLines: an error line names the command and subcommand that
// failed, and a mistyped flag gets the nearest one named.
func TestUsageLines(t *testing.T) {
	app := func() *ucli.App {
		return New(App{Name: "seed", Commands: []*ucli.Command{{
			Name: "next",
			Flags: []ucli.Flag{
				&ucli.StringFlag{Name: "db", Required: true},
				&ucli.StringFlag{Name: "proxy"},
			},
			Action: func(*ucli.Context) error { return nil },
		}}})
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"seed", "next"}, "seed next: missing required flag --db\n"},
		{[]string{"seed", "next", "--db", "x", "--proxxy", "y"}, "seed next: flag provided but not defined: -proxxy; did you mean --proxy?\n"},
		{[]string{"seed", "next", "--db", "x", "--zzzzzzzz"}, "seed next: flag provided but not defined: -zzzzzzzz\n"},
	} {
		var stderr bytes.Buffer
		if code := Run(app(), c.args, &stderr); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", c.args, code, ExitUsage)
		}
		if first, _, _ := strings.Cut(stderr.String(), "Run '"); first != c.want {
			t.Errorf("%v: stderr %q, want %q first", c.args, stderr.String(), c.want)
		}
	}
}
