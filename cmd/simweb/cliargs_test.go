package main

import (
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/simweb"

	"github.com/focuscrawl/focuscrawl/internal/cli/clitest"
)

// TestFlagsAfterArguments: on every command of simweb, a flag written after a
// file name is a flag (issue: `fetch seeds.txt --proxy URL` fetched
// without the proxy, then tried to open "--proxy").
func TestFlagsAfterArguments(t *testing.T) { clitest.FlagsAfterArguments(t, newApp) }

// TestGetHeadersAfterURL is docs/simweb.md's own `simweb get URL --headers`.
func TestGetHeadersAfterURL(t *testing.T) {
	home := simweb.New(simweb.Config{Seed: 1, Sites: 20}).Sites()[0].Home
	code, stdout, stderr := run(t, "get", "--sites", "20", home, "--headers")
	if code != cli.ExitOK || !strings.HasPrefix(stderr, "HTTP/1.1 200\n") || !strings.Contains(stdout, "<html") {
		t.Fatalf("exit %d, stderr %q, stdout %d bytes", code, stderr, len(stdout))
	}
}

// TestSimTopic: simweb's topic name is --sim-topic (--topic is a profile
// file in every other command); a missing one is one usage line on stderr,
// and the old --topic NAME works with a warning.
func TestSimTopic(t *testing.T) {
	for _, cmd := range []string{"seeds", "eval"} {
		code, stdout, stderr := run(t, cmd, "--sites", "20")
		if code != cli.ExitUsage || stdout != "" || !strings.HasPrefix(stderr, "simweb "+cmd+": missing required flag --sim-topic\n") {
			t.Errorf("%s without a topic: exit %d, stdout %q, stderr %q", cmd, code, stdout, stderr)
		}
	}
	code, stdout, stderr := run(t, "seeds", "--sites", "20", "--topic", "forestry")
	_, want, _ := run(t, "seeds", "--sites", "20", "--sim-topic", "forestry")
	if code != cli.ExitOK || stdout != want || !strings.Contains(stderr, "--topic forestry is deprecated: write --sim-topic forestry") {
		t.Errorf("old --topic: exit %d, stdout %q (want %q), stderr %q", code, stdout, want, stderr)
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
