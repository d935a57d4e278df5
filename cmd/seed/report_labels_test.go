package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// writeCrawlArchive writes what seed add --archive would for n pages, the
// first of every three relevant, plus the given extra lines.
func writeCrawlArchive(t *testing.T, path string, n int, extra ...string) {
	t.Helper()
	w, err := jsonl.Append(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		score := 0.1 + 0.8*float64(i%10)/10
		b, _ := json.Marshal(map[string]any{"url": fmt.Sprintf("http://h%d.example.cn/%d", i%3, i), "title": fmt.Sprintf("Page %d", i),
			"content": fmt.Sprintf("text of page %d", i), "score": score, "relevant": score >= 0.5})
		w.WriteLine(b)
	}
	for _, l := range extra {
		w.WriteLine([]byte(l))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestReportLabelling: --docs adds the labelling section, bounded by
// --label-pages; --labels pre-fills the earlier round's labels; a
// damaged archive line is reported as FILE:LINE and the report written
// (exit 3); a missing file, a bad labels line and flags that do not go
// together are refused, naming what is wrong.
func TestReportLabelling(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "crawl.db")
	reportDB(t, db, 150, "shark")
	archive := filepath.Join(dir, "crawl.jsonl.zst")
	writeCrawlArchive(t, archive, 150)
	labelsFile := filepath.Join(dir, "labels.jsonl")
	os.WriteFile(labelsFile, []byte(`{"url":"http://h0.example.cn/0","relevant":false}`+"\n"), 0o644)
	out := filepath.Join(dir, "report.html")

	r := runSeed(t, "", nil, "report", "--db", db, "--docs", archive, "--labels", labelsFile, "--label-pages", "40", "-o", out)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	sec := doc.Find("#labelling")
	if n := sec.Find("ol.labels li").Length(); n != 41 {
		t.Errorf("%d pages in the labelling section, want 40 drawn and 1 earlier label", n)
	}
	if n := sec.Find("#earlier-labels li[data-prior=no]").Length(); n != 1 {
		t.Errorf("earlier labels pre-filled: %d", n)
	}
	if sec.Find(`li[data-page="http://h0.example.cn/0"]`).Length() != 1 {
		t.Error("a labelled page was drawn again")
	}
	// The relevant pages found have their titles from the archive.
	if row := doc.Find("#relevant tbody tr").First().Text(); !strings.Contains(row, "Page 0") || !strings.Contains(row, "http://h0.example.cn/0") {
		t.Errorf("the first relevant page found: %q, want its title from the archive", row)
	}
	if doc.Find("svg#harvest").Length() != 1 || doc.Find("script").Length() != 1 {
		t.Error("the rest of the report is not there, or more than the one script")
	}

	// A damaged line: reported, skipped, the report written, exit 3.
	damaged := filepath.Join(dir, "damaged.jsonl")
	writeCrawlArchive(t, damaged, 20, `{"url":"http://x/","score":0.5,"rele`)
	r = runSeed(t, "", nil, "report", "--db", db, "--docs", damaged, "-o", out)
	if r.code != cli.ExitRejected || !strings.Contains(r.stderr, damaged+":21: invalid JSON") || !strings.Contains(r.stderr, "1 lines of --docs skipped") {
		t.Errorf("a damaged archive line: exit %d, stderr %q", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), `data-page="http://h0.example.cn/0"`) {
		t.Error("no report written past a damaged line")
	}

	badLabels := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(badLabels, []byte(`{"url":"http://a/","relevant":true}`+"\n"+`{"url":"http://b/","relevant":"yes"}`+"\n"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--docs", filepath.Join(dir, "none.jsonl.zst")}, cli.ExitUsage, "--docs " + filepath.Join(dir, "none.jsonl.zst") + ": no such file"},
		{[]string{"--docs", dir}, cli.ExitUsage, "--docs " + dir + ": a directory, not an archive"},
		{[]string{"--docs", archive, "--labels", badLabels}, cli.ExitFatal, badLabels + `:2: not a label: field "relevant": string where bool was expected`},
		{[]string{"--docs", archive, "--labels", filepath.Join(dir, "none.jsonl")}, cli.ExitUsage, "--labels " + filepath.Join(dir, "none.jsonl") + ": no such file"},
		{[]string{"--labels", labelsFile}, cli.ExitUsage, "--labels needs --docs"},
		{[]string{"--docs", archive, "--serve", "127.0.0.1:0"}, cli.ExitUsage, "--docs labels pages in a report written to a file"},
		{[]string{"--docs", archive, "--label-pages", "0"}, cli.ExitUsage, "--label-pages 0"},
	} {
		args := []string{"report", "--db", db}
		if !strings.Contains(strings.Join(c.args, " "), "--serve") {
			args = append(args, "-o", filepath.Join(dir, "x.html"))
		}
		r := runSeed(t, "", nil, append(args, c.args...)...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, r.code, r.stderr, c.code, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.html")); err == nil {
		t.Error("a report written after an error")
	}
}
