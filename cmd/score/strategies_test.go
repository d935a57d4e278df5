package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/stage/seed"
)

var update = flag.Bool("update", false, "write the golden files of TestStrategiesGolden from this build, and docs/score.md's strategies table (TestDocsStrategies)")

// goldenDir holds the golden test's input, docs of a crawl of simweb
// (segment's output of an IN_FLIGHT=1 shark crawl, forestry), and what
// score wrote for them with each link strategy, before the strategies
// moved behind one interface (issue 29): a refactoring must give the same
// scores, record for record.
const goldenDir = "testdata/strategies"

// goldenCases are the --links values and flags the golden files cover:
// every strategy, the +learned combinations, the non-default parameters
// of each, and the graph strategies over a batch and over a frontier.
// db: the input's first crawledDocs docs are scored with shark and added
// to a fresh frontier, and the rest scored with --db.
var goldenCases = []struct {
	name string
	db   bool
	args []string
}{
	{"bfs", false, []string{"--links", "bfs"}},
	{"best-first", false, []string{"--links", "best-first"}},
	{"shark", false, []string{"--links", "shark"}},
	{"shark-params", false, []string{"--links", "shark", "--delta", "0.3", "--beta", "0.6", "--gamma", "0.7"}},
	{"block-shark", false, []string{"--links", "block-shark"}},
	{"block-shark-params", false, []string{"--links", "block-shark", "--block-gamma", "0.3", "--theta", "0.7", "--noise-weight", "0.5", "--share-prior", "page", "--share-pseudo", "2"}},
	{"block-shark-additive", false, []string{"--links", "block-shark", "--block-shark-form", "additive"}},
	{"block-shark-additive-norm", false, []string{"--links", "block-shark", "--block-shark-form", "additive", "--theta", "1", "--block-norm"}},
	{"heuristic", false, []string{"--links", "heuristic"}},
	{"heuristic-params", false, []string{"--links", "heuristic", "--heuristic", "uh=1,teh=0,tih=0.5,rw=1", "--rw-min", "0.3"}},
	{"learned", false, []string{"--links", "learned"}},
	{"learned-params", false, []string{"--links", "learned", "--learn-warmup", "5", "--learn-rate", "0.5", "--learn-remember", "100"}},
	{"bfs+learned", false, []string{"--links", "bfs+learned"}},
	{"best-first+learned", false, []string{"--links", "best-first+learned"}},
	{"shark+learned", false, []string{"--links", "shark+learned"}},
	{"shark+learned-params", false, []string{"--links", "shark+learned", "--learn-weight", "0.8", "--learn-warmup", "5"}},
	{"block-shark+learned", false, []string{"--links", "block-shark+learned"}},
	{"heuristic+learned", false, []string{"--links", "heuristic+learned"}},
	{"ipagerank-batch", false, []string{"--links", "ipagerank", "--batch"}},
	{"ipagerank-batch-params", false, []string{"--links", "ipagerank", "--batch", "--damping", "0.7", "--rw-floor", "0.1", "--rw-min", "0.3", "--tolerance", "0.001", "--max-iter", "10"}},
	{"linkmodel-batch", false, []string{"--links", "linkmodel", "--batch"}},
	{"linkmodel-batch-params", false, []string{"--links", "linkmodel", "--batch", "--lm-gamma", "0.5", "--top-k", "5", "--max-posting", "50", "--max-iter", "20"}},
	{"skyreach-batch", false, []string{"--links", "skyreach", "--batch"}},
	{"skyreach-batch-params", false, []string{"--links", "skyreach", "--batch", "--skyreach", "h=0.5,ipr=0.5", "--heuristic", "uh=1,teh=1,tih=0,rw=0"}},
	{"db-shark", true, []string{"--links", "shark"}},
	{"db-block-shark", true, []string{"--links", "block-shark"}},
	{"db-learned", true, []string{"--links", "learned"}},
	{"db-shark+learned", true, []string{"--links", "shark+learned"}},
	{"db-ipagerank", true, []string{"--links", "ipagerank", "--window", "7", "--window-wait", "0"}},
	{"db-linkmodel", true, []string{"--links", "linkmodel", "--window", "7", "--window-wait", "0"}},
	{"db-skyreach", true, []string{"--links", "skyreach", "--window", "7", "--window-wait", "0"}},
}

// crawledDocs is how many of the input's docs the db cases find crawled.
const crawledDocs = 50

// goldenDoc is what the golden files keep of a scored doc: the fields
// score computes (the rest of the doc passes through).
type goldenDoc struct {
	URL      string             `json:"url"`
	Score    float64            `json:"score"`
	Relevant bool               `json:"relevant"`
	Scores   map[string]float64 `json:"scores,omitempty"`
	Links    []goldenLink       `json:"links,omitempty"`
}

type goldenLink struct {
	Priority  float64 `json:"p"`
	Pruned    bool    `json:"x,omitempty"`
	Inherited float64 `json:"i,omitempty"`
}

func goldenOf(sd record.ScoredDoc) goldenDoc {
	g := goldenDoc{URL: sd.URL, Score: sd.Score, Relevant: sd.Relevant, Scores: sd.Scores}
	for _, l := range sd.Links {
		g.Links = append(g.Links, goldenLink{l.Priority, l.Pruned, l.Inherited})
	}
	return g
}

// TestStrategiesGolden: every link strategy gives, doc for doc and link
// for link, the scores the golden files hold. go test -run
// TestStrategiesGolden -update writes them anew from this build (only
// when a change of scores is meant).
func TestStrategiesGolden(t *testing.T) {
	if raceDetector {
		// Scored on one worker, it has no race to find, and costs a
		// minute of CPU under the detector; make test runs it without.
		t.Skip("not under the race detector")
	}
	lines := readZstdLines(t, filepath.Join(goldenDir, "docs.jsonl.zst"))
	dir := t.TempDir()
	all := filepath.Join(dir, "docs.jsonl")
	crawled := filepath.Join(dir, "crawled.jsonl")
	fresh := filepath.Join(dir, "fresh.jsonl")
	writeLines(t, all, lines)
	writeLines(t, crawled, lines[:crawledDocs])
	writeLines(t, fresh, lines[crawledDocs:])
	// The crawl so far: the first docs, scored with shark, in a frontier.
	base := filepath.Join(dir, "base.db")
	if code, _, stderr := run(t, "--topic", topicPath, "--links", "shark", "-q", crawled); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	addToFrontier(t, base, withFetchTimes(raw))
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--topic", topicPath, "--workers", "1", "-q"}, tc.args...)
			in := all
			if tc.db {
				db := filepath.Join(t.TempDir(), "crawl.db")
				copyFile(t, base, db)
				args, in = append(args, "--db", db), fresh
			}
			code, out, stderr := run(t, append(args, in)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got := make([]goldenDoc, len(out))
			for i, sd := range out {
				got[i] = goldenOf(sd)
			}
			path := filepath.Join(goldenDir, tc.name+".jsonl.zst")
			if *update {
				writeGolden(t, path, got)
				return
			}
			compareGolden(t, readGolden(t, path), got)
		})
	}
}

// topicPath is the golden test's profile: the crawl's.
const topicPath = "../../examples/topics/forestry.yaml"

// compareGolden reports the first differences, field by field.
func compareGolden(t *testing.T, want, got []goldenDoc) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d docs, want %d", len(got), len(want))
	}
	diffs := 0
	report := func(format string, a ...any) {
		if diffs++; diffs <= 10 {
			t.Errorf(format, a...)
		}
	}
	for i := range want {
		w, g := want[i], got[i]
		if g.URL != w.URL || !same(g.Score, w.Score) || g.Relevant != w.Relevant || !sameScores(g.Scores, w.Scores) {
			report("doc %d %s: score %v %v %v, want %s %v %v %v", i, g.URL, g.Score, g.Relevant, g.Scores, w.URL, w.Score, w.Relevant, w.Scores)
			continue
		}
		if len(g.Links) != len(w.Links) {
			report("doc %d %s: %d links, want %d", i, w.URL, len(g.Links), len(w.Links))
			continue
		}
		for j := range w.Links {
			if gl, wl := g.Links[j], w.Links[j]; !same(gl.Priority, wl.Priority) || gl.Pruned != wl.Pruned || !same(gl.Inherited, wl.Inherited) {
				report("doc %d %s link %d: %+v, want %+v", i, w.URL, j, g.Links[j], w.Links[j])
			}
		}
	}
	if diffs > 10 {
		t.Errorf("… %d differences in all", diffs)
	}
}

// withFetchTimes gives each scored doc of out a fetch time a millisecond
// after the one before: the frontier replays a crawl in the order of its
// fetch times (a learned strategy with --db), and the times seed add would
// take from the clock could tie in any order.
func withFetchTimes(out string) string {
	var b strings.Builder
	t0 := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	for i, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		fmt.Fprintf(&b, "{\"fetched_at\":%q,%s\n", t0.Add(time.Duration(i)*time.Millisecond).Format(time.RFC3339Nano), l[1:])
	}
	return b.String()
}

// same tells whether two scores agree to 12 significant digits: linkmodel
// adds up its calibration over a map, so the last bits of its priorities
// differ from run to run of the same build.
func same(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

func sameScores(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !same(v, w) {
			return false
		}
	}
	return true
}

// addToFrontier records the scored docs of out in a new frontier at path,
// as seed add does in a crawl.
func addToFrontier(t *testing.T, path, out string) {
	t.Helper()
	ctx := context.Background()
	store, err := frontier.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	// A record a run: seed add writes a batch when 50 ms have passed, and
	// what one batch holds changes what the frontier keeps of it.
	for _, l := range strings.SplitAfter(out, "\n") {
		if _, err := seed.Add(ctx, strings.NewReader(l), store, seed.AddOptions{Workers: 1}); err != nil {
			t.Fatal(err)
		}
	}
}

func readZstdLines(t *testing.T, path string) [][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := zstd.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var lines [][]byte
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

func readGolden(t *testing.T, path string) []goldenDoc {
	t.Helper()
	var docs []goldenDoc
	for _, l := range readZstdLines(t, path) {
		var g goldenDoc
		if err := json.Unmarshal(l, &g); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		docs = append(docs, g)
	}
	return docs
}

func writeGolden(t *testing.T, path string, docs []goldenDoc) {
	t.Helper()
	var b bytes.Buffer
	zw, err := zstd.NewWriter(&b, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
	if err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(zw)
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeLines(t *testing.T, path string, lines [][]byte) {
	t.Helper()
	var b bytes.Buffer
	for _, l := range lines {
		b.Write(l)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}
