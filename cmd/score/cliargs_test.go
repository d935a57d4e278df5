package main

import (
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli/clitest"
)

// TestFlagsAfterArguments: on every command of score, a flag written after a
// file name is a flag (issue: `fetch seeds.txt --proxy URL` fetched
// without the proxy, then tried to open "--proxy").
func TestFlagsAfterArguments(t *testing.T) { clitest.FlagsAfterArguments(t, newApp) }

// TestHelpPages: docs/help/ holds this command's --help (go generate
// ./cmd/... rewrites it).
func TestHelpPages(t *testing.T) { clitest.HelpPages(t, newApp, "../../docs/help") }

// TestVocabulary holds every flag of every subcommand to the rules of the
// command-line vocabulary (docs/cli.md): environment variables by one
// rule, -n and the other letters one flag each, --format for the output
// format, one default shown, upper-case placeholders, "did you mean".
func TestVocabulary(t *testing.T) { clitest.Vocabulary(t, newApp) }
