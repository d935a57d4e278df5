package score

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
	"github.com/focuscrawl/focuscrawl/internal/text"
	"github.com/focuscrawl/focuscrawl/internal/topic"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// referenceScored is the plain way to score a line: encoding/json
// decodes it, encoding/json encodes the scored fields, and splice puts
// them in.
func referenceScored(t *testing.T, sc *scoring.Scorer, line []byte) []byte {
	t.Helper()
	var ld leanDoc
	if err := json.Unmarshal(line, &ld); err != nil {
		t.Fatal(err)
	}
	d, err := ld.doc(false, false)
	if err != nil {
		t.Fatal(err)
	}
	sd, err := sc.Score(context.Background(), &d)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(scoredFields{Score: sd.Score, Relevant: sd.Relevant, Scores: sd.Scores, Links: sd.Links}); err != nil {
		t.Fatal(err)
	}
	out, err := splice(nil, line, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestScoredOutputUnchanged: on segment's docs of simweb pages, the fast
// decoder and writer give byte for byte the output of the plain
// encoding/json path, for every per-doc link strategy.
func TestScoredOutputUnchanged(t *testing.T) {
	prof, err := topic.Load("../../../examples/topics/forestry.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tok := text.NewTokenizer(text.Options{Dictionary: prof.Dictionary, Stopwords: prof.Stopwords})
	model, err := scoring.NewModel(prof, tok, vsm.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	lines := simwebDocs(t, 60)
	// A line with escapes, U+2028 and invalid UTF-8 in the link fields, a
	// doc with an error, and fields in another order.
	lines = append(lines,
		[]byte(`{"url":"http://a.test/x","title":"Forest \"thinning\"","content":"forest\u2028management \u00e9\ttrees","links":[{"url":"http://a.test/f\u2029","anchor":"forest\n<thinning> & \u0001","context":"bad `+"\xff"+` utf8","block":2,"internal":true,"nofollow":true,"tag":"area","tokens":["forest","thinning"]},{"url":"http://b.test/","block":0,"internal":false}],"blocks":[{"id":2,"kind":"links"}],"depth":1,"inherited":0.4,"score":9,"meta":{"k":[1,2]}}`),
		[]byte(`{"meta":null,"error":"fetch: timeout","url":"http://a.test/e","links":[{"url":"http://a.test/z"}]}`),
	)
	for _, strategy := range []string{"best-first", "block-shark", "shark", "heuristic", "bfs"} {
		t.Run(strategy, func(t *testing.T) {
			cfg := scoring.Config{Page: scoring.DefaultPageOptions(), Links: scoring.DefaultLinkOptions()}
			cfg.Links.Strategy = strategy
			// Two scorers, so that block-shark's memory of the docs seen
			// is the same on both sides.
			ref, err := scoring.NewScorer(model, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			fast, err := scoring.NewScorer(model, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			enc := newScoredEncoder()
			for i, line := range lines {
				want := referenceScored(t, ref, line)
				d, err := decodeDoc(line, false, false)
				if err != nil {
					t.Fatalf("line %d: %v", i, err)
				}
				sd, err := fast.Score(context.Background(), &d)
				if err != nil {
					t.Fatal(err)
				}
				got, err := enc.encode(nil, line, &sd)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("line %d differs:\ngot  %.400s\nwant %.400s", i, got, want)
				}
			}
		})
	}
}

// TestAppendScoredRefusesNaN: a NaN is left to encoding/json, which
// reports it.
func TestAppendScoredRefusesNaN(t *testing.T) {
	nan := 0.0
	nan /= nan
	sd := record.ScoredDoc{Score: 0.5, Links: []record.ScoredLink{{Priority: nan}}}
	if _, ok := appendScored(nil, &sd); ok {
		t.Error("NaN priority written")
	}
	if _, err := newScoredEncoder().encode(nil, []byte(`{"url":"u"}`), &sd); err == nil {
		t.Error("no error for a NaN priority")
	}
}
