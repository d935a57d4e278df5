package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli/clitest"
)

// TestFlagsAfterArguments: on every command of fetch, a flag written after a
// file name is a flag (issue: `fetch seeds.txt --proxy URL` fetched
// without the proxy, then tried to open "--proxy").
func TestFlagsAfterArguments(t *testing.T) { clitest.FlagsAfterArguments(t, newApp) }

// TestHelpPages: docs/help/ holds this command's --help (go generate
// ./cmd/... rewrites it).
func TestHelpPages(t *testing.T) { clitest.HelpPages(t, newApp, "../../docs/help") }

// TestProxyAfterFileName is the issue's `fetch seeds.txt --proxy URL`: it
// fetched the list without the proxy, then failed on "open --proxy". The
// seed host resolves nowhere; only the proxy can answer for it.
func TestProxyAfterFileName(t *testing.T) {
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Hostname() != "seeds.invalid" {
			http.Error(w, "not through the proxy", http.StatusBadGateway)
			return
		}
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<title>via proxy</title><p>ok</p>")
	}))
	defer proxy.Close()
	seeds := filepath.Join(t.TempDir(), "seeds.txt")
	os.WriteFile(seeds, []byte("http://seeds.invalid/a\n"), 0o644)
	stdout, stderr, code := runFetch(t, "", seeds, "--proxy", proxy.URL, "--delay", "0", "--retries", "0")
	if code != 0 || !strings.Contains(stdout, `"status":200`) || strings.Contains(stderr, "open --proxy") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestVocabulary holds every flag of every subcommand to the rules of the
// command-line vocabulary (docs/cli.md): environment variables by one
// rule, -n and the other letters one flag each, --format for the output
// format, one default shown, upper-case placeholders, "did you mean".
func TestVocabulary(t *testing.T) { clitest.Vocabulary(t, newApp) }
