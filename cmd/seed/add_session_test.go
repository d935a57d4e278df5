package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// A forum hands out a new session id on every page: seed add must queue
// each thread once, under its URL without the id, and mark the page done
// under that URL too; --keep-session-ids turns this off.
func TestSeedAddStripsSessionIDs(t *testing.T) {
	doc := func(url, sid string) string {
		return fmt.Sprintf(`{"url":%q,"status":200,"score":0.8,"relevant":true,"depth":0,"links":[`+
			`{"url":"http://bbs.a.example/thread-1-1-1.html?sid=%s","priority":0.9,"block":1},`+
			`{"url":"http://bbs.a.example/forum.php?mod=list&sid=%s&page=2","priority":0.8,"block":1}]}`, url, sid, sid)
	}
	for _, tt := range []struct {
		name   string
		flags  []string
		queued []string
	}{
		{"stripped", nil, []string{
			"http://bbs.a.example/thread-1-1-1.html",
			"http://bbs.a.example/forum.php?mod=list&page=2"}},
		{"kept", []string{"--keep-session-ids"}, []string{
			"http://bbs.a.example/thread-1-1-1.html?sid=aa11",
			"http://bbs.a.example/forum.php?mod=list&sid=aa11&page=2",
			"http://bbs.a.example/thread-1-1-1.html?sid=bb22",
			"http://bbs.a.example/forum.php?mod=list&sid=bb22&page=2"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "crawl.db")
			in := doc("http://bbs.a.example/?sid=aa11", "aa11") + "\n" + doc("http://bbs.a.example/?sid=bb22", "bb22") + "\n"
			r := runSeed(t, in, nil, append([]string{"add", "--db", db}, tt.flags...)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var got []string
			for _, u := range nextURLs(t, db, "-n", "10", "--per-host", "0") {
				got = append(got, u.URL)
			}
			sort.Strings(got)
			sort.Strings(tt.queued)
			if strings.Join(got, " ") != strings.Join(tt.queued, " ") {
				t.Errorf("queued %v, want %v", got, tt.queued)
			}
			st := frontierStats(t, db)
			wantDone := int64(1)
			if tt.flags != nil {
				wantDone = 2
			}
			if st.States["done"] != wantDone {
				t.Errorf("%d pages done, want %d (the home page under its URL without sid)", st.States["done"], wantDone)
			}
		})
	}
}
