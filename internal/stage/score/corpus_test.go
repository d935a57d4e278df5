package score

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/segmenter"
	"github.com/focuscrawl/focuscrawl/internal/simweb"
	"github.com/focuscrawl/focuscrawl/internal/text"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

// simwebDocs returns n doc lines as segment writes them (title and content
// tokens, links, blocks) for pages of a small simulated web, fetched
// in-process: the input score sees in a crawl.
func simwebDocs(tb testing.TB, n int) [][]byte {
	tb.Helper()
	corpusMu.Lock()
	defer corpusMu.Unlock()
	if len(corpusLines) < n {
		lines, err := makeSimwebDocs(n)
		if err != nil {
			tb.Fatal(err)
		}
		corpusLines = lines
	}
	return corpusLines[:min(n, len(corpusLines))]
}

var (
	corpusMu    sync.Mutex
	corpusLines [][]byte
)

func makeSimwebDocs(n int) ([][]byte, error) {
	// A small web for the tests' few docs; a larger one for thousands of
	// distinct docs (the benchmark's: repeated docs would flatter any
	// memory of texts seen).
	web := simweb.New(simweb.Config{Seed: 1, Sites: max(12, n/25), NoFaults: true})
	prof, err := topic.Load("../../../examples/topics/forestry.yaml")
	if err != nil {
		return nil, err
	}
	sg, err := segmenter.New(segmenter.Options{
		Tokenizer:     text.NewTokenizer(text.Options{Dictionary: prof.Dictionary, Stopwords: prof.Stopwords}),
		LinkStopwords: prof.LinkStopwords, AdHosts: prof.AdHosts, Rules: prof.Extract,
	})
	if err != nil {
		return nil, err
	}
	var urls []string
	web.URLs(func(u string) error { urls = append(urls, u); return nil })
	step := max(1, len(urls)/(2*n))
	h := web.Handler()
	var lines [][]byte
	for i := 0; i < len(urls) && len(lines) < n; i += step {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", urls[i], nil))
		if rec.Code != 200 || !bytes.Contains([]byte(rec.Header().Get("Content-Type")), []byte("html")) {
			continue
		}
		d := sg.Segment(record.Page{URL: urls[i], Status: 200, ContentType: rec.Header().Get("Content-Type"),
			HTML: rec.Body.String(), Lineage: record.Lineage{Depth: len(lines) % 4, Parent: "http://parent.test/"}})
		if d.Error != "" || len(d.Links) == 0 {
			continue
		}
		d.Meta = record.Meta(`{"run":"t","n":` + string(rune('0'+len(lines)%10)) + `}`)
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(d); err != nil {
			return nil, err
		}
		lines = append(lines, bytes.TrimRight(b.Bytes(), "\n"))
	}
	return lines, nil
}

// TestWriteSimwebCorpus writes $SCORE_CORPUS_DOCS docs (default 400) of
// the corpus to $SCORE_CORPUS, for scripts/bench/score.sh and profiling;
// skipped without SCORE_CORPUS.
func TestWriteSimwebCorpus(t *testing.T) {
	path := os.Getenv("SCORE_CORPUS")
	if path == "" {
		t.Skip("SCORE_CORPUS not set")
	}
	n := 400
	if s := os.Getenv("SCORE_CORPUS_DOCS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			t.Fatalf("SCORE_CORPUS_DOCS=%q: not a number of docs", s)
		}
	}
	var b bytes.Buffer
	for _, l := range simwebDocs(t, n) {
		b.Write(l)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
