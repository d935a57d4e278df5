package main

import (
	"compress/gzip"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/sqlitedb"

	"github.com/focuscrawl/focuscrawl/internal/cli/clitest"
)

// TestFlagsAfterArguments: on every command of dedupe, a flag written after a
// file name is a flag (issue: `fetch seeds.txt --proxy URL` fetched
// without the proxy, then tried to open "--proxy").
func TestFlagsAfterArguments(t *testing.T) { clitest.FlagsAfterArguments(t, newApp) }

// TestRequiredFlags: a missing required flag is one line on stderr and
// exit 2, not the help on stdout.
func TestRequiredFlags(t *testing.T) { clitest.RequiredFlags(t, newApp) }

// TestStoreRefusesAFrontier: `dedupe search --store crawl.db` used to add
// the knowledge base's tables to a frontier.
func TestStoreRefusesAFrontier(t *testing.T) {
	crawl := filepath.Join(t.TempDir(), "crawl.db")
	s, err := frontier.OpenSQLite(crawl)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	code, _, stderr := runCmd(t, "search", "--store", crawl, "forest")
	if code != cli.ExitFatal || !strings.Contains(stderr, "it is a focuscrawl frontier") || !strings.Contains(stderr, "not a knowledge base") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	db, err := sqlitedb.Open(crawl)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name LIKE 'kb%' OR name = 'knowledge'`).Scan(&n)
	if n != 0 {
		t.Fatalf("%d knowledge-base tables added to the frontier", n)
	}
}

// TestErrorsLeftOutByDefault: knowledge.jsonl used to start with the error
// records of failed fetches; they are left out unless --errors FILE.
func TestErrorsLeftOutByDefault(t *testing.T) {
	dir := t.TempDir()
	in := writeInput(t, dir, "docs.jsonl",
		`{"url":"http://a.test/4","error":"fetch: timeout"}`,
		line(t, scored("http://a.test/1", articleA, 0.8, true)),
	)
	code, stdout, stderr := runCmd(t, in)
	if code != 0 || strings.Contains(stdout, `"error"`) || strings.Count(stdout, "\n") != 1 ||
		!strings.Contains(stderr, "1 errors left out (--errors FILE keeps them)") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestExport: dedupe export writes the knowledge base as knowledge records
// or CSV, and refuses a missing file instead of creating one.
func TestExport(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "kb.sqlite")
	in := writeInput(t, dir, "docs.jsonl",
		line(t, scored("http://a.test/1", articleA, 0.8, true)),
		line(t, scored("http://a.test/2", articleB, 0.7, true)),
	)
	if code, _, stderr := runCmd(t, "--store", store, "-o", filepath.Join(dir, "k.jsonl"), in); code != 0 {
		t.Fatalf("dedupe: exit %d, %s", code, stderr)
	}
	code, stdout, stderr := runCmd(t, "export", "--store", store)
	if code != 0 || !strings.Contains(stderr, "2 records exported (jsonl)") {
		t.Fatalf("export: exit %d, %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], `{"url":"http://a.test/1","title":"标题 http://a.test/1"`) || !strings.Contains(lines[0], `"meta":{"job":7}`) {
		t.Fatalf("jsonl export:\n%s", stdout)
	}
	csvPath := filepath.Join(dir, "kb.csv.gz")
	if code, _, stderr := runCmd(t, "export", "--store", store, "-o", csvPath); code != 0 {
		t.Fatalf("csv export: exit %d, %s", code, stderr)
	}
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(zr).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0][0] != "url" || rows[1][0] != "http://a.test/1" || rows[1][len(rows[1])-1] != articleA {
		t.Fatalf("csv rows: %q", rows)
	}
	missing := filepath.Join(dir, "none.sqlite")
	if code, _, stderr := runCmd(t, "export", "--store", missing); code != cli.ExitUsage || !strings.Contains(stderr, "no such knowledge base") {
		t.Fatalf("missing store: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Fatal("export created the missing knowledge base")
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
