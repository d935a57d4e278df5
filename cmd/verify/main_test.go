package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/simweb/simwebtest"
)

const profile = "../../examples/topics/bookstores.yaml"

func runVerify(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	app := newApp()
	var out, errw bytes.Buffer
	app.Reader = strings.NewReader(stdin)
	app.Writer = &out
	code := cli.Run(app, append([]string{"verify"}, args...), &errw)
	return out.String(), errw.String(), code
}

func verdicts(t *testing.T, stdout string) map[string]record.Verdict {
	t.Helper()
	out := map[string]record.Verdict{}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var v record.Verdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("bad output line %q: %v", sc.Text(), err)
		}
		if k, _ := record.Sniff(sc.Bytes()); k != record.KindVerdict {
			t.Fatalf("output line is a %s: %s", k, sc.Text())
		}
		if _, dup := out[v.Site]; dup {
			t.Fatalf("two verdicts for %s", v.Site)
		}
		out[v.Site] = v
	}
	return out
}

// TestVerifyCommand runs verify on simweb: several URLs of a bookstore
// (one verdict), a shop, a forum, a host that does not exist, bad lines;
// --pages keeps the pages fetched.
func TestVerifyCommand(t *testing.T) {
	web := simwebtest.Serve(t)
	store, shop, forum := web.Store, web.Shop, web.Forum
	input := strings.Join([]string{
		`{"url":"` + store.Home + `about.html","meta":{"rank":4}}`,
		shop.Home,
		"# comment",
		`{"url":"` + store.Home + `","meta":{"rank":1,"engines":["x"]}}`,
		`{"url": broken`,
		forum.Home,
		"mailto:someone@example.com",
		"http://no-such-host.test/",
		store.Home + "about.html",
		"",
	}, "\n")
	dir := t.TempDir()
	pagesPath := filepath.Join(dir, "pages.jsonl.gz")
	stdout, stderr, code := runVerify(t, input, "--topic", profile, "--proxy", web.Proxy, "--delay", "0",
		"--retries", "0", "--max-crawl-delay", "0", "--pages", pagesPath, "-c", "3")
	if code != cli.ExitRejected {
		t.Fatalf("exit %d, want %d (rejected lines); stderr:\n%s", code, cli.ExitRejected, stderr)
	}
	for _, want := range []string{"stdin:5:", "stdin:7: not an http(s) URL with a host", "4 of 4 sites verified", "1 relevant", "1 failed"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	vs := verdicts(t, stdout)
	if len(vs) != 4 {
		t.Fatalf("%d verdicts, want 4:\n%s", len(vs), stdout)
	}
	if v := vs[store.Site]; !v.Relevant || v.GoodPages != 3 || string(v.Meta) != `{"rank":1,"engines":["x"]}` {
		t.Errorf("bookstore %s: %+v", store.Site, v)
	}
	for _, site := range []string{shop.Site, forum.Site} {
		if v := vs[site]; v.Relevant || v.Error != "" || v.PagesFetched == 0 {
			t.Errorf("negative %s: %+v", site, v)
		}
	}
	// simweb answers 502 for unknown hosts, robots.txt included: the
	// fetcher then treats the host as disallowing everything.
	if v := vs["no-such-host.test"]; v.Relevant || !strings.Contains(v.Error, "robots") || !strings.HasPrefix(v.Reason, "start page http://no-such-host.test/") {
		t.Errorf("dead site: %+v", v)
	}

	f, err := os.Open(pagesPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	fetched := 0
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 16<<20)
	n := 0
	for sc.Scan() {
		var p record.Page
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("pages file: %v", err)
		}
		if !strings.HasPrefix(p.Error, "robots-") {
			fetched++
		}
		n++
	}
	want := 0
	for _, v := range vs {
		want += v.PagesFetched
	}
	if fetched != want || n == 0 {
		t.Fatalf("pages file holds %d fetched pages (%d records), verdicts count %d", fetched, n, want)
	}
}

func TestVerifyUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{}, "--topic FILE is required"},
		{[]string{"--topic", "/nonexistent.yaml"}, "nonexistent.yaml"},
		{[]string{"--topic", profile, "--strategy", "dfs"}, "--strategy dfs: want heuristic or bfs"},
		{[]string{"--topic", profile, "--scope", "domain"}, "--scope domain"},
		{[]string{"--topic", profile, "--page-threshold", "1.5"}, "--page-threshold 1.5"},
		{[]string{"--topic", profile, "--num-exp-pages", "0"}, "--num-exp-pages 0"},
		{[]string{"--topic", profile, "--patience", "-2"}, "--patience -2"},
		{[]string{"--topic", profile, "--prior", "uncle"}, "--prior"},
		{[]string{"--topic", profile, "--classes", "dirs"}, "--classes dirs"},
		{[]string{"--topic", profile, "--page", "magic"}, `page method "magic"`},
		{[]string{"--topic", profile, "--rules-on", "dom"}, `rules-on "dom"`},
		{[]string{"--topic", profile, "--combo", "vsm=x"}, "--combo"},
		{[]string{"--topic", profile, "-c", "0"}, "--concurrency 0"},
		{[]string{"--topic", profile, "--resolve", "nonsense"}, "--resolve"},
		{[]string{"--topic", profile, "--max-bytes", "lots"}, "--max-bytes"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, stderr, code := runVerify(t, "", tt.args...)
			if code != cli.ExitUsage || !strings.Contains(stderr, tt.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr, cli.ExitUsage, tt.want)
			}
		})
	}
}

// TestVerifyOtherPageMethods: vsm and combo run end to end (they need the
// tokenizer and the IDF table) and still find the bookstore.
func TestVerifyOtherPageMethods(t *testing.T) {
	web := simwebtest.Serve(t)
	var home string
	for _, st := range web.Sites() {
		if st.Kind == "bookstore" && st.Lang == "en" {
			home = st.Home
			break
		}
	}
	for _, method := range []string{"combo", "vsm"} {
		stdout, stderr, code := runVerify(t, home+"\n", "--topic", profile, "--proxy", web.Proxy, "--delay", "0",
			"--max-crawl-delay", "0", "--page", method, "--page-threshold", "0.5", "-q")
		vs := verdicts(t, stdout)
		if code != cli.ExitOK || len(vs) != 1 {
			t.Fatalf("%s: exit %d, %d verdicts; stderr %s", method, code, len(vs), stderr)
		}
		for _, v := range vs {
			if v.PagesFetched == 0 || v.BestScore <= 0 {
				t.Fatalf("%s: %+v", method, v)
			}
		}
	}
}
