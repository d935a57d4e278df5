package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/simweb/simwebtest"
)

// TestSkipJudged: a re-run with --skip-judged verifies only the sites
// without a verdict, or whose verdict was canceled or failed.
func TestSkipJudged(t *testing.T) {
	web := simwebtest.Serve(t)
	store, shop, forum := web.Store, web.Shop, web.Forum
	earlier := filepath.Join(t.TempDir(), "verdicts.jsonl")
	os.WriteFile(earlier, []byte(`{"site":"`+shop.Site+`","relevant":false,"good_pages":0,"pages_fetched":3,"best_score":0.1}
{"site":"`+forum.Site+`","relevant":false,"good_pages":0,"pages_fetched":0,"best_score":0,"error":"canceled"}
{"site":"`+store.Site+`","relevant":false,"good_pages":0,"pages_fetched":1,"best_score":0,"error":"dns"}
`), 0o644)
	input := strings.Join([]string{shop.Home, forum.Home, store.Home, shop.Home + "about.html"}, "\n") + "\n"
	stdout, stderr, code := runVerify(t, input, "--topic", profile, "--proxy", web.Proxy, "--delay", "0",
		"--retries", "0", "--max-crawl-delay", "0", "--skip-judged", earlier)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	vs := verdicts(t, stdout)
	if _, again := vs[shop.Site]; again || len(vs) != 2 {
		t.Fatalf("verdicts for %d sites (shop again: %v), want the forum and the store:\n%s", len(vs), again, stdout)
	}
	if !strings.Contains(stderr, "2 of 2 sites verified (1 more skipped: judged in --skip-judged)") {
		t.Errorf("stderr %q", stderr)
	}
	if _, stderr, code := runVerify(t, "", "--topic", profile, "--skip-judged", profile); code != cli.ExitUsage || !strings.Contains(stderr, "not a verdict record") {
		t.Errorf("a file of something else: exit %d, %q", code, stderr)
	}
}
