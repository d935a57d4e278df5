package verify

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/fetcher"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/render"
	"github.com/focuscrawl/focuscrawl/internal/render/renderflags"
	"github.com/focuscrawl/focuscrawl/internal/simweb/simwebtest"
	"github.com/focuscrawl/focuscrawl/internal/siteverify"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

// TestRun verifies sites of simweb from Go: a bookstore is relevant, a
// shop is not, a judged forum is skipped, a bad line is rejected. With
// --render auto the verdicts are the same: simweb's pages are all in their
// HTML, so none is rendered (and the browser never starts).
func TestRun(t *testing.T) {
	t.Run("never", func(t *testing.T) { testRun(t, renderflags.Options{}) })
	t.Run("auto", func(t *testing.T) {
		bin, err := render.FindChromium(os.Getenv("FOCUSCRAWL_CHROMIUM"))
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatal("chromium not found (apt-get install -y chromium)")
			}
			t.Skip("chromium not found")
		}
		testRun(t, renderflags.Options{Mode: render.Auto, Config: render.Config{Chromium: bin}})
	})
	t.Run("no chromium", func(t *testing.T) {
		o := Options{Verify: siteverify.DefaultOptions(), Judge: nopJudge{}, Fetcher: fetcher.Defaults(), Sites: 1,
			Render: renderflags.Options{Mode: render.Auto, Config: render.Config{Chromium: "/nonexistent/chromium"}}}
		err := Run(context.Background(), strings.NewReader(""), &bytes.Buffer{}, o)
		if !errors.Is(err, render.ErrNoChromium) || !strings.HasPrefix(err.Error(), "--render auto: ") {
			t.Errorf("error %v, want one start-up error naming --render and chromium", err)
		}
	})
}

func testRun(t *testing.T, ro renderflags.Options) {
	web := simwebtest.Serve(t)
	store, shop, forum := web.Store, web.Shop, web.Forum
	prof, err := topic.Load("../../../examples/topics/bookstores.yaml")
	if err != nil {
		t.Fatal(err)
	}
	judge, err := siteverify.NewJudge(siteverify.JudgeOptions{Profile: prof})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Verify: siteverify.DefaultOptions(), Judge: judge, Fetcher: fetcher.Defaults(), Sites: 2, Lookahead: 100,
		Judged: map[string]bool{forum.Site: true}, Render: ro}
	o.Verify.PageThreshold = prof.Thresholds.Page
	o.Fetcher.Proxy, o.Fetcher.Delay, o.Fetcher.Retries, o.Fetcher.MaxCrawlDelay = web.Proxy, 0, 0, 0
	earlier := filepath.Join(t.TempDir(), "verdicts.jsonl")
	os.WriteFile(earlier, []byte(`{"site":"`+forum.Site+`","relevant":false}`+"\n"+`{"site":"`+shop.Site+`","error":"canceled"}`+"\n"), 0o644)
	if o.Judged, err = ReadJudged([]string{earlier}); err != nil || !o.Judged[forum.Site] || len(o.Judged) != 1 {
		t.Fatalf("judged %v, %v: want the forum only", o.Judged, err)
	}
	in := strings.Join([]string{store.Home, `{"url": broken`, shop.Home, forum.Home, store.Home + "about.html"}, "\n") + "\n"
	var out, log bytes.Buffer
	o.Log = cli.NewLogger("verify", &log, false)
	if err := Run(context.Background(), strings.NewReader(in), &out, o); !errors.Is(err, cli.ErrRejected) {
		t.Fatalf("error %v, want ErrRejected; log:\n%s", err, log.String())
	}
	vs := map[string]record.Verdict{}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var v record.Verdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		vs[v.Site] = v
	}
	if len(vs) != 2 || !vs[store.Site].Relevant || vs[shop.Site].Relevant || vs[shop.Site].PagesFetched == 0 {
		t.Errorf("verdicts %+v", vs)
	}
	if strings.Contains(out.String(), `"rendered":true`) {
		t.Errorf("a simweb page was rendered")
	}
	for _, want := range []string{"stdin:2: ", "2 of 2 sites verified (1 more skipped", "1 relevant, 0 failed"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}

func TestReadJudgedRefusesOtherRecords(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pages.jsonl")
	os.WriteFile(p, []byte(`{"url":"http://a.example/","status":200}`+"\n"), 0o644)
	if _, err := ReadJudged([]string{p}); err == nil || !strings.HasSuffix(err.Error(), ":1: not a verdict record") {
		t.Errorf("error %v", err)
	}
}

// nopJudge judges nothing; for runs that end before any page.
type nopJudge struct{}

func (nopJudge) Judge(record.Page) siteverify.Judgement { return siteverify.Judgement{} }
