package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/simweb"
)

// The stages the crawl loop needs, built once per test binary.
var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// stages builds seed, fetch, segment, score, dedupe and verify into a temporary directory
// (with -trimpath, as make build does, so the build cache is shared).
func stages(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		goCmd, err := exec.LookPath("go")
		if err != nil {
			buildErr = err
			return
		}
		binDir, buildErr = os.MkdirTemp("", "focuscrawl-e2e-")
		if buildErr != nil {
			return
		}
		cmd := exec.Command(goCmd, "build", "-trimpath", "-o", binDir+string(filepath.Separator),
			"../../cmd/seed", "../../cmd/fetch", "../../cmd/segment", "../../cmd/score", "../../cmd/dedupe", "../../cmd/verify")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = &buildError{err: err, out: string(out)}
		}
	})
	if buildErr != nil {
		t.Fatalf("building the stages: %v", buildErr)
	}
	return binDir
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }
func (e *buildError) Unwrap() error { return e.err }

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// crawl runs scripts/crawl.sh — seed next --follow | fetch | segment |
// score | seed add — for pages pages of web with link strategy links, and
// returns its evaluation against the truth.
func crawl(t *testing.T, web *simweb.Web, proxy string, links string, pages int) simweb.Eval {
	t.Helper()
	start := time.Now()
	bin := stages(t)
	if d := time.Since(start); d > time.Second {
		t.Logf("stages built in %v", d.Round(time.Millisecond))
	}
	dir := t.TempDir()
	seeds, err := web.Seeds("forestry")
	if err != nil {
		t.Fatal(err)
	}
	seedFile := filepath.Join(dir, "seeds.txt")
	if err := os.WriteFile(seedFile, []byte(strings.Join(seeds, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(dir, "scored.jsonl")
	profile, _ := filepath.Abs("../../examples/topics/forestry.yaml")
	cmd := exec.Command("bash", "../../scripts/crawl.sh", profile, seedFile, filepath.Join(dir, "crawl.db"), itoa(pages))
	cmd.Env = append(os.Environ(),
		"BIN="+bin, "LINKS="+links, "ARCHIVE="+archive,
		"FETCH_FLAGS=-q --proxy "+proxy+" --delay 0 --max-crawl-delay 50ms --backoff 100ms --max-backoff 1s",
		"SEGMENT_FLAGS=-q", "SCORE_FLAGS=-q", "ADD_FLAGS=-q", "NEXT_FLAGS=-q")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start = time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("crawl.sh (%s): %v\n%s", links, err, stderr.String())
	}
	t.Logf("%s: %d pages in %v", links, pages, time.Since(start).Round(time.Millisecond))
	ev, err := web.NewEvaluator("forestry", pages)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r struct {
			URL string `json:"url"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil || r.URL == "" {
			t.Fatalf("archive line %q: %v", clip(sc.Text()), err)
		}
		ev.Add(r.URL)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ev.Result()
}

// TestFocusedBeatsBFS crawls the default simulated web (faults off, so
// the test is quick) for 300 pages with bfs and with focused strategies,
// through the real stage programs and scripts/crawl.sh, and checks each
// focused crawl's harvest rate against the truth is well above the
// breadth-first one's.
func TestFocusedBeatsBFS(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls 900 pages through the real stages")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("scripts/crawl.sh needs bash")
	}
	web := simweb.New(simweb.Config{Seed: 1, NoFaults: true})
	srv := httptest.NewServer(web.Handler())
	defer srv.Close()
	const pages = 300
	bfs := crawl(t, web, srv.URL, "bfs", pages)
	t.Logf("bfs: %d pages, harvest %.3f, %d relevant pages found", bfs.Pages, bfs.Harvest, bfs.Found)
	if bfs.Pages < pages*9/10 {
		t.Fatalf("bfs fetched %d pages, want about %d", bfs.Pages, pages)
	}
	for _, links := range []string{"shark", "block-shark"} {
		ev := crawl(t, web, srv.URL, links, pages)
		t.Logf("%s: %d pages, harvest %.3f, %d relevant pages found", links, ev.Pages, ev.Harvest, ev.Found)
		if ev.Pages < pages*9/10 {
			t.Errorf("%s fetched %d pages, want about %d", links, ev.Pages, pages)
		}
		if ev.Harvest < bfs.Harvest+0.2 {
			t.Errorf("%s harvest %.3f, bfs %.3f: a focused crawl must beat bfs by at least 0.2", links, ev.Harvest, bfs.Harvest)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func clip(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}
