package e2e

import (
	"bytes"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/simweb"
)

// TestCrawlScriptDeadProxy: a --proxy that refuses connections stops
// crawl.sh with an error naming the proxy, and parks no host for it.
func TestCrawlScriptDeadProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs crawl.sh")
	}
	dir := t.TempDir()
	_, seeds := simwebForestry(t, dir)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	cs := startCrawlScript(t, dir, seeds, 100, "FETCH_FLAGS=--proxy "+dead+fastFetch)
	code, ended := cs.wait(60e9)
	if !ended {
		t.Fatalf("crawl.sh still runs after 60 s with a dead proxy:\n%s", cs.stderr.String())
	}
	log := cs.stderr.String()
	if code == 0 || !strings.Contains(log, "proxy cannot be reached") {
		t.Errorf("exit %d, want an error that names the proxy:\n%s", code, log)
	}
	if n := strings.Count(log, "proxy cannot be reached"); n > 1 {
		t.Errorf("said %d times, want once:\n%s", n, log)
	}
	out, err := exec.Command(filepath.Join(stages(t), "seed"), "stats", "--db", filepath.Join(dir, "crawl.db"), "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`"parked":(\d+)`).FindSubmatch(out); m == nil || string(m[1]) != "0" {
		t.Errorf("hosts parked for a dead proxy: %s", out)
	}
}

// TestDiscoverSitesFetchFlags: discover-sites.sh fetches through
// FETCH_FLAGS as crawl.sh does, so the README's way of reaching simweb
// (FETCH_FLAGS="--proxy …") finds the simulated bookstores.
func TestDiscoverSitesFetchFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("runs discover-sites.sh")
	}
	dir := t.TempDir()
	web := simweb.New(simweb.Config{Seed: 1, NoFaults: true})
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	seeds, err := web.Seeds("books")
	if err != nil {
		t.Fatal(err)
	}
	urls := filepath.Join(dir, "urls.txt")
	if err := os.WriteFile(urls, []byte(strings.Join(seeds, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	profile, _ := filepath.Abs("../../examples/topics/bookstores.yaml")
	cmd := exec.Command("bash", "../../scripts/discover-sites.sh", profile, "-", filepath.Join(dir, "verdicts.jsonl"))
	cmd.Env = append(os.Environ(), "BIN="+stages(t), "URLS="+urls, "FETCH_FLAGS=-q --proxy "+srv.URL+fastFetch)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("discover-sites.sh: %v\n%s", err, out.String())
	}
	m := regexp.MustCompile(`(\d+) relevant sites of (\d+) checked`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no summary:\n%s", out.String())
	}
	if n, _ := strconv.Atoi(m[1]); n == 0 {
		t.Errorf("no relevant site found through FETCH_FLAGS' proxy:\n%s", out.String())
	}
}
