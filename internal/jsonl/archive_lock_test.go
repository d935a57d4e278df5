package jsonl

import (
	"errors"
	"path/filepath"
	"testing"
)

// One appender per archive: a second is refused by name while the first
// holds it, AppendFree takes the next free sibling, and a closed archive
// can be appended to again.
func TestAppendOneWriter(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "crawl.jsonl.zst")
	first, err := Append(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Append(name); !errors.Is(err, ErrArchiveBusy) {
		t.Fatalf("a second appender: %v, want ErrArchiveBusy", err)
	}
	w, got, err := AppendFree(name)
	if err != nil || got != filepath.Join(dir, "crawl-2.jsonl.zst") {
		t.Fatalf("AppendFree: %q, %v", got, err)
	}
	_, got3, err := AppendFree(name)
	if err != nil || got3 != filepath.Join(dir, "crawl-3.jsonl.zst") {
		t.Fatalf("AppendFree with two taken: %q, %v", got3, err)
	}
	w.Close()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Append(name)
	if err != nil {
		t.Fatalf("after the first closed: %v", err)
	}
	again.Close()
	for in, want := range map[string]string{"a/crawl.jsonl.zst": "a/crawl-2.jsonl.zst", "x": "x-2", ".hidden.gz": ".hidden-2.gz"} {
		if got := siblingName(in, 2); got != want {
			t.Errorf("siblingName(%q) = %q, want %q", in, got, want)
		}
	}
}
