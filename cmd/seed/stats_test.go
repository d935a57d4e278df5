package main

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestSeedStatsBrief: seed stats --brief prints the counts of seed stats
// without the top hosts and the error kinds, as a table and as JSON.
func TestSeedStatsBrief(t *testing.T) {
	db := filepath.Join(t.TempDir(), "crawl.db")
	in := strings.Join([]string{
		"http://a.example.cn/", "http://a.example.cn/next", "http://b.example.cn/",
		`{"url":"http://c.example.cn/1","status":404,"error":"http 404"}`,
		`{"url":"http://c.example.cn/2","status":0,"error":"connect: connection refused"}`,
	}, "\n")
	if r := runSeed(t, in, nil, "add", "--db", db); r.code != 0 {
		t.Fatalf("seed add: exit %d: %s", r.code, r.stderr)
	}
	full, brief := frontierStats(t, db), frontierStats(t, db, "--brief")
	if len(full.TopHosts) != 3 || len(full.Errors) != 2 || full.States["failed"] != 2 {
		t.Fatalf("seed stats: top hosts %+v, errors %v, states %v", full.TopHosts, full.Errors, full.States)
	}
	if brief.TopHosts != nil || brief.Errors != nil {
		t.Errorf("seed stats --brief: top hosts %+v, errors %v, want none", brief.TopHosts, brief.Errors)
	}
	full.TopHosts, full.Errors = nil, nil
	if !reflect.DeepEqual(brief, full) {
		t.Errorf("seed stats --brief counts\n%+v\nwant seed stats'\n%+v", brief, full)
	}

	table := func(args ...string) string {
		t.Helper()
		r := runSeed(t, "", nil, append([]string{"stats", "--db", db}, args...)...)
		if r.code != 0 {
			t.Fatalf("seed stats %v: exit %d: %s", args, r.code, r.stderr)
		}
		return r.stdout
	}
	fullTable, briefTable := table(), table("--brief")
	for _, part := range []string{"host  ", "error kind"} {
		if !strings.Contains(fullTable, part) || strings.Contains(briefTable, part) {
			t.Errorf("%q: want it in seed stats only\nseed stats:\n%s\nseed stats --brief:\n%s", part, fullTable, briefTable)
		}
	}
	for _, line := range []string{"URLs", "  failed", "harvest rate", "depth"} {
		if !strings.Contains(briefTable, line) {
			t.Errorf("seed stats --brief lacks %q:\n%s", line, briefTable)
		}
	}
	if r := runSeed(t, "", nil, "stats", "--db", db, "--brief", "--top", "3"); r.code != 2 || !strings.Contains(r.stderr, "--brief") {
		t.Errorf("--brief --top 3: exit %d, %s; want a usage error", r.code, r.stderr)
	}
}
