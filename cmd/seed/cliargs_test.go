package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/sqlitedb"

	"github.com/focuscrawl/focuscrawl/internal/cli/clitest"
)

// TestFlagsAfterArguments: on every command of seed, a flag written after a
// file name is a flag (issue: `fetch seeds.txt --proxy URL` fetched
// without the proxy, then tried to open "--proxy").
func TestFlagsAfterArguments(t *testing.T) { clitest.FlagsAfterArguments(t, newApp) }

// TestRequiredFlags: a missing required flag is one line on stderr and
// exit 2, not the help on stdout.
func TestRequiredFlags(t *testing.T) { clitest.RequiredFlags(t, newApp) }

func runSeedApp(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	app := newApp()
	app.Writer = &out
	code := cli.Run(app, append([]string{"seed"}, args...), &errb)
	return code, out.String(), errb.String()
}

// TestDBRefusesAKnowledgeBase: `seed stats --db kb.sqlite` used to add
// the frontier's tables to a knowledge base.
func TestDBRefusesAKnowledgeBase(t *testing.T) {
	kbPath := filepath.Join(t.TempDir(), "kb.sqlite")
	db, err := sqlitedb.OpenAs(kbPath, sqlitedb.KnowledgeBase)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, cmd := range []string{"stats", "next", "add"} {
		code, _, stderr := runSeedApp(t, cmd, "--db", kbPath)
		if code != cli.ExitFatal || !strings.Contains(stderr, "it is a focuscrawl knowledge base") || !strings.Contains(stderr, "not a frontier") {
			t.Errorf("seed %s: exit %d, stderr %q", cmd, code, stderr)
		}
	}
}

// TestReadersHelpSaysTheDBMustExist: seed next and stats refuse a missing
// frontier, so their help must not say "created if missing".
func TestReadersHelpSaysTheDBMustExist(t *testing.T) {
	for _, cmd := range []string{"stats", "next"} {
		_, help, _ := runSeedApp(t, cmd, "--help")
		if strings.Contains(help, "created if missing") || !strings.Contains(help, "must exist") {
			t.Errorf("seed %s --help:\n%s", cmd, help)
		}
		code, _, stderr := runSeedApp(t, cmd, "--db", filepath.Join(t.TempDir(), "none.db"))
		if code != cli.ExitUsage || !strings.Contains(stderr, "no such frontier") {
			t.Errorf("seed %s on a missing file: exit %d, stderr %q", cmd, code, stderr)
		}
	}
	_, help, _ := runSeedApp(t, "add", "--help")
	if !strings.Contains(help, "created if missing") {
		t.Errorf("seed add --help:\n%s", help)
	}
}

// TestHelpPages: docs/help/ holds this command's --help (go generate
// ./cmd/... rewrites it).
func TestHelpPages(t *testing.T) { clitest.HelpPages(t, newApp, "../../docs/help") }

// TestVocabulary holds every flag of every subcommand to the rules of the
// command-line vocabulary (docs/cli.md): environment variables by one
// rule, -n and the other letters one flag each, --format for the output
// format, one default shown, upper-case placeholders, "did you mean".
func TestVocabulary(t *testing.T) { clitest.Vocabulary(t, newApp) }
