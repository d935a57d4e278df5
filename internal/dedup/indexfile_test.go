package dedup

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/text"
)

const testParams = "fingerprint=test shingle=1"

// runIndexed runs docs through a Deduper journaled to the index at path.
func runIndexed(t *testing.T, path string, docs ...*record.ScoredDoc) ([]string, Stats) {
	t.Helper()
	x, err := OpenIndex(path, testParams)
	if err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	o.EmitDups = true
	d, err := New(o, x)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Replay(d.Restore, d.RestoreAlias); err != nil {
		t.Fatal(err)
	}
	f := newFP()
	var outs []Out
	for _, sd := range docs {
		if outs, err = d.Add(outs, NewItem(f, sd)); err != nil {
			t.Fatal(err)
		}
	}
	if outs, err = d.Flush(outs); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range outs {
		if o.Kept {
			got = append(got, o.Rec.URL)
		} else {
			got = append(got, o.Rec.URL+">"+o.Rec.DuplicateOf)
		}
	}
	return got, d.Stats()
}

// TestIndexAcrossRuns: a second run drops copies of the first run's
// records (by URL, alias URL, exact text and near text) and keeps new ones.
func TestIndexAcrossRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kb.idx")
	got, _ := runIndexed(t, path,
		doc("http://a/1", textA, 0, ""), doc("http://b/1", textB, 0, ""), doc("http://a/mirror", textA, 0, ""))
	if want := []string{"http://a/1", "http://a/mirror>http://a/1", "http://b/1"}; !slices.Equal(got, want) {
		t.Fatalf("run 1: %v, want %v", got, want)
	}
	got, st := runIndexed(t, path,
		doc("http://b/1", "changed since", 0, ""),         // same URL
		doc("http://a/mirror", "also changed", 0, ""),     // URL of a dropped copy (alias)
		doc("http://c/1", textB, 0, ""),                   // same text
		doc("http://d/1", text.Traditional(textA), 0, ""), // near copy
		doc("http://e/1", textE, 0, ""),                   // new
		doc("http://f/1", text.Traditional(textB), 0, ""), // near copy: its text is remembered
	)
	want := []string{"http://b/1>http://b/1", "http://a/mirror>http://a/1", "http://c/1>http://b/1", "http://d/1>http://a/1", "http://f/1>http://b/1", "http://e/1"}
	if !slices.Equal(got, want) {
		t.Fatalf("run 2: %v, want %v", got, want)
	}
	if st.Earlier != 5 {
		t.Fatalf("run 2: %d copies of earlier runs, want 5", st.Earlier)
	}
	// Run 3 knows run 2's record, the URL added to b/1 in run 2, and the
	// exact text of run 2's near copy.
	got, st = runIndexed(t, path, doc("http://c/1", "x", 0, ""), doc("http://e/1", "y", 0, ""), doc("http://g/1", text.Traditional(textB), 0, ""))
	if want := []string{"http://c/1>http://b/1", "http://e/1>http://e/1", "http://g/1>http://b/1"}; !slices.Equal(got, want) || st.ByExact != 1 {
		t.Fatalf("run 3: %v (%+v), want %v with one exact match", got, st, want)
	}
}

// TestIndexParts: the parts of a group are kept in the index, so a later
// run finds a copy that lost a paragraph, and the whole text of a copy
// stored without one.
func TestIndexParts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kb.idx")
	runIndexed(t, path, doc("http://a/1", textAshort, 0, ""), doc("http://b/1", join(without(otherZH, 3)...), 0, ""))
	got, st := runIndexed(t, path, doc("http://a/2", join(without(articleZH, 1)...), 0, ""), doc("http://b/2", textB, 0, ""))
	if want := []string{"http://a/2>http://a/1", "http://b/2>http://b/1"}; !slices.Equal(got, want) || st.ByNear != 2 {
		t.Fatalf("run 2: %v (%+v), want %v as near copies", got, st, want)
	}
}

func TestIndexLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kb.idx")
	x, err := OpenIndex(path, testParams)
	if err != nil {
		t.Fatal(err)
	}
	_, err = OpenIndex(path, testParams)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "cannot overlap") {
		t.Fatalf("second open: %v, want ErrLocked", err)
	}
	x.Close()
	y, err := OpenIndex(path, testParams)
	if err != nil {
		t.Fatalf("open after close: %v", err)
	}
	y.Close()
}

func TestIndexDamagedTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kb.idx")
	runIndexed(t, path, doc("http://a/1", textA, 0, ""), doc("http://b/1", textB, 0, ""))
	whole, _ := os.ReadFile(path)
	// A crash in the middle of the last record: cut it.
	if err := os.WriteFile(path, whole[:len(whole)-3], 0o644); err != nil {
		t.Fatal(err)
	}
	x, _ := OpenIndex(path, testParams)
	d, _ := New(DefaultOptions(), x)
	if err := x.Replay(d.Restore, d.RestoreAlias); err != nil {
		t.Fatal(err)
	}
	if d.Groups() != 1 || x.Truncated == 0 {
		t.Fatalf("%d groups, %d bytes cut; want 1 group and a cut", d.Groups(), x.Truncated)
	}
	x.Close()
	if st, _ := os.Stat(path); st.Size() >= int64(len(whole)) {
		t.Fatalf("damaged tail not cut: %d bytes", st.Size())
	}
	// The next run appends after the good records.
	got, _ := runIndexed(t, path, doc("http://b/2", textB, 0, ""), doc("http://a/2", textA, 0, ""))
	if want := []string{"http://a/2>http://a/1", "http://b/2"}; !slices.Equal(got, want) {
		t.Fatalf("after repair: %v, want %v", got, want)
	}
}

func TestIndexRefusesOthers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "kb.idx")
	runIndexed(t, path, doc("http://a/1", textA, 0, ""))
	x, _ := OpenIndex(path, "fingerprint=other shingle=2")
	d, _ := New(DefaultOptions(), x)
	err := x.Replay(d.Restore, d.RestoreAlias)
	x.Close()
	if err == nil || !strings.Contains(err.Error(), "was made with") {
		t.Fatalf("params mismatch: %v", err)
	}
	other := filepath.Join(dir, "notes.txt")
	os.WriteFile(other, []byte("some notes\n"), 0o644)
	x, _ = OpenIndex(other, testParams)
	err = x.Replay(d.Restore, d.RestoreAlias)
	x.Close()
	if err == nil || !strings.Contains(err.Error(), "not a dedupe index") {
		t.Fatalf("foreign file: %v", err)
	}
}
