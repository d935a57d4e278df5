package sqlitedb

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func applicationID(t *testing.T, path string) int32 {
	t.Helper()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var id int32
	if err := db.QueryRow(`PRAGMA application_id`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestOpenAsMarksAndRefuses(t *testing.T) {
	dir := t.TempDir()
	crawl := filepath.Join(dir, "crawl.db")
	db, err := OpenAs(crawl, Frontier)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if got := applicationID(t, crawl); got != Frontier.ID {
		t.Fatalf("application_id %#x, want %#x", got, Frontier.ID)
	}
	// Again as a frontier: fine.
	db, err = OpenAs(crawl, Frontier)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	// As a knowledge base: refused, naming both kinds, and nothing written.
	_, err = OpenAs(crawl, KnowledgeBase)
	var wk *WrongKindError
	if !errors.As(err, &wk) || !errors.Is(err, ErrWrongKind) || wk.Got.Name != "frontier" {
		t.Fatalf("frontier opened as a knowledge base: %v", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "frontier") || !strings.Contains(msg, "not a knowledge base") {
		t.Fatalf("message %q", msg)
	}
	if got := applicationID(t, crawl); got != Frontier.ID {
		t.Fatalf("refused open changed application_id to %#x", got)
	}
}

func TestOpenAsOldAndForeignFiles(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string, stmts ...string) string {
		p := filepath.Join(dir, name)
		db, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, s := range stmts {
			if _, err := db.Exec(s); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	oldKB := mk("old-kb.sqlite", `CREATE TABLE kb_info (key TEXT)`)
	if _, err := OpenAs(oldKB, Frontier); !errors.Is(err, ErrWrongKind) || !strings.Contains(err.Error(), "knowledge base") {
		t.Fatalf("unmarked knowledge base opened as a frontier: %v", err)
	}
	db, err := OpenAs(oldKB, KnowledgeBase)
	if err != nil {
		t.Fatalf("unmarked knowledge base: %v", err)
	}
	db.Close()
	if got := applicationID(t, oldKB); got != KnowledgeBase.ID {
		t.Fatalf("unmarked knowledge base not marked: %#x", got)
	}
	other := mk("other.db", `CREATE TABLE photos (id INTEGER)`)
	if _, err := OpenAs(other, KnowledgeBase); !errors.Is(err, ErrWrongKind) || !strings.Contains(err.Error(), "other tables") {
		t.Fatalf("a stranger's database: %v", err)
	}
	foreign := mk("foreign.db", `PRAGMA application_id = 7`)
	if _, err := OpenAs(foreign, Frontier); !errors.Is(err, ErrWrongKind) || !strings.Contains(err.Error(), "0x7") {
		t.Fatalf("another program's database: %v", err)
	}
}
