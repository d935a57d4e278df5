package sqlitedb

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenAppliesPragmas(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "x.db"), "cache_size(-1234)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tt := range []struct {
		pragma string
		want   string
	}{
		{"journal_mode", "wal"},
		{"busy_timeout", "30000"},
		{"synchronous", "1"}, // NORMAL
		{"cache_size", "-1234"},
	} {
		var got string
		if err := db.QueryRow("PRAGMA " + tt.pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("%s = %s, want %s", tt.pragma, got, tt.want)
		}
	}
}

// TestReadOnlyFileHint: a frontier file or its -wal file that may not be
// written is named, with what to do, before SQLite opens it and fails at
// the first write; a writable or missing file is no error. (The open is
// injected: as root every file opens for writing.)
func TestReadOnlyFileHint(t *testing.T) {
	deny := func(bad string) func(string) error {
		return func(name string) error {
			if name == bad {
				return &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
			}
			return nil
		}
	}
	for _, bad := range []string{"crawl.db", "crawl.db-wal"} {
		err := readOnlyFile("crawl.db", "seed stats", deny(bad))
		if err == nil || !strings.Contains(err.Error(), bad+" is read-only") || !strings.Contains(err.Error(), "chmod u+w "+bad) ||
			!strings.Contains(err.Error(), "seed stats") {
			t.Errorf("%s read-only: %v", bad, err)
		}
	}
	if err := readOnlyFile("crawl.db", "seed stats", deny("")); err != nil {
		t.Errorf("writable: %v", err)
	}
	if err := ReadOnlyFile(filepath.Join(t.TempDir(), "none.db"), "seed stats"); err != nil {
		t.Errorf("missing file: %v", err)
	}
}
