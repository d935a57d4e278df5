package dedup

import (
	"path/filepath"
	"testing"
)

// TestIndexDeferredCommit: a Deferred index writes only what was
// committed; rolled-back records never reach the file.
func TestIndexDeferredCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.idx")
	x, err := OpenIndex(path, testParams)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Replay(func(GroupRecord) error { return nil }, func(int32, []uint64, []uint64) error { return nil }); err != nil {
		t.Fatal(err)
	}
	x.Deferred = true
	x.Group(GroupRecord{ID: 0, URL: "http://a.example/", Exact: []uint64{1}})
	mark := x.Mark()
	x.Group(GroupRecord{ID: 1, URL: "http://b.example/", Exact: []uint64{2}})
	if err := x.CommitTo(mark); err != nil {
		t.Fatal(err)
	}
	x.Group(GroupRecord{ID: 2, URL: "http://c.example/", Exact: []uint64{3}})
	x.Rollback() // b and c: their store failed
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}

	x, err = OpenIndex(path, testParams)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var urls []string
	if err := x.Replay(func(g GroupRecord) error { urls = append(urls, g.URL); return nil },
		func(int32, []uint64, []uint64) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if len(urls) != 1 || urls[0] != "http://a.example/" || x.Truncated != 0 {
		t.Errorf("replayed %v (truncated %d), want only a", urls, x.Truncated)
	}
}
