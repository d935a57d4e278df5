package dedupe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/cli/clitest"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// TestInputFields: every key input reads is a key of the docs, scored docs
// or knowledge records dedupe reads, with the same type.
func TestInputFields(t *testing.T) {
	if err := record.FieldsOf(input{}, record.ScoredDoc{}, record.Knowledge{}); err != nil {
		t.Fatal(err)
	}
}

const (
	textA = "省林业局印发森林抚育作业技术规程，对中幼龄林抚育间伐的对象、强度和方式作出明确规定。\n\n规程要求抚育间伐应当按照小班设计，伐后郁闭度不低于零点六，保留木分布均匀。"
	textB = "今年以来全省森林防火形势总体平稳，未发生重大森林火灾。\n\n各地要严格落实野外火源管控措施，加强重点时段和重点区域的巡护检查。"
)

func doc(t *testing.T, url, content string, score float64, relevant bool) string {
	t.Helper()
	b, err := json.Marshal(record.ScoredDoc{Doc: record.Doc{URL: url, Content: content, Meta: json.RawMessage(`{"job":7}`)}, Score: score, Relevant: relevant})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func knowledge(t *testing.T, out string) []record.Knowledge {
	t.Helper()
	var ks []record.Knowledge
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var k record.Knowledge
		if err := json.Unmarshal([]byte(l), &k); err != nil {
			t.Fatalf("output line %q: %v", l, err)
		}
		ks = append(ks, k)
	}
	return ks
}

// TestRun: Run from Go keeps one copy of each text, drops the others
// with duplicate_of, skips irrelevant docs, sends error docs to Errors
// and rejects what is not a doc.
func TestRun(t *testing.T) {
	errPath := filepath.Join(t.TempDir(), "errors.jsonl")
	in := strings.Join([]string{
		doc(t, "http://a.test/1", textA, 0.5, true),
		doc(t, "http://b.test/copy", textA, 0.9, true),
		doc(t, "http://a.test/2", textB, 0.7, true),
		doc(t, "http://a.test/1", textB+"\n\n另一段。", 0.7, true),
		doc(t, "http://a.test/3", "无关的页面内容，讲的是别的事情。", 0.1, false),
		`{"url":"http://a.test/4","error":"fetch: timeout"}`,
		`not a record`,
		`{"content":"no url"}`,
	}, "\n")
	o := DefaultOptions()
	o.Dedup.EmitDups = true
	o.Dedup.Window = -1
	o.Errors = errPath
	o.Workers = 2
	var out bytes.Buffer
	err := Run(context.Background(), strings.NewReader(in), &out, o)
	if !errors.Is(err, cli.ErrRejected) || !strings.HasSuffix(err.Error(), ": 2") {
		t.Fatalf("Run: %v, want 2 rejected lines", err)
	}
	kept, dropped := map[string]record.Knowledge{}, map[string]string{}
	for _, k := range knowledge(t, out.String()) {
		switch {
		case k.Error != "":
			t.Errorf("error record in the output: %+v", k)
		case k.DuplicateOf != "":
			dropped[k.URL] += k.DuplicateOf
		default:
			kept[k.URL] = k
		}
	}
	if len(kept) != 2 || kept["http://a.test/1"].Content != textA || kept["http://a.test/2"].Content != textB ||
		string(kept["http://a.test/1"].Meta) != `{"job":7}` {
		t.Errorf("kept %+v", kept)
	}
	if len(dropped) != 2 || dropped["http://b.test/copy"] != "http://a.test/1" || dropped["http://a.test/1"] != "http://a.test/1" {
		t.Errorf("dropped %v", dropped)
	}
	b, err := os.ReadFile(errPath)
	if err != nil {
		t.Fatal(err)
	}
	if errs := knowledge(t, string(b)); len(errs) != 1 || errs[0].URL != "http://a.test/4" || errs[0].Error != "fetch: timeout" {
		t.Errorf("errors file %+v", errs)
	}
}

// TestRunLongLine: a line over the reader's cap is rejected and answered
// in the output with an error record for its URL; an error doc that only
// looks like one goes where error docs go.
func TestRunLongLine(t *testing.T) {
	big := `{"url":"http://big.test/p","score":0.5,"relevant":true,"content":"` + strings.Repeat("x", jsonl.DefaultMaxLine) + `"}`
	lookalike := `{"url":"http://other.test/","status":0,"error":"input: line too long (over 1 bytes)","title":"t"}`
	in := big + "\n" + lookalike + "\n" + doc(t, "http://small.test/", textB, 0.9, true) + "\n"
	var out bytes.Buffer
	err := Run(context.Background(), strings.NewReader(in), &out, DefaultOptions())
	if !errors.Is(err, cli.ErrRejected) {
		t.Fatalf("Run: %v", err)
	}
	ks := knowledge(t, out.String())
	if len(ks) != 2 || ks[0].URL != "http://big.test/p" || !strings.HasPrefix(ks[0].Error, "input: line too long") ||
		ks[1].URL != "http://small.test/" || ks[1].Error != "" {
		t.Errorf("records %+v", ks)
	}
}

// TestInterrupt: when the context ends while the input is still open
// (a feedback loop), RunStream writes the groups it holds and leaves the
// index with them: a second run finds every doc as a copy of an earlier
// one.
func TestInterrupt(t *testing.T) {
	idx := filepath.Join(t.TempDir(), "kb.idx")
	o := DefaultOptions()
	o.Index, o.Dedup.Window, o.MaxHold = idx, -1, 0
	docs := doc(t, "http://a.test/1", textA, 0.5, true) + "\n" + doc(t, "http://a.test/2", textB, 0.5, true) + "\n"
	pr, pw := io.Pipe()
	defer pw.Close()
	var out, log clitest.SyncBuffer
	s := cli.NewStream(pr, &out, cli.NewLogger("dedupe", &log, false))
	s.Progress = true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- RunStream(ctx, s, o) }()
	if _, err := io.WriteString(pw, docs); err != nil {
		t.Fatal(err)
	}
	// The progress line says when both docs are decided (held: --window all).
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(log.String(), "2 docs read"); {
		if time.Now().After(deadline) {
			t.Fatalf("no progress:\n%s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("RunStream: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("RunStream still running after the interrupt")
	}
	if err := s.CloseOutput(); err != nil {
		t.Fatal(err)
	}
	if ks := knowledge(t, out.String()); len(ks) != 2 {
		t.Fatalf("held groups written at the interrupt: %+v", ks)
	}
	var again bytes.Buffer
	if err := Run(context.Background(), strings.NewReader(docs), &again, o); err != nil {
		t.Fatal(err)
	}
	if again.Len() != 0 {
		t.Errorf("second run wrote %s", again.String())
	}
}

// TestRunSkipsHubs: knowledge is made of articles: a hub page (a home or
// channel page, segment's page_type hub) is skipped unless Hubs.
func TestRunSkipsHubs(t *testing.T) {
	b, err := json.Marshal(record.ScoredDoc{Doc: record.Doc{URL: "http://a.test/", PageType: "hub", Title: "首页", Content: textB}, Score: 0.9, Relevant: true})
	if err != nil {
		t.Fatal(err)
	}
	hub := string(b)
	in := doc(t, "http://a.test/1", textA, 0.5, true) + "\n" + hub + "\n"
	for _, keep := range []bool{false, true} {
		o := DefaultOptions()
		o.Hubs = keep
		var out, log bytes.Buffer
		s := cli.NewStream(strings.NewReader(in), &out, cli.NewLogger("dedupe", &log, false))
		if err := errors.Join(RunStream(context.Background(), s, o), s.Close()); err != nil {
			t.Fatal(err)
		}
		urls := map[string]bool{}
		for _, k := range knowledge(t, out.String()) {
			urls[k.URL] = true
		}
		if !urls["http://a.test/1"] || urls["http://a.test/"] != keep {
			t.Errorf("Hubs %v: knowledge of %v", keep, urls)
		}
		if !keep && !strings.Contains(log.String(), "1 hub pages skipped") {
			t.Errorf("summary: %s", log.String())
		}
	}
}
