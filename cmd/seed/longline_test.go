package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// TestAddOverLongLineClosesURL: a scored line over the reader's cap
// still marks its URL done (with an error), so seed next does not lease
// it again; the leased URL is not handed out a second time.
func TestAddOverLongLineClosesURL(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "crawl.db")
	if r := runSeed(t, "http://big.example/p\n", nil, "add", "--db", db); r.code != 0 {
		t.Fatalf("seed add: %d %s", r.code, r.stderr)
	}
	if got := nextURLs(t, db, "-n", "1"); len(got) != 1 {
		t.Fatalf("leased %v", got)
	}
	link := `{"url":"http://big.example/x","anchor":"x","context":"` + strings.Repeat("c", 200) + `"},`
	big := `{"url":"http://big.example/p","status":200,"score":0.5,"relevant":true,"links":[` +
		strings.Repeat(link, jsonl.DefaultMaxLine/len(link)+1) + "]}\n"
	p := filepath.Join(dir, "scored.jsonl")
	if err := os.WriteFile(p, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runSeed(t, "", nil, "add", "--db", db, p)
	if r.code != cli3 || !strings.Contains(r.stderr, "line too long") || len(r.stderr) > 2000 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	st := frontierStats(t, db)
	if st.Fetched != 1 {
		t.Errorf("the URL of the over-long line is not done: %+v", st.States)
	}
	if got := nextURLs(t, db, "--renew-for", "0s"); len(got) != 0 {
		t.Errorf("leased again: %v", got)
	}
}

// TestAddBadJSONMessages: deep nesting and invalid UTF-8 in a JSON url
// get the errors the other stages give.
func TestAddBadJSONMessages(t *testing.T) {
	db := filepath.Join(t.TempDir(), "crawl.db")
	deep := `{"status":200,"url":"http://x.example/","meta":` + strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + "}"
	in := deep + "\n" + "{\"url\":\"http://y.example/\xff\"}\n"
	r := runSeed(t, in, nil, "add", "--db", db)
	if r.code != cli3 || !strings.Contains(r.stderr, "stdin:1: invalid JSON at byte") || !strings.Contains(r.stderr, "exceeded max depth") ||
		!strings.Contains(r.stderr, "stdin:2: invalid UTF-8 at byte") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	if st := frontierStats(t, db); st.Total != 0 {
		t.Errorf("queued %d URLs", st.Total)
	}
}
