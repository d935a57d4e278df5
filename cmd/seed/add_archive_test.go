package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// seed add --archive keeps every record it reads; a run killed while it
// wrote leaves its last frame cut, which the next run removes before it
// appends, and says so: the archive reads back whole.
func TestSeedAddArchive(t *testing.T) {
	dir := t.TempDir()
	db, archive := filepath.Join(dir, "crawl.db"), filepath.Join(dir, "scored.jsonl.zst")
	docs := func(run string, n int) (string, []string) {
		var b strings.Builder
		var lines []string
		for i := range n {
			l := fmt.Sprintf(`{"url":"http://a.example/%s/%d","status":200,"score":0.5,"relevant":true,"links":[]}`, run, i)
			b.WriteString(l + "\n")
			lines = append(lines, l)
		}
		return b.String(), lines
	}
	in1, first := docs("first", 50)
	in2, second := docs("second", 50)
	if r := runSeed(t, in1, nil, "add", "--db", db, "--archive", archive); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	st, err := os.Stat(archive)
	if err != nil {
		t.Fatal(err)
	}
	// The first run's last frame loses its end, as when the writer dies.
	if err := os.Truncate(archive, st.Size()-5); err != nil {
		t.Fatal(err)
	}
	r := runSeed(t, in2, nil, "add", "--db", db, "--archive", archive)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "its last zstd frame was cut") {
		t.Errorf("the removal of the cut frame is not said: %q", r.stderr)
	}
	var warn strings.Builder
	rd := jsonl.NewReader([]string{archive}, nil)
	rd.Warnings = &warn
	var got []string
	for {
		l, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("reading the archive: %v", err)
		}
		got = append(got, string(l.Bytes))
	}
	if d := rd.Damage(); d.Frames != 0 || warn.String() != "" {
		t.Fatalf("the archive is not whole after the second run: damage %+v, warnings %q", d, warn.String())
	}
	if len(got) < len(second) || strings.Join(got[len(got)-len(second):], "\n") != strings.Join(second, "\n") {
		t.Fatalf("the second run's records are not all in the archive after the cut frame: %d lines", len(got))
	}
	for i, l := range got[:len(got)-len(second)] {
		if l != first[i] {
			t.Fatalf("line %d: %q, want %q", i, l, first[i])
		}
	}
	if st := frontierStats(t, db); st.States["done"] != 100 {
		t.Fatalf("%d pages done, want 100", st.States["done"])
	}
}

// Only the lines seed add accepts reach the archive: a record cut by a
// killed writer (the last line of its pipe, without its end) is rejected
// by name and kept out, so that every reader can parse every archived line.
func TestSeedAddArchivesOnlyAcceptedLines(t *testing.T) {
	dir := t.TempDir()
	db, archive := filepath.Join(dir, "crawl.db"), filepath.Join(dir, "scored.jsonl.zst")
	var in strings.Builder
	var want []string
	for i := range 5 {
		l := fmt.Sprintf(`{"url":"http://a.example/%d","status":200,"score":0.5,"relevant":true,"links":[]}`, i)
		in.WriteString(l + "\n")
		want = append(want, l)
	}
	in.WriteString("# a comment\n")
	in.WriteString(`{"url":"http://a.example/cut","status":200,"score":0.5,"rele`) // cut by a kill
	r := runSeed(t, in.String(), nil, "add", "--db", db, "--archive", archive)
	if r.code != 3 || !strings.Contains(r.stderr, "stdin:7:") {
		t.Fatalf("a cut line: exit %d (want 3), stderr %q", r.code, r.stderr)
	}
	rd := jsonl.NewReader([]string{archive}, nil)
	var got []string
	for {
		l, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("reading the archive: %v", err)
		}
		got = append(got, string(l.Bytes))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("archive holds %d lines:\n%s\nwant the %d accepted ones", len(got), strings.Join(got, "\n"), len(want))
	}
}

// One writer per archive: seed add refuses an archive another process is
// appending to, naming it, and --archive-next-free takes FILE-2 instead.
func TestSeedAddArchiveOneWriter(t *testing.T) {
	dir := t.TempDir()
	db, archive := filepath.Join(dir, "crawl.db"), filepath.Join(dir, "crawl.jsonl.zst")
	held, err := jsonl.Append(archive) // the other loop's seed add
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	doc := `{"url":"http://a.example/1","status":200,"score":0.5,"relevant":true,"links":[]}` + "\n"
	r := runSeed(t, doc, nil, "add", "--db", db, "--archive", archive)
	if r.code != 1 || !strings.Contains(r.stderr, archive) || !strings.Contains(r.stderr, "another process is appending") {
		t.Fatalf("a taken archive: exit %d, stderr %q", r.code, r.stderr)
	}
	r = runSeed(t, doc, nil, "add", "--db", db, "--archive", archive, "--archive-next-free")
	second := filepath.Join(dir, "crawl-2.jsonl.zst")
	if r.code != 0 || !strings.Contains(r.stderr, "appending to "+second) {
		t.Fatalf("--archive-next-free: exit %d, stderr %q", r.code, r.stderr)
	}
	if st, err := os.Stat(second); err != nil || st.Size() == 0 {
		t.Fatalf("%s: %v", second, err)
	}
}
