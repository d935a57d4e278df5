package clitest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

// updateHelp rewrites the help pages instead of comparing them:
// go generate ./cmd/... (go test -run TestHelpPages -update-help).
var updateHelp = flag.Bool("update-help", false, "rewrite docs/help/ from the commands' --help")

// HelpPages checks that dir (docs/help) holds the --help of the app newApp
// builds and of each of its commands, one file each (seed-add.txt), and
// nothing else of this app, so that the pages cannot drift from the code.
// With -update-help it writes them.
func HelpPages(t *testing.T, newApp func() *ucli.App, dir string) {
	t.Helper()
	app := newApp()
	pages := map[string]string{} // file name -> help text
	var walk func(path []string, cs []*ucli.Command)
	walk = func(path []string, cs []*ucli.Command) {
		pages[strings.Join(append([]string{app.Name}, path...), "-")+".txt"] = help(t, newApp, path)
		for _, c := range cs {
			if !c.Hidden && c.Name != "help" {
				walk(append(slices.Clone(path), c.Name), c.Subcommands)
			}
		}
	}
	walk(nil, app.Commands)
	if *updateHelp {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	old, _ := filepath.Glob(filepath.Join(dir, app.Name+"*.txt"))
	for _, p := range old {
		base := filepath.Base(p)
		if base != app.Name+".txt" && !strings.HasPrefix(base, app.Name+"-") {
			continue // another command whose name starts like this one's
		}
		if _, ok := pages[base]; !ok {
			if *updateHelp {
				os.Remove(p)
				continue
			}
			t.Errorf("%s: no such command any more; run go generate ./cmd/...", p)
		}
	}
	for name, text := range pages {
		p := filepath.Join(dir, name)
		if *updateHelp {
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil || string(b) != text {
			t.Errorf("%s is not the --help of the command (%v); run go generate ./cmd/...", p, err)
		}
	}
}

// help is the --help of the command at path, with the environment of the
// flags cleared so that the page shows the defaults.
func help(t *testing.T, newApp func() *ucli.App, path []string) string {
	t.Helper()
	app := newApp()
	for _, c := range Commands(app) {
		for _, f := range c.Flags {
			if e, ok := f.(interface{ GetEnvVars() []string }); ok {
				for _, env := range e.GetEnvVars() {
					if _, set := os.LookupEnv(env); set {
						t.Setenv(env, "")
						os.Unsetenv(env)
					}
				}
			}
		}
	}
	var out bytes.Buffer
	app.Writer = &out
	args := append(append([]string{app.Name}, path...), "--help")
	if code := cli.Run(app, args, &bytes.Buffer{}); code != cli.ExitOK {
		t.Fatalf("%q: exit %d", args, code)
	}
	return out.String()
}
