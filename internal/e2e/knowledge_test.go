package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// runKnowledge runs scripts/knowledge.sh on the forestry profile against
// the simulated web (the profile's address library is simweb's forestry
// authorities).
func runKnowledge(t *testing.T, proxy, dir string, pages string, env ...string) (int, string) {
	t.Helper()
	profile, _ := filepath.Abs("../../examples/topics/forestry.yaml")
	cmd := exec.Command("bash", "../../scripts/knowledge.sh", profile, dir, pages)
	cmd.Env = append(append(os.Environ(), "BIN="+stages(t), "PROGRESS=off",
		"FETCH_FLAGS=-q --proxy "+proxy+fastFetch), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	t.Logf("knowledge.sh %s pages: %v", pages, time.Since(start).Round(time.Millisecond))
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, out.String()
}

// TestKnowledgeScript runs a refresh big enough to fill every section of
// the summary (more than 20 new records), then a failing one: the failure
// goes to knowledge.log, and old runs are removed all the same.
func TestKnowledgeScript(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls 300 pages through the real stages")
	}
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("knowledge.sh needs flock(1)")
	}
	dir := t.TempDir()
	proxy, _ := simwebForestry(t, dir)
	kb := filepath.Join(dir, "kb")
	code, out := runKnowledge(t, proxy, kb, "300")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	runs, _ := filepath.Glob(filepath.Join(kb, "runs", "*", "summary.txt"))
	if len(runs) != 1 {
		t.Fatalf("%d summaries, want 1:\n%s", len(runs), out)
	}
	summary, _ := os.ReadFile(runs[0])
	for _, re := range []string{`(?m)^pages crawled: [1-9][0-9]*$`, `(?m)^docs scored: [1-9][0-9]*$`,
		`(?m)^dedupe: [1-9][0-9]* docs: `, `(?m)^new knowledge records: ([2-9][0-9]|[1-9][0-9]{2,}) `,
		`(?m)^new titles \(first 20\):$`} {
		if !regexp.MustCompile(re).Match(summary) {
			t.Errorf("summary lacks %s:\n%s", re, summary)
		}
	}
	if n := len(regexp.MustCompile(`(?m)^  \S.*  http://`).FindAll(summary, -1)); n != 20 {
		t.Errorf("%d titles in the summary, want 20:\n%s", n, summary)
	}
	log, _ := os.ReadFile(filepath.Join(kb, "knowledge.log"))
	if !strings.Contains(string(log), "done: ") || strings.Contains(string(log), "FAILED") {
		t.Errorf("knowledge.log:\n%s", log)
	}

	// A failing run (dedupe refuses a flag) with KEEP_RUNS=1: the failure is
	// logged, and the earlier run is removed even so.
	code, out = runKnowledge(t, proxy, kb, "20", "DEDUPE_FLAGS=--no-such-flag", "KEEP_RUNS=1")
	if code == 0 {
		t.Fatalf("exit 0 with a bad dedupe flag:\n%s", out)
	}
	log, _ = os.ReadFile(filepath.Join(kb, "knowledge.log"))
	if !strings.Contains(string(log), "FAILED in stage dedupe") {
		t.Errorf("the failure is not in knowledge.log:\n%s", log)
	}
	if left, _ := filepath.Glob(filepath.Join(kb, "runs", "*")); len(left) != 1 {
		t.Errorf("runs left: %v, want only the failed one", left)
	}
}
