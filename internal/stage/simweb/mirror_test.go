package simweb

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/simweb/simwebtest"
)

// testMirror writes a one-host mirror, its rules and its truth, and returns
// the directory and the truth file.
func testMirror(t *testing.T) (dir, truth string) {
	t.Helper()
	dir = simwebtest.Mirror(t, nil)
	web, err := NewMirror(MirrorOptions{SourceFiles: []string{filepath.Join(dir, "sources.txt")}})
	if err != nil {
		t.Fatal(err)
	}
	defer web.Close()
	rules, err := ReadRules(filepath.Join(dir, "rules.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := MirrorTruth(context.Background(), &out, MirrorTruthOptions{Web: web, Portals: []string{"http://a.test/"}, Rules: rules}); err != nil {
		t.Fatal(err)
	}
	truth = filepath.Join(dir, "truth.jsonl")
	if err := os.WriteFile(truth, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, truth
}

// TestMirrorEval evaluates a crawl given as URL lines and as scored
// records against a mirror's truth.
func TestMirrorEval(t *testing.T) {
	_, truth := testMirror(t)
	g, err := ReadTruth(truth)
	if err != nil {
		t.Fatal(err)
	}
	crawl := "http://a.test/\nhttp://elsewhere.test/\nhttp://a.test/t/one.html\nhttp://a.test/x.html\nhttp://elsewhere.test/y\n"
	var out bytes.Buffer
	if err := MirrorEval(context.Background(), strings.NewReader(crawl), &out, MirrorEvalOptions{Truth: g, Topic: "t", At: []int{2, 4}}); err != nil {
		t.Fatal(err)
	}
	var r MirrorEvalResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%q: %v", out.String(), err)
	}
	// Relevant and reachable: t/, t/one.html and t/two.html; the crawl
	// fetched one of them. The first fetch of elsewhere.test (unknown) is
	// its host probe, not a slot; the second is a slot on an unfetchable
	// URL, as is the fetch of x.html (robots.txt).
	if r.Pages != 4 || r.HostProbes != 1 || r.Relevant != 1 || r.Reachable != 3 || r.Unfetchable != 2 ||
		r.UnfetchableBy["dns"] != 1 || r.UnfetchableBy["robots"] != 1 || r.HarvestAt[4] != 0.25 || r.LinkPriority != nil {
		t.Errorf("eval %+v", r)
	}
	// Oracle: the portal, t/ (relevant), one, two: 1/2 at 2, 3/4 at 4.
	if r.Upper.HarvestAt[2] != 0.5 || r.Upper.HarvestAt[4] != 0.75 {
		t.Errorf("upper bound %v", r.Upper.HarvestAt)
	}
	out.Reset()
	err = MirrorEval(context.Background(), strings.NewReader(crawl), &out, MirrorEvalOptions{Truth: g, Topic: "t", At: []int{2, 4}, Format: "text"})
	if err != nil || out.String() != MirrorEvalText(r) || !strings.Contains(out.String(), "host probes        1 ") {
		t.Errorf("text: %v\n%s", err, out.String())
	}

	// Scored records: relevant targets 0.9 and 0.4, irrelevant ones (the
	// portal) 0.5 and 0.1: of the four pairs 0.4 < 0.5 is the one lost.
	// Verdicts: the portal judged relevant (a false positive), one.html
	// too (a true positive).
	scored := `{"url":"http://a.test/","relevant":true,"links":[{"url":"http://a.test/t/one.html","priority":0.9},{"url":"http://a.test/","priority":0.5},` +
		`{"url":"http://a.test/t/two.html","priority":0.4},{"url":"http://unknown.test/q","priority":0.3}]}` + "\n" +
		`{"url":"http://a.test/t/one.html","final_url":"http://a.test/t/one.html","relevant":true,"links":[{"url":"http://a.test/","priority":0.1}]}` + "\n" +
		`{"url":""}` + "\n" + `{"url":"http://a.test/t/two.html","links":"x"}` + "\n"
	out.Reset()
	err = MirrorEval(context.Background(), strings.NewReader(scored), &out, MirrorEvalOptions{Truth: g, Topic: "t"})
	if !errors.Is(err, cli.ErrRejected) {
		t.Errorf("scored records: %v, want two lines rejected", err)
	}
	r = MirrorEvalResult{}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%q: %v", out.String(), err)
	}
	if lp := r.LinkPriority; r.Pages != 3 || lp == nil || lp.AUC != 0.75 || lp.Relevant != 2 || lp.Irrelevant != 2 || lp.Unknown != 1 {
		t.Errorf("%d pages, link priority %+v, want 3 pages, AUC 0.75 of 2 and 2 links, 1 unknown", r.Pages, lp)
	}
	// The third slot (two.html, its links malformed) carries no verdict.
	if v := r.Verdicts; v == nil || v.Judged != 2 || v.TruePos != 1 || v.FalsePos != 1 || v.Precision != 0.5 || v.Recall != 1 ||
		math.Abs(v.BelievedHarvest-2.0/3) > 1e-9 {
		t.Errorf("verdicts %+v, want 2 judged (1 true, 1 false positive), precision 0.5, recall 1, believed harvest 2/3", v)
	}
	out.Reset()
	err = MirrorEval(context.Background(), strings.NewReader(scored), &out, MirrorEvalOptions{Truth: g, Topic: "t", Format: "text"})
	if !errors.Is(err, cli.ErrRejected) || !strings.Contains(out.String(), "verdicts           precision 0.500, recall 1.000  (2 pages judged") ||
		!strings.Contains(out.String(), "believed harvest   0.667") {
		t.Errorf("text: %v\n%s", err, out.String())
	}
	var ue *cli.UsageError
	if err := MirrorEval(context.Background(), strings.NewReader(crawl), io.Discard, MirrorEvalOptions{Truth: g, Topic: "nope"}); !errors.As(err, &ue) {
		t.Errorf("unknown topic: %v, want a usage error", err)
	}
}

func TestMirrorOptions(t *testing.T) {
	dir, _ := testMirror(t)
	for _, o := range []MirrorOptions{
		{},
		{Sources: []string{"nowhere"}},
		{SourceFiles: []string{filepath.Join(dir, "none.txt")}},
		{Sources: []string{"a.test=" + filepath.Join(dir, "a")}, Down: []string{"a.test=bogus"}},
	} {
		var ue *cli.UsageError
		if _, err := NewMirror(o); !errors.As(err, &ue) {
			t.Errorf("%+v: %v, want a usage error", o, err)
		}
	}
	var ue *cli.UsageError
	if _, err := ReadRules(filepath.Join(dir, "none.yaml")); !errors.As(err, &ue) {
		t.Errorf("missing rules: %v", err)
	}
	if r, err := ReadRules(""); r != nil || err != nil {
		t.Errorf("no rules: %v, %v", r, err)
	}
	if _, err := ReadTruth(filepath.Join(dir, "none.jsonl")); !errors.As(err, &ue) {
		t.Errorf("missing truth: %v", err)
	}
}

// TestMirrorServe: the mirror answers through the proxy, unknown hosts 502,
// and every request goes to the log file.
func TestMirrorServe(t *testing.T) {
	dir, _ := testMirror(t)
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	log := filepath.Join(dir, "log.jsonl")
	go func() {
		done <- MirrorServe(ctx, MirrorServeOptions{Mirror: MirrorOptions{Sources: []string{"a.test=" + filepath.Join(dir, "a")}}, Addr: "127.0.0.1:0", LogFile: log, Out: pw})
		pw.Close()
	}()
	proxy := hello(t, pr, map[string]float64{"hosts": 1, "warc_records": 0})
	for u, want := range map[string]int{"http://a.test/t/one.html": 200, "http://elsewhere.test/": 502} {
		if code := getThrough(t, proxy, u); code != want {
			t.Errorf("%s: %d, want %d", u, code, want)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	b, err := os.ReadFile(log)
	if err != nil || strings.Count(string(b), "\n") != 2 {
		t.Errorf("request log: %v\n%s", err, b)
	}
}
