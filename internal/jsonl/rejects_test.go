package jsonl

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRejects(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rejects.txt")
	var log strings.Builder
	r, err := OpenRejects(path, &log)
	if err != nil {
		t.Fatal(err)
	}
	r.Reject(Line{Name: "seeds.txt", Num: 7, Bytes: []byte("{bad json")}, errors.New("invalid JSON"))
	r.Reject(Line{Name: "stdin", Num: 12, Bytes: []byte("mailto:x\tkept verbatim ")}, errors.New("scheme"))
	if r.Count() != 2 {
		t.Fatalf("Count %d", r.Count())
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if want := "seeds.txt:7: invalid JSON\nstdin:12: scheme\n"; log.String() != want {
		t.Fatalf("log %q, want %q", log.String(), want)
	}
	b, _ := os.ReadFile(path)
	if want := "{bad json\nmailto:x\tkept verbatim \n"; string(b) != want {
		t.Fatalf("rejects file %q, want %q", b, want)
	}
	if _, err := OpenRejects(filepath.Join(path, "sub"), nil); err == nil {
		t.Fatal("OpenRejects under a file succeeded")
	}
}
