package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

// TestTrainCommand: score train writes a model that --explain reads back
// and score --model uses; a label in no --docs file is reported and the
// exit status is 3 with the model written; bad usage is exit 2.
func TestTrainCommand(t *testing.T) {
	dir := t.TempDir()
	var docs, labels bytes.Buffer
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&docs, "{\"url\":\"http://a.test/forest/%d.html\",\"title\":\"Forest thinning %d\",\"content\":\"Thinning the forest stands; silviculture plans.\"}\n", i, i)
		fmt.Fprintf(&docs, "{\"url\":\"http://a.test/market/%d.html\",\"title\":\"Timber market %d\",\"content\":\"Forest timber prices and sawmill contracts.\"}\n", i, i)
		if i < 5 {
			fmt.Fprintf(&labels, "{\"url\":\"http://a.test/forest/%d.html\",\"relevant\":true}\n{\"url\":\"http://a.test/market/%d.html\",\"relevant\":false}\n", i, i)
		}
	}
	labels.WriteString("{\"url\":\"http://a.test/elsewhere.html\",\"relevant\":true}\n")
	dp, lp, mp := filepath.Join(dir, "docs.jsonl"), filepath.Join(dir, "labels.jsonl"), filepath.Join(dir, "m.json")
	for name, b := range map[string][]byte{dp: docs.Bytes(), lp: labels.Bytes()} {
		if err := os.WriteFile(name, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var errb bytes.Buffer
	code := cli.Run(newApp(), []string{"score", "train", "--topic", "testdata/forest.yaml", "--labels", lp, "--docs", dp, "-o", mp}, &errb)
	if code != cli.ExitRejected || !strings.Contains(errb.String(), "labels.jsonl:11: http://a.test/elsewhere.html is in no --docs file") ||
		!strings.Contains(errb.String(), "trained on 5 relevant and 5 irrelevant pages") {
		t.Fatalf("train: exit %d, stderr:\n%s", code, errb.String())
	}
	if _, err := os.Stat(mp); err != nil {
		t.Fatalf("no model written: %v", err)
	}
	errb.Reset()
	if code := cli.Run(newApp(), []string{"score", "train", "--explain", mp, "--top", "3"}, &errb); code != 0 {
		t.Fatalf("--explain: exit %d, %s", code, errb.String())
	}
	code, out, stderr := run(t, "--topic", "testdata/forest.yaml", "--model", mp, "-q", dp)
	if code != 0 || len(out) != 12 {
		t.Fatalf("score --model: exit %d, %d docs, %s", code, len(out), stderr)
	}
	right := 0
	for _, d := range out {
		if d.Relevant == strings.Contains(d.URL, "/forest/") {
			right++
		}
	}
	if right < 11 {
		t.Errorf("score --model judged %d of 12 right", right)
	}
	for _, bad := range [][]string{
		{"score", "train", "--topic", "testdata/forest.yaml", "--labels", lp, "-o", mp},
		{"score", "train", "--topic", "testdata/forest.yaml", "--docs", dp},
		{"score", "train", "--topic", "testdata/forest.yaml", "--positive", dp, "-o", mp},
		{"score", "--topic", "testdata/forest.yaml", "--model", filepath.Join(dir, "none.json")},
	} {
		errb.Reset()
		if code := cli.Run(newApp(), bad, &errb); code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d; %s", bad, code, cli.ExitUsage, errb.String())
		}
	}
}
