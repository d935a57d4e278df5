package score

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
	"github.com/focuscrawl/focuscrawl/internal/text"
	"github.com/focuscrawl/focuscrawl/internal/topic"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// forestOptions are score's defaults with the link strategy links, for
// a small forest profile.
func forestOptions(t *testing.T, links string) Options {
	t.Helper()
	path := filepath.Join(t.TempDir(), "forest.yaml")
	err := os.WriteFile(path, []byte(`name: forest
language: en
description: forest management, tree planting, thinning and logging in forests
keywords: {forest: 2.0, thinning: 1.0}
thresholds: {page: 0.3, link: 0.2}
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	prof, err := topic.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := scoring.Config{Page: scoring.DefaultPageOptions(), Links: scoring.DefaultLinkOptions()}
	cfg.Links.Strategy = links
	return Options{Profile: prof, Config: cfg, Workers: 2}
}

// TestRun: Run from Go, without the command line, scores docs in input
// order, passes fields it does not know through verbatim, and rejects a
// line that is not a doc.
func TestRun(t *testing.T) {
	in := `{"url":"http://a.test/1","title":"Forest thinning","content":"Thinning a forest keeps the trees healthy; forest management plans say when.","links":[{"url":"http://a.test/2","anchor":"forest thinning guide","block":1},{"url":"http://a.test/3","anchor":"login","block":2}],"blocks":[{"id":1,"kind":"main"},{"id":2,"kind":"nav"}],"classifier":{"p":0.97000},"score":5}
{"url":"http://a.test/4","error":"fetch: timeout"}
not a record
{"title":"no url"}
{"url":"http://a.test/2","title":"Celebrity gossip","content":"Film stars and parties."}
`
	for _, links := range []string{"shark", "ipagerank"} {
		t.Run(links, func(t *testing.T) {
			o := forestOptions(t, links)
			o.Batch = links == "ipagerank"
			var out bytes.Buffer
			err := Run(context.Background(), strings.NewReader(in), &out, o)
			if !errors.Is(err, cli.ErrRejected) || !strings.Contains(err.Error(), ": 2") {
				t.Fatalf("err %v, want 2 rejected", err)
			}
			var got []record.ScoredDoc
			for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				var sd record.ScoredDoc
				if err := json.Unmarshal([]byte(l), &sd); err != nil {
					t.Fatalf("%q: %v", l, err)
				}
				got = append(got, sd)
			}
			if len(got) != 3 || got[0].URL != "http://a.test/1" || got[1].URL != "http://a.test/4" || got[2].URL != "http://a.test/2" {
				t.Fatalf("out %s", out.String())
			}
			if !got[0].Relevant || got[2].Relevant || !(got[0].Score > got[2].Score) || got[0].Score == 5 {
				t.Errorf("scores %v %v", got[0].Score, got[2].Score)
			}
			if len(got[0].Links) != 2 || got[1].Error != "fetch: timeout" {
				t.Errorf("links %+v, error doc %+v", got[0].Links, got[1])
			}
			if !strings.Contains(out.String(), `"classifier":{"p":0.97000}`) || strings.Count(out.String(), `"score":`) != 3 {
				t.Errorf("fields not passed through verbatim, or score not replaced: %s", out.String())
			}
		})
	}
}

// TestRunUsage: a graph strategy without Batch or DB is refused as a
// usage error.
func TestRunUsage(t *testing.T) {
	err := Run(context.Background(), strings.NewReader(""), &bytes.Buffer{}, forestOptions(t, "linkmodel"))
	var ue *cli.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--batch") {
		t.Errorf("err %v", err)
	}
}

// TestRunLinkModelNeedsExamples: linkmodel with a profile without
// examples is refused as a usage error that says what to add; one example
// is enough to run.
func TestRunLinkModelNeedsExamples(t *testing.T) {
	o := forestOptions(t, "linkmodel")
	o.Batch = true
	err := Run(context.Background(), strings.NewReader(""), &bytes.Buffer{}, o)
	var ue *cli.UsageError
	if !errors.As(err, &ue) || !errors.Is(err, scoring.ErrNoExamples) || !strings.Contains(err.Error(), "add examples:") {
		t.Errorf("without examples: %v", err)
	}
	o.Profile.Examples.Items = []topic.Example{{Positive: true, Text: "thinning a young forest stand"}}
	if err := Run(context.Background(), strings.NewReader(""), &bytes.Buffer{}, o); err != nil {
		t.Errorf("with an example: %v", err)
	}
}

// TestLeanFieldsOf: the parts of a doc that score decodes are named as in
// the records.
func TestLeanFieldsOf(t *testing.T) {
	if err := record.FieldsOf(leanDoc{}, record.Doc{}); err != nil {
		t.Error(err)
	}
	if err := record.FieldsOf(leanBlock{}, record.Block{}); err != nil {
		t.Error(err)
	}
	if err := record.FieldsOf(scoredFields{}, record.ScoredDoc{}); err != nil {
		t.Error(err)
	}
}

// TestDecodeDoc: a doc decodes as the fields of record.Doc that scoring
// reads, as encoding/json decodes them, on segment's docs of simweb pages
// and lines at the edges.
func TestDecodeDoc(t *testing.T) {
	lines := simwebDocs(t, 60)
	for _, l := range []string{
		`{"url":"http://a/","title":"T","content":"a\nb \"q\" \\ \/ \u00e9 \ud83d\ude00 \ud83d x \udc00","tokens":["a","b",null],"links":[{"url":"u","anchor":"A","block":3,"internal":true,"tag":"a","tokens":["x"],"other":{"k":[1,2.5e-3,-0,true,false,null]}},null],"blocks":[{"id":1,"kind":"main","text":"t","link_density":0.1},null],"depth":2,"priority":0.25,"parent":"p","anchor":"pa","inherited":1e-2,"site":"s","meta":{"x":"y","中":"文"}}`,
		` ` + "\ufeff" + `	{"url":"u"}  ` + "\r\n",
		`{"url":"u","tokens":null,"links":null,"blocks":null,"title":null,"depth":null,"html":null}`,
		"{\"url\":\"bad \xff utf8 \xe2\x82\"}",
		`{"URL":"u","Links":[{"URL":"v"}]}`,
		`{"\u0075rl":"u","url":"v"}`,
		`{"error":"e"}`,
	} {
		lines = append(lines, []byte(l))
	}
	for _, l := range lines {
		got, err := decodeDoc(l, false, false)
		if err != nil {
			t.Fatalf("%.200q: %v", l, err)
		}
		var d record.Doc
		if err := json.Unmarshal(bytes.TrimLeft(l, " \t\ufeff"), &d); err != nil {
			t.Fatal(err)
		}
		want := record.Doc{URL: d.URL, Title: d.Title, Description: d.Description, Content: d.Content,
			Tokens: d.Tokens, Links: d.Links, Lineage: d.Lineage, Error: d.Error}
		for _, b := range d.Blocks {
			want.Blocks = append(want.Blocks, record.Block{ID: b.ID, Kind: b.Kind})
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%.200q:\ngot  %+v\nwant %+v", l, got, want)
		}
	}
	for _, l := range []string{`not json`, `{"title":"t"}`, `{"url":5}`, `{"url":"u"`, `{"url":"u","html":5}`} {
		if _, err := decodeDoc([]byte(l), true, false); err == nil {
			t.Errorf("%q: no error", l)
		}
	}
}

// TestAddIDFDocs: plain lines and doc records are documents; a doc with
// an error is skipped and a bad record rejected.
func TestAddIDFDocs(t *testing.T) {
	in := jsonl.NewReader(nil, strings.NewReader("forest trees\n{\"url\":\"u\",\"tokens\":[\"river\",\"forest\"]}\n{\"url\":\"e\",\"error\":\"x\",\"tokens\":[\"x\"]}\n{\"url\":5}\n"))
	rej, _ := jsonl.OpenRejects("", io.Discard)
	b := vsm.NewBuilder()
	if err := AddIDFDocs(context.Background(), in, rej, text.NewTokenizer(text.Options{}), b); err != nil {
		t.Fatal(err)
	}
	if b.Docs() != 2 || rej.Count() != 1 {
		t.Errorf("%d docs, %d rejected; want 2, 1", b.Docs(), rej.Count())
	}
}
