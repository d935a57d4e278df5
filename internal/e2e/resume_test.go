package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// TestCrawlScriptRefusesNeverBegun: crawl.sh with no seeds on a frontier
// that was never begun (a missing SQLite file, a mistyped Redis prefix or
// one a Redis without persistence lost, a PostgreSQL schema without the
// crawl's tables) exits 2 and says what is missing and how to begin,
// instead of "resuming" an empty frontier and exiting 0; and it leaves
// nothing under that name. Given seeds, the same names begin a crawl.
func TestCrawlScriptRefusesNeverBegun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs crawl.sh")
	}
	profile, _ := filepath.Abs("../../examples/topics/forestry.yaml")
	run := func(t *testing.T, seeds, db string) (int, string) {
		t.Helper()
		cmd := exec.Command("bash", "../../scripts/crawl.sh", profile, seeds, db, "5")
		cmd.Env = append(cmd.Environ(), "BIN="+stages(t), "PROGRESS=off", "ARCHIVE=none",
			"FETCH_FLAGS=-q --proxy http://127.0.0.1:9 --timeout 1s")
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, string(out)
	}
	redisDSN := redisTestURL(t)
	typo := strings.Replace(redisDSN, "prefix=e2e-", "prefix=typo-e2e-", 1)
	pgDSN := postgresTestURL(t)
	pgTypo := strings.Replace(pgDSN, "schema=e2e_", "schema=typo_e2e_", 1)
	for _, tc := range []struct{ name, db, says string }{
		{"sqlite", filepath.Join(t.TempDir(), "none.db"), "no such frontier"},
		{"redis", typo, `no crawl under prefix "typo-e2e-`},
		{"postgres", pgTypo, `no crawl in schema "typo_e2e_`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := run(t, "", tc.db)
			if code != 2 || !strings.Contains(out, tc.says) || !strings.Contains(out, "nothing to resume") {
				t.Fatalf("crawl.sh \"\" on a frontier never begun: exit %d, want 2 saying %q and how to begin:\n%s", code, tc.says, out)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if _, err := frontier.OpenExisting(ctx, tc.db); err == nil {
				t.Fatalf("the refused run began a frontier at %s", tc.db)
			}
		})
	}
	// With seeds, the mistyped Redis prefix begins a crawl (cleaned up as
	// the test's own).
	seeds := filepath.Join(t.TempDir(), "seeds.txt")
	if err := os.WriteFile(seeds, []byte("http://www.example.test/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := run(t, seeds, typo)
	ctx := context.Background()
	s, err := frontier.OpenExisting(ctx, typo)
	if err != nil {
		t.Fatalf("crawl.sh with seeds (exit %d) did not begin the crawl: %v\n%s", code, err, out)
	}
	defer func() { _ = s.(*frontier.RedisStore).Drop(ctx); s.Close() }()
}
