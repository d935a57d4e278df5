package simweb

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/record"
	sim "github.com/focuscrawl/focuscrawl/internal/simweb"
)

// testWeb is a small web for the tests of this package.
func testWeb(t *testing.T) *sim.Web {
	t.Helper()
	web, err := NewWeb(WebOptions{Seed: 1, Sites: 20})
	if err != nil {
		t.Fatal(err)
	}
	return web
}

// evalJSON runs Eval with format json on in and decodes its result.
func evalJSON(t *testing.T, o EvalOptions, in string) EvalResult {
	t.Helper()
	var out bytes.Buffer
	if err := Eval(context.Background(), strings.NewReader(in), &out, o); err != nil {
		t.Fatal(err)
	}
	var r EvalResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || strings.Count(out.String(), "\n") != 1 {
		t.Fatalf("%v: %q", err, out.String())
	}
	return r
}

// TestEval: every record is a fetch; the result is the Evaluator's over
// the records' URLs, comments skipped.
func TestEval(t *testing.T) {
	web := testWeb(t)
	seeds, err := web.Seeds("forestry")
	if err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	in.WriteString("# a comment\n")
	for _, s := range seeds {
		fmt.Fprintf(&in, `{"url":%q,"status":200}`+"\n", s)
	}
	o := EvalOptions{Web: web, Topic: "forestry", At: []int{1, 2}}
	r := evalJSON(t, o, in.String())
	ev, _ := web.NewEvaluator("forestry", 1, 2)
	for _, s := range seeds {
		ev.Add(s)
	}
	want := ev.Result()
	if r.Pages != len(seeds) || r.Relevant != want.Relevant || r.Exist != want.Exist || len(r.HarvestAt) != 2 || r.LinkPriority != nil {
		t.Errorf("eval %+v, want %+v", r.Eval, want)
	}
	// Plain URL lines are the same fetches.
	if p := evalJSON(t, o, strings.Join(seeds, "\n")+"\n"); p.Pages != r.Pages || p.Relevant != r.Relevant {
		t.Errorf("URL lines: %+v, records: %+v", p.Eval, r.Eval)
	}
}

// TestEvalFailedFetch: a failed fetch is a page of the budget, never a
// relevant page found, even when its URL is a relevant page's.
func TestEvalFailedFetch(t *testing.T) {
	web := testWeb(t)
	var rel string
	err := web.URLs(func(u string) error {
		if pt, ok := web.Page(u); ok && pt.Relevant("forestry") && rel == "" {
			rel = u
		}
		return nil
	})
	if err != nil || rel == "" {
		t.Fatalf("no relevant page: %v", err)
	}
	o := EvalOptions{Web: web, Topic: "forestry"}
	r := evalJSON(t, o, fmt.Sprintf(`{"url":%q,"error":"connect: refused"}`+"\n"+`{"url":%q,"status":200}`+"\n", rel, rel))
	if r.Pages != 2 || r.Relevant != 1 || r.Failed != 1 || r.Harvest != 0.5 {
		t.Errorf("eval %+v: want 2 pages, 1 relevant (the fetch that worked), 1 failed, harvest 0.5", r.Eval)
	}
}

// TestEvalLinks: scored links are ranked against the truth: a link to a
// relevant page above one to an irrelevant page is a pair won.
func TestEvalLinks(t *testing.T) {
	web := testWeb(t)
	var rel, irr string
	err := web.URLs(func(u string) error {
		pt, _ := web.Page(u)
		if pt.Relevant("forestry") && rel == "" {
			rel = u
		} else if !pt.Relevant("forestry") && irr == "" {
			irr = u
		}
		return nil
	})
	if err != nil || rel == "" || irr == "" {
		t.Fatalf("no relevant and irrelevant URL: %v", err)
	}
	in := fmt.Sprintf(`{"url":%q,"links":[{"url":%q,"priority":0.9},{"url":%q,"priority":0.2},{"url":"http://nowhere.example/","priority":0.5}]}`+"\n", irr, rel, irr)
	r := evalJSON(t, EvalOptions{Web: web, Topic: "forestry"}, in)
	if lp := r.LinkPriority; lp == nil || lp.AUC != 1 || lp.Relevant != 1 || lp.Irrelevant != 1 || lp.Unknown != 1 {
		t.Errorf("link priority %+v, want AUC 1 of 1 and 1 links, 1 unknown", lp)
	}
	// Links that are not a list reject the line, after it counted as a fetch.
	var out bytes.Buffer
	err = Eval(context.Background(), strings.NewReader(fmt.Sprintf(`{"url":%q,"links":3}`+"\n", rel)), &out, EvalOptions{Web: web, Topic: "forestry"})
	if !errors.Is(err, cli.ErrRejected) || !strings.Contains(out.String(), `"pages":1`) {
		t.Errorf("links 3: %v, %s", err, out.String())
	}
}

// TestEvalText: --format text reports the same figures as the JSON object.
func TestEvalText(t *testing.T) {
	web := testWeb(t)
	seeds, _ := web.Seeds("forestry")
	in := strings.Join(seeds, "\n") + "\n"
	o := EvalOptions{Web: web, Topic: "forestry", At: []int{2}}
	r := evalJSON(t, o, in)
	var out bytes.Buffer
	o.Format = "text"
	if err := Eval(context.Background(), strings.NewReader(in), &out, o); err != nil {
		t.Fatal(err)
	}
	txt := out.String()
	if txt != EvalText(r) {
		t.Errorf("Eval text and EvalText differ:\n%s\n%s", txt, EvalText(r))
	}
	for _, want := range []string{
		fmt.Sprintf("%d records judged (every fetch archived, failed and retried ones included), %d relevant", r.Pages, r.Relevant),
		fmt.Sprintf("harvest (truth)   %.3f  (%.3f at 2)", r.Harvest, r.HarvestAt[2]),
		fmt.Sprintf("discovery rate    %.3f  (%d distinct relevant pages found of %d)", r.Discovery, r.Found, r.Exist),
		fmt.Sprintf("relevant sites    %d of %d", r.Sites, r.SitesExist),
	} {
		if !strings.Contains(txt, want) {
			t.Errorf("text report lacks %q:\n%s", want, txt)
		}
	}
	for _, s := range r.TopSites {
		if !strings.Contains(txt, s.Site) {
			t.Errorf("top site %s missing:\n%s", s.Site, txt)
		}
	}
}

func TestParseEvalFlags(t *testing.T) {
	at, err := ParseEvalFlags("text", " 5, ,10")
	if err != nil || len(at) != 2 || at[0] != 5 || at[1] != 10 {
		t.Errorf("5,,10: %v %v", at, err)
	}
	for _, tc := range [][2]string{{"xml", "1"}, {"json", "1,x"}, {"json", "0"}, {"json", "-3"}} {
		var ue *cli.UsageError
		if _, err := ParseEvalFlags(tc[0], tc[1]); !errors.As(err, &ue) {
			t.Errorf("%q %q: %v, want a usage error", tc[0], tc[1], err)
		}
	}
}

// TestFetchRecord: mirror eval's part of a fetch record reads the keys the
// records have.
func TestFetchRecord(t *testing.T) {
	if err := record.FieldsOf(fetchRecord{}, record.Page{}, record.Doc{}, record.ScoredDoc{}); err != nil {
		t.Error(err)
	}
}
