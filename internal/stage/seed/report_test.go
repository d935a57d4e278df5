package seed

import (
	"strings"
	"testing"
)

func TestDefaultLabels(t *testing.T) {
	got := strings.Join(defaultLabels([]string{"x/crawl.db", "y/crawl.db", "z/bfs.db", "redis://127.0.0.1:6379/2?prefix=shark", "redis://127.0.0.1:6379/2", "postgres://db/crawls?schema=bfs_pg"}), " ")
	if got != "x/crawl.db y/crawl.db bfs.db shark focuscrawl bfs_pg" {
		t.Fatalf("labels %q", got)
	}
}
