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

// TestRequiredFlags: a missing required flag is one line on stderr and
// exit 2, not the help on stdout.
func TestRequiredFlags(t *testing.T) { clitest.RequiredFlags(t, newApp) }
