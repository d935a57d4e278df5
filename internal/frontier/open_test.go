package frontier

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// TestOpenRoutes: Open, OpenExisting and OpenReading each give the store
// a --db value names, on every store (a PostgreSQL URL once went to the
// SQLite file check in OpenReading).
func TestOpenRoutes(t *testing.T) {
	ctx := context.Background()
	_, redisURL := openTestRedis(t)
	_, pgURL := openTestPostgres(t)
	file := filepath.Join(t.TempDir(), "crawl.db")
	if s, err := OpenSQLite(file); err != nil {
		t.Fatal(err)
	} else {
		s.Close()
	}
	for _, tc := range []struct{ db, kind string }{{file, "sqlite"}, {redisURL, "redis"}, {pgURL, "postgres"}} {
		for name, open := range map[string]func(context.Context, string) (Store, error){
			"Open": Open, "OpenExisting": OpenExisting, "OpenReading": OpenReading} {
			s, err := open(ctx, tc.db)
			if err != nil {
				t.Errorf("%s(%s): %v", name, tc.kind, err)
				continue
			}
			if got := s.Capabilities().Kind; got != tc.kind {
				t.Errorf("%s(%s) opened a %s store", name, tc.db, got)
			}
			s.Close()
		}
	}
	for _, open := range []func(context.Context, string) (Store, error){OpenExisting, OpenReading} {
		if _, err := open(ctx, filepath.Join(t.TempDir(), "none.db")); !errors.Is(err, ErrNoFrontier) {
			t.Errorf("a missing file: %v, want ErrNoFrontier", err)
		}
	}
}
