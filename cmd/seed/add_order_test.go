package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestSeedAddKeepsInputOrder: with many parse workers, the URLs still
// reach the frontier in input order, so seed next hands out URLs of equal
// priority and depth first come, first served (an unordered pool of
// workers shuffles them).
func TestSeedAddKeepsInputOrder(t *testing.T) {
	db := filepath.Join(t.TempDir(), "crawl.db")
	const n = 3000
	var in strings.Builder
	var want []string
	for i := range n {
		u := fmt.Sprintf("http://h%d.example/%d", i%50, i)
		want = append(want, u)
		fmt.Fprintf(&in, "%s\n", u)
	}
	if r := runSeed(t, in.String(), []string{"GOMAXPROCS=8"}, "add", "--db", db); r.code != 0 {
		t.Fatalf("seed add: %d %s", r.code, r.stderr)
	}
	got := nextURLs(t, db, "-n", fmt.Sprint(n), "--per-host", "0")
	if len(got) != n {
		t.Fatalf("leased %d URLs, want %d", len(got), n)
	}
	for i, u := range got {
		if u.URL != want[i] {
			t.Fatalf("lease %d is %s, want %s: the records did not reach the frontier in input order", i, u.URL, want[i])
		}
	}
}
