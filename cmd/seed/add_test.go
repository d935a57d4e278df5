package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// frontierStats runs seed stats --json on db, with args.
func frontierStats(t *testing.T, db string, args ...string) frontier.Stats {
	t.Helper()
	r := runSeed(t, "", nil, append([]string{"stats", "--db", db, "--json"}, args...)...)
	if r.code != 0 {
		t.Fatalf("seed stats %v: exit %d: %s", args, r.code, r.stderr)
	}
	var st frontier.Stats
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
		t.Fatalf("seed stats --json: %v\n%s", err, r.stdout)
	}
	return st
}

func nextURLs(t *testing.T, db string, args ...string) []record.URL {
	t.Helper()
	r := runSeed(t, "", nil, append([]string{"next", "--db", db}, args...)...)
	if r.code != 0 {
		t.Fatalf("seed next: exit %d: %s", r.code, r.stderr)
	}
	var out []record.URL
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		if line == "" {
			continue
		}
		var u record.URL
		if err := json.Unmarshal([]byte(line), &u); err != nil {
			t.Fatalf("seed next wrote %q: %v", line, err)
		}
		out = append(out, u)
	}
	return out
}

func TestSeedAddScopeGuardsAndPriorities(t *testing.T) {
	db := filepath.Join(t.TempDir(), "crawl.db")
	seeds := strings.Join([]string{
		"http://a.example.cn/",
		`{"url":"http://b.example.cn/start","priority":0.4,"meta":{"from":"list"}}`,
		"# a comment",
		"not a url",
		`{"site":"x.cn","relevant":true,"good_pages":1,"pages_fetched":2}`,
	}, "\n")
	r := runSeed(t, seeds, nil, "add", "--db", db)
	if r.code != cli3 {
		t.Fatalf("exit %d, want 3 for the rejected lines: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "stdin:4:") || !strings.Contains(r.stderr, "stdin:5: a verdict record") {
		t.Errorf("rejections not reported by line: %s", r.stderr)
	}
	scored := record.ScoredDoc{Score: 0.9, Relevant: true}
	scored.URL, scored.Status, scored.Depth = "http://a.example.cn/", 200, 0
	for i, l := range []struct {
		url    string
		prio   float64
		pruned bool
	}{
		{"http://a.example.cn/news/1", 0.8, false},
		{"http://a.example.cn/news/2", 0.3, false},
		{"http://other.example.org/x", 0.9, false},        // out of host scope
		{"http://a.example.cn/a/b/a/b/a", 0.9, false},     // repeated segments
		{"http://a.example.cn/q?a=1&b=2&c=3", 0.9, false}, // too many parameters
		{"http://a.example.cn/low", 0.1, true},            // pruned by score
		{"http://a.example.cn/cal/2024/01", 0.9, false},   // denied
	} {
		sl := record.ScoredLink{Priority: l.prio, Pruned: l.pruned}
		sl.URL, sl.Block, sl.Anchor = l.url, i, fmt.Sprint("anchor ", i)
		scored.Links = append(scored.Links, sl)
	}
	line, _ := json.Marshal(scored)
	// The same link seen again from another page with a better priority.
	doc2 := `{"url":"http://a.example.cn/other","status":200,"score":0.2,"relevant":false,"depth":1,` +
		`"links":[{"url":"http://a.example.cn/news/2","priority":0.7,"block":1},{"url":"http://a.example.cn/news/1","priority":0.1,"block":1}]}`
	r = runSeed(t, string(line)+"\n"+doc2+"\n", nil, "add", "--db", db, "--scope", "host",
		"--max-query-params", "2", "--deny", `/cal/\d{4}/`, "--max-depth", "3")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	st := frontierStats(t, db)
	wantRefused := map[string]int64{"scope": 1, "repeated-segments": 1, "max-query-params": 1, "pruned": 0, "deny": 1}
	for k, v := range wantRefused {
		if st.Refused[k] != v {
			t.Errorf("refused %s = %d, want %d (all: %v)", k, st.Refused[k], v, st.Refused)
		}
	}
	if st.States["done"] != 2 || st.Relevant != 1 || st.HarvestRate != 0.5 || st.States["reserve"] != 1 {
		t.Errorf("stats %+v, want 2 done, 1 relevant, the pruned link in the reserve", st)
	}
	us := nextURLs(t, db, "-n", "10", "--per-host", "0")
	var order []string
	prio := map[string]float64{}
	for _, u := range us {
		order = append(order, strings.TrimPrefix(u.URL, "http://"))
		prio[u.URL] = u.Priority
	}
	want := "[a.example.cn/news/1 a.example.cn/news/2 b.example.cn/start]"
	if fmt.Sprint(order) != want {
		t.Errorf("leased %v, want %s (a.example.cn/ is done; news/2 raised to 0.7 above the seed's 0.4)", order, want)
	}
	if prio["http://a.example.cn/news/2"] != 0.7 || prio["http://a.example.cn/news/1"] != 0.8 {
		t.Errorf("priorities %v: the best sighting must win", prio)
	}
	for _, u := range us {
		if u.URL == "http://a.example.cn/news/1" && (u.Parent != "http://a.example.cn/" || u.Anchor != "anchor 0" || u.Depth != 1) {
			t.Errorf("lineage of news/1: %+v", u)
		}
		if u.URL == "http://b.example.cn/start" && string(u.Meta) != `{"from":"list"}` {
			t.Errorf("meta not kept: %s", u.Meta)
		}
	}
}

// TestSeedAddPruned: the links score pruned go to the reserve by default;
// --pruned queue and drop, and the old --keep-pruned, do what they did.
func TestSeedAddPruned(t *testing.T) {
	doc := `{"url":"http://a.cn/","status":200,"score":0.1,"relevant":false,"depth":0,"links":[` +
		`{"url":"http://a.cn/kept","priority":0.3},{"url":"http://a.cn/pruned","priority":0.1,"pruned":true}]}` + "\n"
	for _, tt := range []struct {
		args                    []string
		queued, reserve, pruned int64
		warn                    string
	}{
		{nil, 1, 1, 0, ""},
		{[]string{"--pruned", "reserve"}, 1, 1, 0, ""},
		{[]string{"--pruned", "queue"}, 2, 0, 0, ""},
		{[]string{"--pruned", "drop"}, 1, 0, 1, ""},
		{[]string{"--keep-pruned"}, 2, 0, 0, "--keep-pruned=true is deprecated: write --pruned queue"},
		{[]string{"--keep-pruned=false"}, 1, 0, 1, "--keep-pruned=false is deprecated: write --pruned drop"},
		{[]string{"--keep-pruned", "--pruned", "queue"}, 2, 0, 0, "deprecated"},
	} {
		// (A subtest with an empty name would have a # in its directory,
		// which the SQLite file name does not take.)
		t.Run("args "+strings.Join(tt.args, " "), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "crawl.db")
			r := runSeed(t, doc, nil, append([]string{"add", "--db", db}, tt.args...)...)
			if r.code != 0 || !strings.Contains(r.stderr, tt.warn) {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			st := frontierStats(t, db)
			if st.States["queued"] != tt.queued || st.States["reserve"] != tt.reserve || st.Refused["pruned"] != tt.pruned {
				t.Errorf("states %v, refused %v: want %d queued, %d in the reserve, %d refused as pruned",
					st.States, st.Refused, tt.queued, tt.reserve, tt.pruned)
			}
		})
	}
	r := runSeed(t, doc, nil, "add", "--db", filepath.Join(t.TempDir(), "x.db"), "--keep-pruned", "--pruned", "drop")
	if r.code != 2 || !strings.Contains(r.stderr, "--keep-pruned=true says --pruned queue, but --pruned says drop") {
		t.Errorf("conflicting flags: exit %d: %s", r.code, r.stderr)
	}
	r = runSeed(t, doc, nil, "add", "--db", filepath.Join(t.TempDir(), "y.db"), "--pruned", "keep")
	if r.code != 2 || !strings.Contains(r.stderr, `--pruned: "keep" is not reserve, queue or drop`) {
		t.Errorf("a bad value: exit %d: %s", r.code, r.stderr)
	}
}

// TestSeedNextReserve: seed next -n leases the reserve only with --reserve,
// and only once nothing else is queued or out.
func TestSeedNextReserve(t *testing.T) {
	db := filepath.Join(t.TempDir(), "crawl.db")
	doc := `{"url":"http://a.cn/","status":200,"score":0.1,"relevant":false,"depth":0,"links":[` +
		`{"url":"http://a.cn/kept","priority":0.3},{"url":"http://a.cn/pruned","priority":0.1,"pruned":true}]}` + "\n"
	if r := runSeed(t, doc, nil, "add", "--db", db); r.code != 0 {
		t.Fatalf("seed add: exit %d: %s", r.code, r.stderr)
	}
	leased := func(args ...string) string {
		var urls []string
		for _, u := range nextURLs(t, db, append([]string{"-n", "10"}, args...)...) {
			urls = append(urls, u.URL)
		}
		return fmt.Sprint(urls)
	}
	if got := leased("--reserve"); got != "[http://a.cn/kept]" {
		t.Fatalf("leased %s, want the kept link alone", got)
	}
	if got := leased("--reserve"); got != "[]" {
		t.Fatalf("leased %s while a.cn/kept is out", got)
	}
	if r := runSeed(t, `{"url":"http://a.cn/kept","status":200}`+"\n", nil, "add", "--db", db); r.code != 0 {
		t.Fatalf("seed add: exit %d: %s", r.code, r.stderr)
	}
	if got := leased(); got != "[]" {
		t.Fatalf("leased %s without --reserve", got)
	}
	if got := leased("--reserve"); got != "[http://a.cn/pruned]" {
		t.Fatalf("leased %s, want the reserve", got)
	}
}

// cli3 is the exit code for rejected lines.
const cli3 = 3

func TestSeedNextPerHostAndStats(t *testing.T) {
	db := filepath.Join(t.TempDir(), "crawl.db")
	var in strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&in, `{"url":"http://h%d.cn/%d","priority":%.2f}`+"\n", i%3, i, 0.1+float64(i)/100)
	}
	if r := runSeed(t, in.String(), nil, "add", "--db", db); r.code != 0 {
		t.Fatalf("add: %d %s", r.code, r.stderr)
	}
	us := nextURLs(t, db, "-n", "12", "--per-host", "2")
	if len(us) != 6 {
		t.Fatalf("leased %d, want 6 (2 per host, 3 hosts)", len(us))
	}
	for _, u := range us[:3] {
		if u.Priority < 0.36 {
			t.Errorf("%s priority %v: the best URLs must come first", u.URL, u.Priority)
		}
	}
	st := frontierStats(t, db)
	if st.States["leased"] != 6 || st.States["queued"] != 24 || st.Hosts != 3 {
		t.Errorf("stats %+v", st)
	}
	r := runSeed(t, "", nil, "stats", "--db", db)
	for _, want := range []string{"queued", "harvest rate", "h0.cn", "depth"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stats table lacks %q:\n%s", want, r.stdout)
		}
	}
	if r := runSeed(t, "", nil, "next", "--db", db, "-n", "0"); r.code != 2 {
		t.Errorf("-n 0: exit %d, want 2", r.code)
	}
	if r := runSeed(t, "", nil, "add", "--db", db, "--scope", "planet"); r.code != 2 || !strings.Contains(r.stderr, "--scope") {
		t.Errorf("--scope planet: exit %d %s", r.code, r.stderr)
	}
	if r := runSeed(t, "", nil, "add", "--db", db, "--deny", "("); r.code != 2 || !strings.Contains(r.stderr, "--deny") {
		t.Errorf("--deny (: exit %d %s", r.code, r.stderr)
	}
}

func TestSeedAddHostLibraryAndHostCap(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "crawl.db")
	topicFile := filepath.Join(dir, "t.yaml")
	if err := os.WriteFile(topicFile, []byte("name: t\ndescription: 林业\nhosts:\n  - {host: '*.forestry.gov.cn', rank: national}\n  - {host: lyj.example.cn, rank: city}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := strings.Join([]string{
		"http://www.forestry.gov.cn/",
		"http://forestry.gov.cn/a",
		"http://lyj.example.cn/1",
		"http://lyj.example.cn/2",
		"http://lyj.example.cn/3",
		"http://www.example.cn/",
		"http://shop.example.com/",
	}, "\n")
	r := runSeed(t, in, nil, "add", "--db", db, "--hosts-from-topic", topicFile, "--max-per-host", "2")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	st := frontierStats(t, db)
	if st.States["queued"] != 4 || st.Refused["host-library"] != 2 || st.Refused["max-per-host"] != 1 {
		t.Errorf("queued %d, refused %v; want 4 queued, 2 off the library, 1 over the host cap", st.States["queued"], st.Refused)
	}
	if !strings.Contains(r.stderr, "host-library 2") || !strings.Contains(r.stderr, "max-per-host 1") {
		t.Errorf("summary lacks the refusals: %s", r.stderr)
	}
	if r := runSeed(t, "", nil, "add", "--db", db, "--hosts-from-topic", filepath.Join(dir, "missing.yaml")); r.code != 2 {
		t.Errorf("missing profile: exit %d, want 2", r.code)
	}
}
