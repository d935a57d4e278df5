package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// raw is the output of the last run.
var raw string

func run(t *testing.T, args ...string) (code int, out []record.ScoredDoc, stderr string) {
	t.Helper()
	raw = ""
	o := filepath.Join(t.TempDir(), "out.jsonl")
	var errb bytes.Buffer
	code = cli.Run(newApp(), append([]string{"score", "-o", o}, args...), &errb)
	f, err := os.Open(o)
	if err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var sd record.ScoredDoc
			if err := json.Unmarshal(sc.Bytes(), &sd); err != nil {
				t.Fatalf("output line %q: %v", sc.Text(), err)
			}
			out = append(out, sd)
			raw += sc.Text() + "\n"
		}
	}
	return code, out, errb.String()
}

func TestScoreStream(t *testing.T) {
	for _, links := range []string{"block-shark", "shark", "bfs", "best-first", "heuristic"} {
		t.Run(links, func(t *testing.T) {
			rej := filepath.Join(t.TempDir(), "rejects")
			code, out, stderr := run(t, "--topic", "testdata/forest.yaml", "--links", links, "-q", "--rejects", rej, "testdata/docs.jsonl")
			if b, _ := os.ReadFile(rej); code != cli.ExitRejected || string(b) != "this line is not a record\n" {
				t.Fatalf("exit %d, stderr %q, rejects %q", code, stderr, b)
			}
			if len(out) != 3 || out[0].URL != "http://a.test/1" || out[1].URL != "http://a.test/4" || out[2].URL != "http://a.test/2" {
				t.Fatalf("order: %+v", out)
			}
			if !out[0].Relevant || out[2].Relevant || !(out[0].Score > out[2].Score) {
				t.Errorf("scores %v %v", out[0].Score, out[2].Score)
			}
			if string(out[0].Meta) != `{"mine":[1,2]}` {
				t.Errorf("meta %s", out[0].Meta)
			}
			if !strings.Contains(raw, `"classifier":{"label":"forest","p":0.97000}`) {
				t.Errorf("a field score does not know was not passed through verbatim")
			}
			if out[1].Error != "fetch: timeout" || out[1].Score != 0 {
				t.Errorf("error doc %+v", out[1])
			}
			if links != "bfs" && links != "best-first" && !(out[0].Links[0].Priority > out[0].Links[1].Priority) {
				t.Errorf("forest link %v not above login %v", out[0].Links[0].Priority, out[0].Links[1].Priority)
			}
		})
	}
}

func TestScoreGraphStrategies(t *testing.T) {
	for _, links := range []string{"ipagerank", "linkmodel"} {
		code, _, stderr := run(t, "--topic", "testdata/forest-examples.yaml", "--links", links, "testdata/docs.jsonl")
		if code != cli.ExitUsage || !strings.Contains(stderr, "--batch") {
			t.Errorf("%s without --batch: exit %d, %q", links, code, stderr)
		}
		code, out, _ := run(t, "--topic", "testdata/forest-examples.yaml", "--links", links, "--batch", "-q", "--rejects", os.DevNull, "testdata/docs.jsonl")
		if code != cli.ExitRejected || len(out) != 3 {
			t.Errorf("%s --batch: exit %d, %d docs", links, code, len(out))
		}
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"testdata/docs.jsonl"}, "--topic"},
		{[]string{"--topic", "testdata/empty.yaml", "testdata/docs.jsonl"}, "neither a description nor keywords"},
		{[]string{"--topic", "testdata/forest.yaml", "--page", "rules", "testdata/docs.jsonl"}, "has no rules"},
		{[]string{"--topic", "testdata/forest.yaml", "--page", "nope"}, "--page \"nope\""},
		{[]string{"--topic", "testdata/forest.yaml", "--delta", "2"}, "--delta 2: want a number in [0,1]"},
		{[]string{"--topic", "testdata/forest.yaml", "--combo", "vsm=x"}, "--combo"},
		{[]string{"--topic", "testdata/forest.yaml", "--links", "block-shark", "--block-shark-form", "paper"}, "--block-shark-form paper: want one of modulated, additive"},
		{[]string{"--topic", "testdata/forest.yaml", "--links", "block-shark", "--share-prior", "2"}, "--share-prior 2: want a number in [0,1] or \"page\""},
		{[]string{"--topic", "testdata/forest.yaml", "--links", "skyreach", "--batch", "--skyreach", "h=1,pr=1"}, "--skyreach"},
		{[]string{"--topic", "testdata/forest.yaml", "--links", "skyreach", "--batch", "--skyreach", "h=0,ipr=0"}, "sum to 0"},
		{[]string{"--topic", "testdata/forest.yaml", "--links", "ipagerank", "--batch", "--damping", "1"}, "--damping 1: want a number in [0,1) (below 1 to converge)"},
		{[]string{"--topic", "testdata/forest.yaml", "--links", "linkmodel", "--batch", "--top-k", "0"}, "--top-k 0: want a whole number of at least 1"},
		{[]string{"--topic", "testdata/forest.yaml", "--links", "nope"}, `--links "nope": want one of bfs, best-first, shark, block-shark, heuristic, ipagerank, linkmodel, skyreach, learned, or a per-doc one followed by +learned`},
		{[]string{"--topic", "testdata/forest.yaml", "--links", ""}, `--links "": want one of`},
		{[]string{"--topic", "testdata/forest.yaml", "--links", "ipagerank+learned"}, "ipagerank scores in batches; +learned follows only the per-doc strategies"},
		// A parameter given for a strategy that does not use it.
		{[]string{"--topic", "testdata/forest.yaml", "--theta", "0.7"}, "--theta is a parameter of block-shark; --links shark does not use it"},
		{[]string{"--topic", "testdata/forest.yaml", "--links", "heuristic", "--delta", "0.5"}, "--delta is a parameter of shark, block-shark; --links heuristic does not use it"},
		{[]string{"--topic", "testdata/forest.yaml", "--links", "learned", "--learn-weight", "0.5"}, "--learn-weight is a parameter of +learned; --links learned does not use it"},
		{[]string{"--topic", "testdata/forest.yaml", "--learn-rate", "0.5"}, "--learn-rate is a parameter of learned, +learned; --links shark does not use it"},
		{[]string{"--topic", "testdata/forest.yaml", "--class-weight", "1"}, "--class-weight is a parameter of learned, +learned; --links shark does not use it"},
		// linkmodel without examples would crawl nearly blind: refused,
		// saying what to add.
		{[]string{"--topic", "testdata/forest.yaml", "--links", "linkmodel", "--batch"}, "testdata/forest.yaml: linkmodel learns from labelled examples and the profile has none: add examples:"},
	}
	for _, tc := range tests {
		code, _, stderr := run(t, tc.args...)
		if code != cli.ExitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, stderr, tc.want)
		}
	}
}

func TestIDFBuild(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "corpus.txt")
	os.WriteFile(in, []byte("forest trees grow\nforest fire\n{\"url\":\"http://x/\",\"tokens\":[\"river\",\"forest\"]}\n"), 0o644)
	out := filepath.Join(dir, "t.idf.zst")
	var errb bytes.Buffer
	if code := cli.Run(newApp(), []string{"score", "idf", "build", "-o", out, in}, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	tab, err := vsm.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	// 3 documents; forest in all three: ln(4/4)+1 = 1; river in one: ln(2)+1.
	if tab.Docs != 3 || tab.Weight("forest") != 1 || !(tab.Weight("river") > 1.69 && tab.Weight("river") < 1.70) {
		t.Errorf("docs %d forest %v river %v", tab.Docs, tab.Weight("forest"), tab.Weight("river"))
	}
	// The table is usable by score.
	code, docs, stderr := run(t, "--topic", "testdata/forest.yaml", "--idf", out, "-q", "--rejects", os.DevNull, "testdata/docs.jsonl")
	if code != cli.ExitRejected || len(docs) != 3 {
		t.Errorf("score --idf: exit %d %q", code, stderr)
	}
}

func TestRulesOnHTML(t *testing.T) {
	// The ISBN is only in the raw HTML: 0 on the text, 1 with --rules-on html.
	for on, want := range map[string]float64{"content": 0, "html": 1, "text": 0} {
		code, out, stderr := run(t, "--topic", "testdata/rules.yaml", "--page", "rules", "--rules-on", on, "testdata/html.jsonl")
		if code != 0 || len(out) != 1 || out[0].Score != want || out[0].Scores["rules"] != want {
			t.Errorf("--rules-on %s: exit %d %q, out %+v", on, code, stderr, out)
		}
		if deprecated := strings.Contains(stderr, "--rules-on text is deprecated: write --rules-on content"); deprecated != (on == "text") {
			t.Errorf("--rules-on %s: stderr %q", on, stderr)
		}
		if !strings.Contains(raw, `"html":"<html>`) {
			t.Errorf("--rules-on %s: html not passed through", on)
		}
	}
}
