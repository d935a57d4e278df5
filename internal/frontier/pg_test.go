package frontier

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The PostgreSQL store's tests use the server at FOCUSCRAWL_TEST_POSTGRES
// (default postgres://postgres@127.0.0.1:5432/test), each in a schema of
// its own, dropped at cleanup. Without a server they are skipped, except
// under CI=true, where they fail.

var pgTestSeq atomic.Int64

// testPostgresURL is the database the PostgreSQL tests use.
func testPostgresURL() string {
	if u := os.Getenv("FOCUSCRAWL_TEST_POSTGRES"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

// openTestPostgres opens a PostgreSQL store in a schema of its own, or
// skips (fails under CI) when no server answers.
func openTestPostgres(t testing.TB) (*PostgresStore, string) {
	t.Helper()
	sep := "?"
	if strings.Contains(testPostgresURL(), "?") {
		sep = "&"
	}
	dsn := fmt.Sprintf("%s%sschema=test_%d_%d_%d", testPostgresURL(), sep, os.Getpid(), time.Now().UnixNano(), pgTestSeq.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := OpenPostgres(ctx, dsn)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL is needed for these tests under CI: %v", err)
		}
		t.Skipf("no PostgreSQL server: %v", err)
	}
	t.Cleanup(func() {
		_ = s.Drop(context.Background())
		s.Close()
	})
	return s, dsn
}
