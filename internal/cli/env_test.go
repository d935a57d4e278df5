package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"
)

// queueApp is a "fetch" with one flag, --queue, whose variable was
// FOCUSCRAWL_QUEUE before the one rule made it FOCUSCRAWL_FETCH_QUEUE.
func queueApp(got *int) *ucli.App {
	return New(App{Name: "fetch", Flags: []ucli.Flag{&ucli.IntFlag{Name: "queue", Value: 1}},
		Action: func(c *ucli.Context) error { *got = c.Int("queue"); return nil }})
}

func TestFlagEnvRule(t *testing.T) {
	tests := []struct {
		path []string
		flag string
		want string
	}{
		{[]string{"seed", "next"}, "lease", "FOCUSCRAWL_SEED_NEXT_LEASE"},
		{[]string{"fetch"}, "queue", "FOCUSCRAWL_FETCH_QUEUE"},
		{[]string{"fetch"}, "output", "FOCUSCRAWL_FETCH_OUTPUT"},
		{[]string{"verify"}, "delay", "FOCUSCRAWL_DELAY"},                       // fetch's and verify's
		{[]string{"seed", "sitemap"}, "delay", "FOCUSCRAWL_SEED_SITEMAP_DELAY"}, // its own
		{[]string{"dedupe", "search"}, "store", "FOCUSCRAWL_DEDUPE_STORE"},      // dedupe's commands'
		{[]string{"simweb", "eval"}, "seed", "FOCUSCRAWL_SIMWEB_SEED"},
		{[]string{"simweb", "eval"}, "at", "FOCUSCRAWL_SIMWEB_EVAL_AT"},
		{[]string{"score", "train"}, "quiet", "FOCUSCRAWL_QUIET"},
	}
	for _, tt := range tests {
		if got := FlagEnv(tt.path, tt.flag); got != tt.want {
			t.Errorf("FlagEnv(%q, %s) = %s, want %s", tt.path, tt.flag, got, tt.want)
		}
	}
}

func TestOldEnvStillWorksWithWarning(t *testing.T) {
	t.Run("old name", func(t *testing.T) {
		t.Setenv("FOCUSCRAWL_QUEUE", "7")
		var got int
		var stderr bytes.Buffer
		if code := Run(queueApp(&got), []string{"fetch"}, &stderr); code != ExitOK || got != 7 {
			t.Fatalf("exit %d, --queue %d; want 0 and 7 from FOCUSCRAWL_QUEUE", code, got)
		}
		if !strings.Contains(stderr.String(), "fetch: warning: FOCUSCRAWL_QUEUE is deprecated: set FOCUSCRAWL_FETCH_QUEUE") {
			t.Fatalf("stderr %q", stderr.String())
		}
	})
	t.Run("new name wins", func(t *testing.T) {
		t.Setenv("FOCUSCRAWL_QUEUE", "7")
		t.Setenv("FOCUSCRAWL_FETCH_QUEUE", "9")
		var got int
		if code := Run(queueApp(&got), []string{"fetch"}, &bytes.Buffer{}); code != ExitOK || got != 9 {
			t.Fatalf("exit %d, --queue %d; want 9", code, got)
		}
	})
	t.Run("help shows the new name only", func(t *testing.T) {
		var got int
		app := queueApp(&got)
		var out bytes.Buffer
		app.Writer = &out
		Run(app, []string{"fetch", "--help"}, &bytes.Buffer{})
		if !strings.Contains(out.String(), "--queue N") || !strings.Contains(out.String(), "[$FOCUSCRAWL_FETCH_QUEUE]") {
			t.Fatalf("help %q", out.String())
		}
	})
}

func TestFormat(t *testing.T) {
	f := Format{Values: []string{FormatText, FormatJSON}, Default: FormatText, Usage: "…", Deprecated: map[string]string{"table": FormatText}}
	run := func(args ...string) (string, int, string) {
		var got string
		app := New(App{Name: "stats", Flags: f.Flags(), Action: func(c *ucli.Context) error {
			v, err := f.Value(c)
			got = v
			return err
		}})
		var stderr bytes.Buffer
		code := Run(app, append([]string{"stats"}, args...), &stderr)
		return got, code, stderr.String()
	}
	for _, tt := range []struct {
		args []string
		want string
		code int
	}{
		{nil, FormatText, ExitOK},
		{[]string{"--json"}, FormatJSON, ExitOK},
		{[]string{"--format", "json"}, FormatJSON, ExitOK},
		{[]string{"--format", "table"}, FormatText, ExitOK},
		{[]string{"--format", "xml"}, "", ExitUsage},
		{[]string{"--json", "--format", "text"}, "", ExitUsage},
	} {
		if got, code, stderr := run(tt.args...); got != tt.want || code != tt.code {
			t.Errorf("%q: %q, exit %d (%s); want %q, exit %d", tt.args, got, code, stderr, tt.want, tt.code)
		}
	}
}

// TestDocsListSharedVariables: docs/cli.md names the variable of every
// shared flag (in full, or as its _SUFFIX in the list of the fetcher's),
// so that the register and the page cannot drift apart.
func TestDocsListSharedVariables(t *testing.T) {
	b, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, env := range SharedEnv() {
		suffix := "`" + strings.TrimPrefix(env, EnvPrefix[:len(EnvPrefix)-1]) + "`"
		if !strings.Contains(doc, "`"+env+"`") && !strings.Contains(doc, suffix) {
			t.Errorf("docs/cli.md does not name %s, the variable of a shared flag", env)
		}
	}
}
