package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/dedup"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/text"
)

const articleA = `近日，省林业局印发《森林抚育作业技术规程》，对中幼龄林抚育间伐的对象、强度和方式作出明确规定。

规程要求，抚育间伐应当按照小班设计，伐后郁闭度不低于零点六，保留木分布均匀，严禁采大留小。

对于宜林地造林，各地要根据立地条件选择乡土树种，推广混交造林模式，提高林分稳定性和抗逆性。

造林后三年内要及时开展松土除草、补植补造等抚育措施，确保造林成活率达到百分之八十五以上。`

const articleB = `今年以来，全省森林防火形势总体平稳，未发生重大森林火灾，森林火灾受害率控制在千分之零点九以内。

省森林防火指挥部要求，各地要严格落实野外火源管控措施，加强重点时段和重点区域的巡护检查。

各级林业部门要加快防火通道和阻隔带建设，配齐扑火机具，组织开展扑火队伍实战演练。`

func line(t testing.TB, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// writeInput writes scored docs (and raw lines) to a file.
func writeInput(t *testing.T, dir, name string, lines ...string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func scored(url, content string, score float64, relevant bool) record.ScoredDoc {
	return record.ScoredDoc{Doc: record.Doc{URL: url, Title: "标题 " + url, Content: content, Meta: json.RawMessage(`{"job":7}`)}, Score: score, Relevant: relevant}
}

// runCmd runs dedupe with args and returns the exit code, stdout and stderr.
func runCmd(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	app := newApp()
	var out, errb bytes.Buffer
	app.Writer = &out
	code := cli.Run(app, append([]string{"dedupe"}, args...), &errb)
	return code, out.String(), errb.String()
}

func readKnowledge(t *testing.T, path string) []record.Knowledge {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []record.Knowledge
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if l == "" {
			continue
		}
		var k record.Knowledge
		if err := json.Unmarshal([]byte(l), &k); err != nil {
			t.Fatalf("output line %q: %v", l, err)
		}
		out = append(out, k)
	}
	return out
}

func TestDedupeEndToEnd(t *testing.T) {
	dir := t.TempDir()
	in := writeInput(t, dir, "docs.jsonl",
		line(t, scored("http://a.test/1", articleA, 0.8, true)),
		line(t, scored("http://b.test/copy", text.Traditional(articleA), 0.9, true)),
		line(t, scored("http://a.test/2", articleB, 0.7, true)),
		line(t, scored("http://a.test/3", "无关的页面内容，讲的是别的事情，和主题没有关系。", 0.1, false)),
		`{"url":"http://a.test/4","error":"fetch: timeout","meta":{"job":7}}`,
		`not a record`,
	)
	out := filepath.Join(dir, "out.jsonl")
	idx := filepath.Join(dir, "kb.idx")
	store := filepath.Join(dir, "kb.sqlite")
	errPath := filepath.Join(dir, "errors.jsonl")
	code, _, stderr := runCmd(t, "--emit-dups", "--keep", "best-score", "--index", idx, "--store", store, "-o", out, "--errors", errPath, in)
	if code != cli.ExitRejected || !strings.Contains(stderr, "docs.jsonl:6: not a JSON object") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	got := readKnowledge(t, out)
	var kept, dropped, errs []record.Knowledge
	for _, k := range got {
		switch {
		case k.Error != "":
			errs = append(errs, k)
		case k.DuplicateOf != "":
			dropped = append(dropped, k)
		default:
			kept = append(kept, k)
		}
	}
	if len(errs) != 0 {
		t.Fatalf("error records in the knowledge output: %+v", errs)
	}
	errs = readKnowledge(t, errPath)
	if len(kept) != 2 || len(dropped) != 1 || len(errs) != 1 {
		t.Fatalf("kept %d, dropped %d, errors %d:\n%+v", len(kept), len(dropped), len(errs), got)
	}
	// best-score keeps the traditional copy (0.9) and folds the first into it.
	if kept[0].URL != "http://b.test/copy" || strings.Join(kept[0].Duplicates, ",") != "http://a.test/1" ||
		dropped[0].URL != "http://a.test/1" || dropped[0].DuplicateOf != "http://b.test/copy" {
		t.Fatalf("kept %+v, dropped %+v", kept[0], dropped[0])
	}
	if string(kept[0].Meta) != `{"job":7}` || len(kept[0].Fingerprint) != 16 || kept[0].Score != 0.9 {
		t.Fatalf("kept record fields: %+v", kept[0])
	}
	if errs[0].URL != "http://a.test/4" || errs[0].Error != "fetch: timeout" {
		t.Fatalf("error record %+v", errs[0])
	}

	// A second run against the index drops everything it saw before.
	in2 := writeInput(t, dir, "docs2.jsonl",
		line(t, scored("http://c.test/again", articleB, 0.7, true)),
		line(t, scored("http://a.test/1", "改过的内容", 0.7, true)),
	)
	out2 := filepath.Join(dir, "out2.jsonl")
	code, _, stderr = runCmd(t, "--index", idx, "--store", store, "-o", out2, in2)
	if code != 0 || !strings.Contains(stderr, "2 of earlier runs") {
		t.Fatalf("second run: exit %d\n%s", code, stderr)
	}
	if got := readKnowledge(t, out2); len(got) != 0 {
		t.Fatalf("second run wrote %+v", got)
	}

	// The knowledge base: search finds the kept records with the copies.
	code, stdout, stderr := runCmd(t, "search", "--store", store, "--format", "jsonl", "防火")
	if code != 0 {
		t.Fatalf("search: exit %d %s", code, stderr)
	}
	var hit struct {
		URL        string
		Snippet    string
		Duplicates []string
	}
	if err := json.Unmarshal([]byte(strings.Split(stdout, "\n")[0]), &hit); err != nil {
		t.Fatalf("search output %q: %v", stdout, err)
	}
	if hit.URL != "http://a.test/2" || !strings.Contains(hit.Snippet, "[防火]") || strings.Join(hit.Duplicates, ",") != "http://c.test/again" {
		t.Fatalf("hit %+v", hit)
	}
	code, stdout, _ = runCmd(t, "search", "--store", store, "--format", "text", "抚育")
	if code != 0 || !strings.Contains(stdout, " 1. 标题 http://b.test/copy") || !strings.Contains(stdout, "+1 copies") {
		t.Fatalf("table: exit %d\n%s", code, stdout)
	}
}

func TestDedupeAllAndWindow(t *testing.T) {
	dir := t.TempDir()
	in := writeInput(t, dir, "docs.jsonl",
		line(t, scored("http://a.test/1", articleA, 0.8, false)),
		line(t, record.Doc{URL: "http://a.test/2", Content: articleB}), // a doc: no "relevant"
	)
	out := filepath.Join(dir, "out.jsonl")
	if code, _, stderr := runCmd(t, "-o", out, in); code != 0 || len(readKnowledge(t, out)) != 1 {
		t.Fatalf("default: exit %d %s %v", code, stderr, readKnowledge(t, out))
	}
	if code, _, stderr := runCmd(t, "--all", "--window", "0", "-o", out, in); code != 0 || len(readKnowledge(t, out)) != 2 {
		t.Fatalf("--all: exit %d %s", code, stderr)
	}
}

// TestSearchUsesStoredWords: a search without --topic cuts the query
// with the dictionary the run that stored the text was given.
func TestSearchUsesStoredWords(t *testing.T) {
	dir := t.TempDir()
	prof := writeInput(t, dir, "t.yaml", "name: t", "language: zh", "dictionary: [宜林地造林]")
	in := writeInput(t, dir, "docs.jsonl", line(t, scored("http://a.test/1", articleA+"\n\n宜林地造林要因地制宜。", 0.8, true)))
	store := filepath.Join(dir, "kb.sqlite")
	if code, _, stderr := runCmd(t, "--topic", prof, "--store", store, "-o", filepath.Join(dir, "out.jsonl"), in); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	code, stdout, stderr := runCmd(t, "search", "--store", store, "--format", "jsonl", "宜林地造林")
	if code != 0 || !strings.Contains(stdout, "[宜林地造林]") {
		t.Fatalf("exit %d, %s %s", code, stdout, stderr)
	}
}

// TestKnowledgeAgain: knowledge files merged and de-duplicated again
// keep the copies their records had.
func TestKnowledgeAgain(t *testing.T) {
	dir := t.TempDir()
	in := writeInput(t, dir, "k.jsonl",
		line(t, record.Knowledge{URL: "http://a.test/1", Content: articleA, Fingerprint: "x", Duplicates: []string{"http://m.test/1"}}),
		line(t, record.Knowledge{URL: "http://b.test/1", Content: articleA, Fingerprint: "y", Duplicates: []string{"http://m.test/2"}}),
	)
	out := filepath.Join(dir, "out.jsonl")
	if code, _, stderr := runCmd(t, "-o", out, in); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	got := readKnowledge(t, out)
	if len(got) != 1 || strings.Join(got[0].Duplicates, ",") != "http://m.test/1,http://b.test/1,http://m.test/2" {
		t.Fatalf("got %+v", got)
	}
}

func TestIndexInUse(t *testing.T) {
	dir := t.TempDir()
	idx := filepath.Join(dir, "kb.idx")
	held, err := dedup.OpenIndex(idx, "anything")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	in := writeInput(t, dir, "docs.jsonl", line(t, scored("http://a.test/1", articleA, 0.8, true)))
	code, _, stderr := runCmd(t, "--index", idx, "-o", filepath.Join(dir, "out.jsonl"), in)
	if code != cli.ExitFatal || !strings.Contains(stderr, "in use by another dedupe run") {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--keep", "oldest"}, "--keep"},
		{[]string{"--method", "minhash"}, "--method"},
		{[]string{"-k", "12"}, "-k 12"},
		{[]string{"--window", "-3"}, "--window"},
		{[]string{"--max-distance", "3"}, "--max-distance"},
		{[]string{"--shingle", "0"}, "--shingle"},
		{[]string{"search", "--store", "missing.sqlite", "造林"}, "--store"},
		{[]string{"search", "--store", "x.sqlite"}, "QUERY"},
		{[]string{"search", "--store", "x.sqlite", "--format", "xml", "q"}, "--format"},
	}
	for _, tt := range tests {
		code, _, stderr := runCmd(t, tt.args...)
		if code != cli.ExitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want usage error naming %s", tt.args, code, stderr, tt.want)
		}
	}
}

// TestDocTokens: a doc's own tokens give the fingerprint cutting its
// content gives; --doc-tokens=false ignores tokens that are not the
// content's (another dictionary's).
func TestDocTokens(t *testing.T) {
	dir := t.TempDir()
	tok := text.NewTokenizer(text.Options{})
	plain := scored("http://a/1", articleA, 0.5, true)
	carried := scored("http://b/1", articleA, 0.5, true)
	carried.Tokens = tok.Tokens(carried.Title + "\n" + carried.Content)
	other := scored("http://c/1", articleA, 0.5, true)
	other.Tokens = []string{"森林", "抚育"} // found in the text, but not all of its words
	in := writeInput(t, dir, "in.jsonl", line(t, plain), line(t, carried), line(t, other))
	prints := func(args ...string) map[string]string {
		t.Helper()
		code, out, errs := runCmd(t, append(args, "--window", "0", "--emit-dups", "--min-tokens", "1000", in)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		got := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var k record.Knowledge
			if err := json.Unmarshal([]byte(l), &k); err != nil {
				t.Fatal(err)
			}
			got[k.URL] = k.Fingerprint
		}
		return got
	}
	// --min-tokens 1000 keeps near matching out: the exact hash folds
	// the three into one group, and only the kept copy has a fingerprint
	// of its own — so look at each doc alone.
	for _, d := range []record.ScoredDoc{carried, other} {
		one := writeInput(t, dir, "one.jsonl", line(t, d))
		code, out, _ := runCmd(t, "--window", "0", one)
		var k record.Knowledge
		if code != 0 || json.Unmarshal([]byte(out), &k) != nil {
			t.Fatalf("%s: exit %d, %q", d.URL, code, out)
		}
		code, out2, _ := runCmd(t, "--window", "0", "--doc-tokens=false", one)
		var k2 record.Knowledge
		if code != 0 || json.Unmarshal([]byte(out2), &k2) != nil {
			t.Fatalf("%s --doc-tokens=false: exit %d, %q", d.URL, code, out2)
		}
		want := prints()["http://a/1"]
		if k2.Fingerprint != want {
			t.Errorf("%s --doc-tokens=false: fingerprint %s, want the content's %s", d.URL, k2.Fingerprint, want)
		}
		if same := k.Fingerprint == want; same != (d.URL == carried.URL) {
			t.Errorf("%s: fingerprint %s from its tokens, content's %s", d.URL, k.Fingerprint, want)
		}
	}
}

// TestSearchTableIsPrintable: a page whose title and text carry terminal
// escape sequences (retitle the window, clear the screen) and BEL is
// printed by search --format text (the table) without them; the match is still
// marked, and the JSON output keeps the text as it was.
func TestSearchTableIsPrintable(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "kb.db")
	doc := scored("http://evil.test/\x1b[2J", "\x1b]0;PWNED\x07"+articleA+"\x1b[2J\x07", 0.9, true)
	doc.Title = "\x1b]0;PWNED\x07\x1b[2J抚育 news\x07"
	in := writeInput(t, dir, "docs.jsonl", line(t, doc))
	if code, _, stderr := runCmd(t, "--store", store, "-o", filepath.Join(dir, "out.jsonl"), in); code != 0 {
		t.Fatalf("dedupe: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr := runCmd(t, "search", "--store", store, "--format", "text", "抚育")
	if code != 0 {
		t.Fatalf("search: exit %d\n%s", code, stderr)
	}
	if strings.ContainsAny(stdout, "\x1b\x07\x00") || strings.Contains(stdout, "PWNED") {
		t.Fatalf("the table prints the page's control characters:\n%q", stdout)
	}
	if !strings.Contains(stdout, " 1. 抚育 news") || !strings.Contains(stdout, "[抚育]") {
		t.Fatalf("the title or the marked match is lost:\n%s", stdout)
	}
	code, stdout, _ = runCmd(t, "search", "--store", store, "--format", "jsonl", "抚育")
	if code != 0 || !strings.Contains(stdout, `\u001b]0;PWNED`) {
		t.Fatalf("the JSON output should keep the title as it is (escaped): exit %d\n%s", code, stdout)
	}
}
