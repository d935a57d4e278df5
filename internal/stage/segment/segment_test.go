package segment

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/segmenter"
)

// page is a page record line with a title and a paragraph naming n.
func page(n int) string {
	b, _ := json.Marshal(record.Page{URL: fmt.Sprintf("http://a.example/%d", n), Status: 200,
		HTML: fmt.Sprintf("<html><head><title>Page %d</title></head><body><p>%s</p><a href=/x>x</a></body></html>", n,
			strings.Repeat("The forest is tended every year. ", 10)), Meta: record.Meta(fmt.Sprintf(`{"n":%d}`, n))})
	return string(b) + "\n"
}

func lines(t *testing.T, b []byte) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		out = append(out, json.RawMessage(append([]byte(nil), sc.Bytes()...)))
	}
	return out
}

// TestRunKeepsOrder: many pages, several workers; the docs come out in
// input order, meta passed through, and the summary counts them.
func TestRunKeepsOrder(t *testing.T) {
	const n = 40
	var in strings.Builder
	for i := range n {
		in.WriteString(page(i))
	}
	var out, log bytes.Buffer
	err := Run(context.Background(), strings.NewReader(in.String()), &out, Options{Workers: 4, Log: cli.NewLogger("segment", &log, false)})
	if err != nil {
		t.Fatal(err)
	}
	docs := lines(t, out.Bytes())
	if len(docs) != n {
		t.Fatalf("%d docs for %d pages", len(docs), n)
	}
	for i, raw := range docs {
		var d record.Doc
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		if d.URL != fmt.Sprintf("http://a.example/%d", i) || d.Title != fmt.Sprintf("Page %d", i) || string(d.Meta) != fmt.Sprintf(`{"n":%d}`, i) {
			t.Fatalf("doc %d: url %s title %q meta %s", i, d.URL, d.Title, d.Meta)
		}
	}
	if want := fmt.Sprintf("segment: %d pages, 0 errors, 0 rejected lines\n", n); log.String() != want {
		t.Errorf("log %q, want %q", log.String(), want)
	}
}

// TestRunRejects: lines that are not page records are rejected at their
// turn and the run goes on; a failed page becomes a doc with its error.
func TestRunRejects(t *testing.T) {
	in := page(1) + "not a record\n" + `{"status":200,"html":"<p>x</p>"}` + "\n" +
		`{"url":"http://down.example/","error":"fetch: connection refused"}` + "\n" + page(2)
	var out, log bytes.Buffer
	err := Run(context.Background(), strings.NewReader(in), &out, Options{Workers: 2, Log: cli.NewLogger("segment", &log, false)})
	if !errors.Is(err, cli.ErrRejected) {
		t.Fatalf("error %v, want ErrRejected", err)
	}
	var urls, errs []string
	for _, raw := range lines(t, out.Bytes()) {
		var d record.Doc
		json.Unmarshal(raw, &d)
		urls, errs = append(urls, d.URL), append(errs, d.Error)
	}
	if strings.Join(urls, " ") != "http://a.example/1 http://down.example/ http://a.example/2" || errs[1] != "fetch: connection refused" {
		t.Errorf("docs %v, errors %q", urls, errs)
	}
	for _, want := range []string{":2: ", ":3: missing \"url\" field", "3 pages, 1 errors, 2 rejected lines"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}

// TestRunOverLongLine: a page line over the reader's cap is rejected and
// an error doc for its URL goes out in its place.
func TestRunOverLongLine(t *testing.T) {
	big := `{"url":"http://big.example/p","status":200,"html":"` + strings.Repeat("<a href=/x>x</a>", jsonl.DefaultMaxLine/16+1) + "\"}\n"
	var out bytes.Buffer
	err := Run(context.Background(), strings.NewReader(page(1)+big+page(2)), &out, Options{Workers: 2})
	if !errors.Is(err, cli.ErrRejected) {
		t.Fatalf("error %v, want ErrRejected", err)
	}
	var got []string
	for _, raw := range lines(t, out.Bytes()) {
		var d record.Doc
		json.Unmarshal(raw, &d)
		got = append(got, d.URL+" "+d.Error)
	}
	if len(got) != 3 || got[0] != "http://a.example/1 " || !strings.HasPrefix(got[1], "http://big.example/p input: line too long") || got[2] != "http://a.example/2 " {
		t.Errorf("docs %q", got)
	}
}

// TestRunBlocks: --emit blocks writes block records of the pages in order,
// each carrying its page's URL and meta; Segmenter options are used.
func TestRunBlocks(t *testing.T) {
	sg, err := segmenter.New(segmenter.Options{NoTokens: true})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Run(context.Background(), strings.NewReader(page(1)+page(2)), &out, Options{Segmenter: sg, Blocks: true, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, raw := range lines(t, out.Bytes()) {
		var b record.BlockRecord
		if err := json.Unmarshal(raw, &b); err != nil {
			t.Fatal(err)
		}
		if len(urls) == 0 || urls[len(urls)-1] != b.URL {
			urls = append(urls, b.URL)
		}
		if b.Path == "" || string(b.Meta) != `{"n":`+strings.TrimPrefix(b.URL, "http://a.example/")+`}` {
			t.Errorf("block record %s", raw)
		}
	}
	if strings.Join(urls, " ") != "http://a.example/1 http://a.example/2" {
		t.Errorf("block records of %v, want page 1's then page 2's", urls)
	}
}

func TestParseTuning(t *testing.T) {
	var tu segmenter.Tuning
	for _, kv := range []string{"extend-prose=0.25", "extend-link-density=0.5", "no-extend=true", "extend-loose=1"} {
		if err := ParseTuning(&tu, kv); err != nil {
			t.Fatalf("%s: %v", kv, err)
		}
	}
	if tu.ExtendProse != 0.25 || tu.ExtendLinkDensity != 0.5 || !tu.NoExtend || !tu.ExtendLoose {
		t.Errorf("tuning %+v", tu)
	}
	for _, kv := range []string{"extend-prose", "extend-prose=x", "depth=3"} {
		if ParseTuning(&tu, kv) == nil {
			t.Errorf("%s: no error", kv)
		}
	}
}
