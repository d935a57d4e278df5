package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A follower whose pages never come back (a later stage of the loop died
// without closing seed next's own output) ends with an error after
// --stall-timeout instead of waiting for its leases.
func TestSeedNextStall(t *testing.T) {
	db := filepath.Join(t.TempDir(), "crawl.db")
	var in strings.Builder
	for i := range 20 {
		fmt.Fprintf(&in, "http://a%d.example/\n", i)
	}
	if r := runSeed(t, in.String(), nil, "add", "--db", db); r.code != 0 {
		t.Fatalf("seed add: exit %d: %s", r.code, r.stderr)
	}
	start := time.Now()
	done := make(chan result, 1)
	go func() {
		done <- runSeed(t, "", nil, "next", "--db", db, "--follow", "--in-flight", "5", "--stall-timeout", "500ms", "-q")
	}()
	select {
	case r := <-done:
		if r.code == 0 || !strings.Contains(r.stderr, "none came back") {
			t.Fatalf("exit %d, stderr %q: want an error naming the stall", r.code, r.stderr)
		}
		if n := strings.Count(r.stdout, "\n"); n != 5 {
			t.Errorf("%d URLs leased, want the window of 5", n)
		}
		if d := time.Since(start); d < 500*time.Millisecond {
			t.Errorf("ended after %v, before the bound", d)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("seed next --follow still waits for its leases after 20s")
	}
}
