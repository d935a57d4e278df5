package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/sqlitedb"
)

// distinctDocs writes n scored docs of unrelated random text (no two are
// near-duplicates), every tenth followed by an exact copy at another URL.
func distinctDocs(t *testing.T, dir string, n int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(16, 4))
	vocab := make([]string, 3000)
	for i := range vocab {
		w := make([]byte, 4+rng.IntN(6))
		for j := range w {
			w[j] = byte('a' + rng.IntN(26))
		}
		vocab[i] = string(w)
	}
	var lines []string
	for i := range n {
		var sb strings.Builder
		for p := range 4 {
			if p > 0 {
				sb.WriteString("\n\n")
			}
			for range 25 {
				sb.WriteString(vocab[rng.IntN(len(vocab))] + " ")
			}
		}
		content := sb.String()
		lines = append(lines, line(t, scored(fmt.Sprintf("http://site%d.example/doc/%d", i%37, i), content, 0.8, true)))
		if i%10 == 0 {
			lines = append(lines, line(t, scored(fmt.Sprintf("http://mirror.example/copy/%d", i), content, 0.7, true)))
		}
	}
	return writeInput(t, dir, "docs.jsonl", lines...)
}

// storedURLs lists the URLs of a knowledge base, sorted.
func storedURLs(t *testing.T, path string) []string {
	t.Helper()
	db, err := sqlitedb.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT url FROM knowledge`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var urls []string
	for rows.Next() {
		var u string
		rows.Scan(&u)
		urls = append(urls, u)
	}
	slices.Sort(urls)
	return urls
}

// TestStoreFullKeepsIndexInStep: a run whose knowledge base fills up
// fails; once space is freed, running it again gives the same knowledge
// base as a clean run: the index never holds documents the knowledge
// base lost. The space runs out on a size-limited tmpfs when the test may
// mount one (root), and always through --store-max-size (SQLite's
// max_page_count: the same "database or disk is full" error).
func TestStoreFullKeepsIndexInStep(t *testing.T) {
	dir := t.TempDir()
	in := distinctDocs(t, dir, 900)
	code, _, stderr := runCmd(t, "-q", "--window", "0", "--index", filepath.Join(dir, "clean.idx"),
		"--store", filepath.Join(dir, "clean.sqlite"), "-o", filepath.Join(dir, "clean.jsonl"), in)
	if code != 0 {
		t.Fatalf("clean run: exit %d: %s", code, stderr)
	}
	want := storedURLs(t, filepath.Join(dir, "clean.sqlite"))
	if st, err := os.Stat(filepath.Join(dir, "clean.sqlite")); err == nil {
		t.Logf("clean knowledge base: %d bytes", st.Size())
	}
	if len(want) != 900 {
		t.Fatalf("clean run stored %d docs, want 900", len(want))
	}

	check := func(t *testing.T, store string, fill, free func() []string) {
		idx := filepath.Join(t.TempDir(), "kb.idx")
		args := []string{"-q", "--window", "0", "--index", idx, "--store", store, "-o", os.DevNull, in}
		code, _, stderr := runCmd(t, append(fill(), args...)...)
		if code == 0 || !strings.Contains(stderr, "full") {
			t.Fatalf("filling run: exit %d, stderr %q; want a full store", code, stderr)
		}
		got := storedURLs(t, store)
		if len(got) == 0 || len(got) >= len(want) {
			t.Fatalf("the filling run stored %d of %d docs; the test needs a failure midway", len(got), len(want))
		}
		t.Logf("filled after %d of %d docs: %s", len(got), len(want), strings.TrimSpace(stderr))
		code, _, stderr = runCmd(t, append(free(), args...)...)
		if code != 0 {
			t.Fatalf("run after freeing space: exit %d: %s", code, stderr)
		}
		got = storedURLs(t, store)
		if !slices.Equal(got, want) {
			missing := 0
			for _, u := range want {
				if _, ok := slices.BinarySearch(got, u); !ok {
					missing++
				}
			}
			t.Errorf("after freeing space: %d docs stored, %d missing; a clean run stores %d", len(got), missing, len(want))
		}
	}

	t.Run("store-max-size", func(t *testing.T) {
		check(t, filepath.Join(t.TempDir(), "kb.sqlite"),
			func() []string { return []string{"--store-max-size", "1200KiB"} },
			func() []string { return nil })
	})
	t.Run("tmpfs", func(t *testing.T) {
		mnt := t.TempDir()
		if os.Getuid() != 0 {
			t.Skip("mounting a tmpfs needs root; the store-max-size case covers the same failure")
		}
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1536k", "tmpfs", mnt).CombinedOutput(); err != nil {
			t.Skipf("no tmpfs here (%v: %s); the store-max-size case covers the same failure", err, out)
		}
		t.Cleanup(func() { exec.Command("umount", mnt).Run() })
		check(t, filepath.Join(mnt, "kb.sqlite"),
			func() []string { return nil },
			func() []string {
				if out, err := exec.Command("mount", "-o", "remount,size=64m", mnt).CombinedOutput(); err != nil {
					t.Fatalf("remount: %v: %s", err, out)
				}
				return nil
			})
	})
}
