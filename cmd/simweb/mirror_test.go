package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/simweb/simwebtest"
)

// TestMirrorCommands serves a two-host mirror, writes its truth and
// evaluates a crawl given as URL lines, through the command line.
func TestMirrorCommands(t *testing.T) {
	dir := simwebtest.Mirror(t, map[string]string{
		"crawl.txt": "http://a.test/\nhttp://elsewhere.test/\nhttp://a.test/t/one.html\nhttp://a.test/x.html\nhttp://elsewhere.test/y\n",
	})
	sources := filepath.Join(dir, "sources.txt")

	// serve: the first line names the proxy; unknown hosts are 502 + Proxy-Status.
	pr, pw := io.Pipe()
	app := newApp()
	app.Writer = pw
	app.ErrWriter = io.Discard
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- app.RunContext(ctx, []string{"simweb", "mirror", "serve", "--sources", sources, "--addr", "127.0.0.1:0", "--log", filepath.Join(dir, "log.jsonl")})
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	var hello struct {
		Proxy string
		Hosts int
	}
	if err := json.Unmarshal([]byte(line), &hello); err != nil || hello.Hosts != 1 {
		t.Fatalf("first line %q: %v", line, err)
	}
	pu, _ := url.Parse(hello.Proxy)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}, Timeout: 10 * time.Second}
	for u, want := range map[string]int{"http://a.test/t/one.html": 200, "http://elsewhere.test/": 502} {
		resp, err := client.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("%s: %d, want %d", u, resp.StatusCode, want)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}

	// truth, then eval.
	truth := filepath.Join(dir, "truth.jsonl.gz")
	if code, _, stderr := run(t, "mirror", "truth", "--sources", sources, "--portal", "http://a.test/",
		"--rules", filepath.Join(dir, "rules.yaml"), "-o", truth); code != 0 {
		t.Fatalf("truth: exit %d: %s", code, stderr)
	}
	code, out, stderr := run(t, "mirror", "eval", "-q", "--truth", truth, "--topic", "t", "--at", "2,4", filepath.Join(dir, "crawl.txt"))
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	var r struct {
		Pages, Relevant, Found, Unfetchable int
		HostProbes                          int                `json:"host_probes"`
		Reachable                           int                `json:"reachable_relevant"`
		HarvestAt                           map[string]float64 `json:"harvest_at"`
		UnfetchableBy                       map[string]int     `json:"unfetchable_by"`
		Upper                               struct {
			HarvestAt map[string]float64 `json:"harvest_at"`
		} `json:"upper_bound"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("eval output %q: %v", out, err)
	}
	// Relevant and reachable: t/ (its resource is t/index.html, under the
	// prefix), t/one.html and t/two.html; the crawl fetched one of them.
	// The first fetch of elsewhere.test (unknown) is its host probe, not
	// a slot; the second is a slot on an unfetchable URL.
	if r.Pages != 4 || r.HostProbes != 1 || r.Relevant != 1 || r.Reachable != 3 || r.Unfetchable != 2 ||
		r.UnfetchableBy["dns"] != 1 || r.UnfetchableBy["robots"] != 1 || r.HarvestAt["4"] != 0.25 {
		t.Errorf("eval %+v", r)
	}
	// Oracle: the portal, t/ (relevant), one, two: 1/2 at 2, 3/4 at 4.
	if r.Upper.HarvestAt["2"] != 0.5 || r.Upper.HarvestAt["4"] != 0.75 {
		t.Errorf("upper bound %v", r.Upper.HarvestAt)
	}
	// Scored records: the links' priorities against the truth. Relevant
	// targets 0.9 and 0.4, irrelevant ones (the portal) 0.5 and 0.1: of
	// the four pairs 0.4 < 0.5 is the one lost, AUC 3/4.
	scored := `{"url":"http://a.test/","links":[{"url":"http://a.test/t/one.html","priority":0.9},{"url":"http://a.test/","priority":0.5},` +
		`{"url":"http://a.test/t/two.html","priority":0.4},{"url":"http://unknown.test/q","priority":0.3}]}` + "\n" +
		`{"url":"http://a.test/t/one.html","links":[{"url":"http://a.test/","priority":0.1}]}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "scored.jsonl"), []byte(scored), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = run(t, "mirror", "eval", "-q", "--truth", truth, "--topic", "t", filepath.Join(dir, "scored.jsonl"))
	if code != 0 {
		t.Fatalf("eval of scored records: exit %d: %s", code, stderr)
	}
	var lr struct {
		LinkPriority struct {
			AUC        float64 `json:"auc"`
			Relevant   int     `json:"relevant_links"`
			Irrelevant int     `json:"irrelevant_links"`
			Unknown    int     `json:"unknown_links"`
		} `json:"link_priority"`
	}
	if err := json.Unmarshal([]byte(out), &lr); err != nil {
		t.Fatalf("eval output %q: %v", out, err)
	}
	if lp := lr.LinkPriority; lp.AUC != 0.75 || lp.Relevant != 2 || lp.Irrelevant != 2 || lp.Unknown != 1 {
		t.Errorf("link priority %+v, want AUC 0.75 of 2 and 2 links, 1 unknown", lp)
	}
	if code, _, stderr := run(t, "mirror", "eval", "--truth", truth, "--topic", "nope", filepath.Join(dir, "crawl.txt")); code != 2 || !strings.Contains(stderr, `topic "nope"`) {
		t.Errorf("unknown topic: exit %d, %s", code, stderr)
	}
	if code, _, stderr := run(t, "mirror", "serve", "nowhere"); code != 2 || !strings.Contains(stderr, "neither HOST=DIR") {
		t.Errorf("bad source: exit %d, %s", code, stderr)
	}
}
