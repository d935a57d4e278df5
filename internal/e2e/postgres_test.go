package e2e

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// postgresTestURL is a PostgreSQL frontier of the test's own: a schema in
// the database at FOCUSCRAWL_TEST_POSTGRES (default
// postgres://postgres@127.0.0.1:5432/test), dropped at the end. Without a
// server the test is skipped, except under CI=true, where it fails.
func postgresTestURL(t *testing.T) string {
	t.Helper()
	base := os.Getenv("FOCUSCRAWL_TEST_POSTGRES")
	if base == "" {
		base = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	}
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	dsn := fmt.Sprintf("%s%sschema=e2e_%d_%d", base, sep, os.Getpid(), time.Now().UnixNano())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := frontier.OpenPostgres(ctx, dsn)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL is needed for this test under CI: %v", err)
		}
		t.Skipf("no PostgreSQL server: %v", err)
	}
	t.Cleanup(func() {
		_ = s.Drop(context.Background())
		s.Close()
	})
	return dsn
}

// TestPostgresFourWorkers is TestRedisFourWorkers on a PostgreSQL
// frontier: four crawl.sh pipes share it, one is SIGKILLed mid-crawl; no
// host is fetched by more workers at once than --host-limit, no URL
// twice beyond the killed worker's window, nothing it held is lost.
func TestPostgresFourWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls 800 pages through the real stages")
	}
	// A longer lease than Redis's 3 s: PostgreSQL's lease calls take
	// turns (an advisory lock) and a loaded machine can hold a live
	// worker's renewal past 3 s, which lets its URLs go out again.
	checkFourWorkers(t, postgresTestURL, "8s")
}
