package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// article is a small Chinese article page with a byline, a date and links.
func article(n int) string {
	return `<html><head><title>浙江推进森林抚育经营` + strings.Repeat("第", n) + `_中国林业网</title></head><body>` +
		`<div class="nav"><a href="/">首页</a> <a href="/news/">新闻</a></div>` +
		`<div class="info">发布时间：2017-04-01 08:00 来源：浙江日报 作者：张三</div>` +
		`<div class="content"><p>` + strings.Repeat("森林抚育经营是提高森林质量的关键措施，各地要科学确定抚育方式。", 6) + `</p>` +
		`<p>相关：<a href="/a/2.html">江西启动国家储备林建设项目试点工作</a></p></div></body></html>`
}

// writePages writes page records, one line each, plus raw lines.
func writePages(t *testing.T, lines ...any) string {
	t.Helper()
	var b bytes.Buffer
	for _, l := range lines {
		switch v := l.(type) {
		case string:
			b.WriteString(v + "\n")
		default:
			j, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(append(j, '\n'))
		}
	}
	p := filepath.Join(t.TempDir(), "pages.jsonl")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// run runs segment with the args and returns the exit code, the output
// lines as raw JSON and stderr.
func run(t *testing.T, args ...string) (code int, out []json.RawMessage, stderr string) {
	t.Helper()
	o := filepath.Join(t.TempDir(), "out.jsonl")
	var errb bytes.Buffer
	code = cli.Run(newApp(), append([]string{"segment", "-o", o}, args...), &errb)
	f, err := os.Open(o)
	if err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			out = append(out, json.RawMessage(append([]byte(nil), sc.Bytes()...)))
		}
	}
	return code, out, errb.String()
}

func TestSegmentStream(t *testing.T) {
	var pages []any
	for i := range 12 {
		pages = append(pages, record.Page{URL: "http://www.forestry.example.cn/a/" + string(rune('a'+i)) + ".html",
			Status: 200, HTML: article(i), Meta: record.Meta(`{"n":` + string(rune('0'+i%10)) + `}`)})
	}
	pages = append(pages, "this line is not a record",
		record.Page{URL: "http://down.example.cn/", Error: "fetch: connection refused"},
		`{"status":200,"html":"<p>x</p>"}`)
	in := writePages(t, pages...)
	rej := filepath.Join(t.TempDir(), "rejects")
	code, out, stderr := run(t, "--workers", "4", "--tokens=false", "-q", "--rejects", rej, in)
	if code != cli.ExitRejected {
		t.Fatalf("exit %d, want %d (stderr %q)", code, cli.ExitRejected, stderr)
	}
	if b, _ := os.ReadFile(rej); string(b) != "this line is not a record\n"+`{"status":200,"html":"<p>x</p>"}`+"\n" {
		t.Errorf("rejects %q", b)
	}
	if len(out) != 13 {
		t.Fatalf("%d docs, want 13", len(out))
	}
	for i, raw := range out[:12] {
		var d record.Doc
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		if want := "http://www.forestry.example.cn/a/" + string(rune('a'+i)) + ".html"; d.URL != want {
			t.Fatalf("doc %d is %s, want %s: input order lost", i, d.URL, want)
		}
		if d.Author != "张三" || d.Source != "浙江日报" || d.Published != "2017-04-01T08:00:00+08:00" ||
			!strings.HasPrefix(d.Title, "浙江推进森林抚育经营") || !strings.Contains(d.Content, "科学确定抚育方式") {
			t.Errorf("doc %d: title %q author %q source %q published %q", i, d.Title, d.Author, d.Source, d.Published)
		}
		if string(d.Meta) != `{"n":`+string(rune('0'+i%10))+`}` || len(d.Tokens) != 0 || d.HTML != "" {
			t.Errorf("doc %d: meta %s, %d tokens, html kept %v", i, d.Meta, len(d.Tokens), d.HTML != "")
		}
	}
	var failed record.Doc
	if err := json.Unmarshal(out[12], &failed); err != nil || failed.Error != "fetch: connection refused" {
		t.Errorf("a failed page becomes a doc with its error: %s", out[12])
	}
}

func TestSegmentEmitBlocks(t *testing.T) {
	in := writePages(t, record.Page{URL: "http://www.forestry.example.cn/a.html", HTML: article(0), Meta: record.Meta(`{"k":1}`)})
	code, out, stderr := run(t, "--emit", "blocks", "--tokens=false", "--link-tokens", in)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	kinds := map[string]int{}
	links := 0
	for _, raw := range out {
		var b record.BlockRecord
		if err := json.Unmarshal(raw, &b); err != nil {
			t.Fatal(err)
		}
		if b.URL != "http://www.forestry.example.cn/a.html" || string(b.Meta) != `{"k":1}` || b.Path == "" {
			t.Errorf("block record %s", raw)
		}
		kinds[b.Kind]++
		for _, l := range b.Links {
			links++
			if l.Block != b.ID || len(l.Tokens) == 0 {
				t.Errorf("link %+v in block %d", l, b.ID)
			}
		}
	}
	if kinds["main"] == 0 || links != 3 {
		t.Errorf("kinds %v, %d links", kinds, links)
	}
}

func TestSegmentUsageErrors(t *testing.T) {
	in := writePages(t, record.Page{URL: "http://a.example/", HTML: "<p>x</p>"})
	for _, args := range [][]string{
		{"--emit", "pages"}, {"--workers", "0"}, {"--hub-ratio", "0"}, {"--tz", "+25:00"},
		{"--tz", "Mars/Olympus"}, {"--max-bytes", "lots"}, {"--topic", "/nonexistent/topic.yaml"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, _, stderr := run(t, append(args, in)...)
			if code != cli.ExitUsage || !strings.Contains(stderr, strings.TrimPrefix(args[0], "--")) {
				t.Errorf("exit %d, stderr %q: want %d naming the flag", code, stderr, cli.ExitUsage)
			}
		})
	}
}

func TestParseTZ(t *testing.T) {
	for in, want := range map[string]int{"+08:00": 8 * 3600, "-0500": -5 * 3600, "UTC": 0} {
		loc, err := parseTZ(in)
		if err != nil || loc == nil {
			t.Fatalf("parseTZ(%q): %v", in, err)
		}
		if _, off := (timeIn(loc)).Zone(); off != want {
			t.Errorf("parseTZ(%q) offset %d, want %d", in, off, want)
		}
	}
	if loc, err := parseTZ("auto"); loc != nil || err != nil {
		t.Errorf("auto: %v %v", loc, err)
	}
}

// timeIn is a fixed instant in loc.
func timeIn(loc *time.Location) time.Time { return time.Date(2020, 1, 1, 0, 0, 0, 0, loc) }
