package mirrorweb

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/focuscrawl/focuscrawl/internal/warc"
)

// writeFiles writes files (path → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func gbk(t *testing.T, s string) string {
	t.Helper()
	b, err := simplifiedchinese.GBK.NewEncoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func page(title string, links ...string) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + title + "</title></head><body>")
	for _, l := range links {
		b.WriteString(`<a href="` + l + `">` + l + "</a> ")
	}
	b.WriteString("</body></html>")
	return b.String()
}

// tinyMirror is a.test (robots.txt, a docs/ tree with three topic pages
// and an orphan, a robots-blocked page, links to an unknown and a down
// host) and b.test (a GBK home page, no robots.txt).
func tinyMirror(t *testing.T) (*Web, string) {
	t.Helper()
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	writeFiles(t, a, map[string]string{
		"robots.txt":          "User-agent: *\nDisallow: /private/\n",
		"index.html":          page("home", "/docs/", "/misc.html", "/private/p.html", "http://gone.test/x", "http://down.test/", "http://b.test/"),
		"misc.html":           page("misc", "/docs/t1.html"),
		"docs/index.html":     page("docs", "t1.html", "t2.html"),
		"docs/t1.html":        page("t1", "t2.html"),
		"docs/t2.html":        page("t2", "deep/t3.html#top"),
		"docs/deep/t3.html":   page("t3"),
		"docs/orphan.html":    page("orphan"),
		"private/p.html":      page("private"),
		"img/logo.png":        "\x89PNG\r\n\x1a\nxxxx",
		"empty/readme.txt":    "nothing to see",
		"notes/manual.pdf":    "%PDF-1.4",
		"notes/index.html.en": "x",
	})
	writeFiles(t, b, map[string]string{
		"index.html": gbk(t, `<html><head><meta http-equiv="Content-Type" content="text/html; charset=gbk"><title>首页</title></head>`+
			`<body><a href="http://a.test/docs/t2.html">滤镜文档</a> <a href="/文档.html">文档</a></body></html>`),
	})
	w, err := New([]Source{{Host: "a.test", Dir: a}, {Host: "b.test", Dir: b}},
		Options{AutoIndex: true, Down: map[string]Down{"down.test": DownRefused, "slow.test": DownTimeout}, DownDelay: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, root
}

func TestServeByHostAndProxy(t *testing.T) {
	w, root := tinyMirror(t)
	var log bytes.Buffer
	srv := httptest.NewServer(w.Handler(&log))
	defer srv.Close()
	proxyURL, _ := url.Parse(srv.URL)
	proxied := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	direct := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	byProxy := func(u string) *http.Response {
		t.Helper()
		resp, err := proxied.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	byHost := func(host, path string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Host = host
		resp, err := direct.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	read := func(resp *http.Response) string {
		t.Helper()
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	gbkHome, _ := os.ReadFile(filepath.Join(root, "b", "index.html"))
	cases := []struct {
		name        string
		resp        func() *http.Response
		status      int
		ctype       string
		body        string
		location    string
		proxyStatus string
	}{
		{"proxy page", func() *http.Response { return byProxy("http://a.test/docs/t1.html") }, 200, "text/html", page("t1", "t2.html"), "", ""},
		{"host header page", func() *http.Response { return byHost("a.test", "/docs/t1.html") }, 200, "text/html", page("t1", "t2.html"), "", ""},
		{"host header with port", func() *http.Response { return byHost("A.test:80", "/misc.html") }, 200, "text/html", page("misc", "/docs/t1.html"), "", ""},
		{"dir index", func() *http.Response { return byProxy("http://a.test/docs/") }, 200, "text/html", page("docs", "t1.html", "t2.html"), "", ""},
		{"dir without slash", func() *http.Response { return byProxy("http://a.test/docs?x=1") }, 301, "", "", "http://a.test/docs/?x=1", ""},
		{"query ignored", func() *http.Response { return byProxy("http://a.test/docs/t1.html?a=b") }, 200, "text/html", page("t1", "t2.html"), "", ""},
		{"GBK bytes as stored, no charset added", func() *http.Response { return byProxy("http://b.test/") }, 200, "text/html", string(gbkHome), "", ""},
		{"robots as stored", func() *http.Response { return byProxy("http://a.test/robots.txt") }, 200, "text/plain", "User-agent: *\nDisallow: /private/\n", "", ""},
		{"no robots stored", func() *http.Response { return byProxy("http://b.test/robots.txt") }, 404, "", "", "", ""},
		{"png", func() *http.Response { return byProxy("http://a.test/img/logo.png") }, 200, "image/png", "\x89PNG\r\n\x1a\nxxxx", "", ""},
		{"pdf", func() *http.Response { return byProxy("http://a.test/notes/manual.pdf") }, 200, "application/pdf", "%PDF-1.4", "", ""},
		{"language variant", func() *http.Response { return byProxy("http://a.test/notes/index.html.en") }, 200, "text/html", "x", "", ""},
		{"missing", func() *http.Response { return byProxy("http://a.test/nope.html") }, 404, "", "", "", ""},
		{"escape the tree", func() *http.Response { return byHost("a.test", "/../b/index.html") }, 404, "", "", "", ""},
		{"unknown host", func() *http.Response { return byProxy("http://gone.test/x") }, 502, "", "", "", "simweb; error=dns_error"},
		{"unknown host by Host header", func() *http.Response { return byHost("gone.test", "/") }, 502, "", "", "", "simweb; error=dns_error"},
		{"down host", func() *http.Response { return byProxy("http://down.test/") }, 502, "", "", "", "simweb; error=connection_refused"},
		{"timing out host", func() *http.Response { return byProxy("http://slow.test/") }, 504, "", "", "", "simweb; error=connection_timeout"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := c.resp()
			body := read(resp)
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d (body %q)", resp.StatusCode, c.status, body)
			}
			if c.ctype != "" && resp.Header.Get("Content-Type") != c.ctype {
				t.Errorf("Content-Type %q, want %q", resp.Header.Get("Content-Type"), c.ctype)
			}
			if c.body != "" && body != c.body {
				t.Errorf("body %q, want %q", body, c.body)
			}
			if resp.Header.Get("Location") != c.location {
				t.Errorf("Location %q, want %q", resp.Header.Get("Location"), c.location)
			}
			if resp.Header.Get("Proxy-Status") != c.proxyStatus {
				t.Errorf("Proxy-Status %q, want %q", resp.Header.Get("Proxy-Status"), c.proxyStatus)
			}
		})
	}
	// An autoindex listing for a directory without index.html.
	list := read(byProxy("http://a.test/empty/"))
	if !strings.Contains(list, `<a href="readme.txt">readme.txt</a>`) {
		t.Errorf("listing of /empty/ lacks readme.txt:\n%s", list)
	}
	// https through the proxy: CONNECT is refused for every host.
	if _, err := proxied.Get("https://a.test/"); err == nil {
		t.Error("CONNECT to a.test:443 succeeded; the mirror is plain http")
	}

	// The request log: one JSON line per request, with host and mode.
	sc := bufio.NewScanner(&log)
	n, hosts := 0, map[string]int{}
	for sc.Scan() {
		var l logLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		n++
		hosts[l.Host]++
		if l.Host == "gone.test" && l.Error != "dns_error" {
			t.Errorf("log line for gone.test: error %q", l.Error)
		}
	}
	if want := len(cases) + 2; n != want {
		t.Errorf("%d log lines, want %d", n, want)
	}
	if hosts["a.test"] < 10 || hosts["b.test"] != 2 {
		t.Errorf("log hosts %v", hosts)
	}
}

func TestWARCServing(t *testing.T) {
	dir := t.TempDir()
	// A .warc.gz written by the project's writer: one gzip member per record.
	gzPath := filepath.Join(dir, "a.warc.gz")
	ww, err := warc.Create(gzPath, "test")
	if err != nil {
		t.Fatal(err)
	}
	if err := ww.WriteExchange(warc.Exchange{
		TargetURI:    "http://w.test/page.html",
		Date:         time.Unix(1700000000, 0),
		Request:      []byte("GET /page.html HTTP/1.1\r\nHost: w.test\r\n\r\n"),
		ResponseHead: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=gbk\r\nTransfer-Encoding: chunked\r\n\r\n"),
		Body:         []byte("5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"),
	}); err != nil {
		t.Fatal(err)
	}
	if err := ww.WriteExchange(warc.Exchange{
		TargetURI:    "http://w.test/old",
		Date:         time.Unix(1700000000, 0),
		Request:      []byte("GET /old HTTP/1.1\r\nHost: w.test\r\n\r\n"),
		ResponseHead: []byte("HTTP/1.1 301 Moved Permanently\r\nLocation: http://w.test/page.html\r\nContent-Length: 0\r\n\r\n"),
	}); err != nil {
		t.Fatal(err)
	}
	if err := ww.Close(); err != nil {
		t.Fatal(err)
	}
	// An uncompressed WARC/1.0 file with LF line ends, a robots.txt and
	// a resource record.
	rec := func(typ, uri, block string) string {
		return "WARC/1.0\nWARC-Type: " + typ + "\nWARC-Target-URI: <" + uri + ">\nWARC-Date: 2020-01-01T00:00:00Z\n" +
			"WARC-Record-ID: <urn:uuid:1>\nContent-Type: text/plain\nContent-Length: " + strconv.Itoa(len(block)) + "\n\n" + block + "\n\n"
	}
	robots := "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *\nDisallow: /secret\n"
	plain := rec("warcinfo", "", "x") + rec("response", "http://v.test/robots.txt", robots) + rec("resource", "http://v.test/notes.txt", "plain notes") +
		rec("resource", "https://v.test/secure.txt", "captured over https") + rec("resource", "http://v.test/notes.txt", "newer notes")
	plainPath := filepath.Join(dir, "b.warc")
	if err := os.WriteFile(plainPath, []byte(plain), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := New([]Source{{WARC: gzPath}, {WARC: plainPath}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if got := w.Hosts(); strings.Join(got, " ") != "v.test w.test" {
		t.Errorf("hosts %v", got)
	}
	srv := httptest.NewServer(w.Handler(nil))
	defer srv.Close()
	proxyURL, _ := url.Parse(srv.URL)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)}}
	get := func(u string) (*http.Response, string) {
		resp, err := client.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, body := get("http://w.test/old") // follows the captured redirect
	if resp.StatusCode != 200 || body != "hello world" || resp.Header.Get("Content-Type") != "text/html; charset=gbk" {
		t.Errorf("w.test/old: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if resp.Request.URL.String() != "http://w.test/page.html" {
		t.Errorf("redirect went to %s", resp.Request.URL)
	}
	if resp, body := get("http://v.test/robots.txt"); resp.StatusCode != 200 || !strings.Contains(body, "Disallow: /secret") {
		t.Errorf("v.test robots: %d %q", resp.StatusCode, body)
	}
	if resp, body := get("http://v.test/secure.txt"); resp.StatusCode != 200 || body != "captured over https" {
		t.Errorf("v.test https capture under http: %d %q", resp.StatusCode, body)
	}
	if resp, body := get("http://v.test/notes.txt"); resp.StatusCode != 200 || body != "newer notes" || resp.Header.Get("Content-Type") != "text/plain" {
		t.Errorf("v.test resource: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if resp, _ := get("http://w.test/robots.txt"); resp.StatusCode != 404 {
		t.Errorf("w.test robots: %d, want 404 (none captured)", resp.StatusCode)
	}
	if resp, _ := get("http://x.test/"); resp.StatusCode != 502 || resp.Header.Get("Proxy-Status") != "simweb; error=dns_error" {
		t.Errorf("x.test: %d %q", resp.StatusCode, resp.Header.Get("Proxy-Status"))
	}
}

func TestParseSourceAndDown(t *testing.T) {
	for _, c := range []struct {
		arg  string
		want Source
		err  bool
	}{
		{"Docs.test=web/docs", Source{Host: "docs.test", Dir: "base/web/docs"}, false},
		{"crawl.warc.gz", Source{WARC: "base/crawl.warc.gz"}, false},
		{"/abs/x.warc", Source{WARC: "/abs/x.warc"}, false},
		{"docs.test:8080=web", Source{}, true},
		{"=web", Source{}, true},
		{"notes.txt", Source{}, true},
	} {
		got, err := ParseSource(c.arg, "base")
		if (err != nil) != c.err || got != c.want {
			t.Errorf("ParseSource(%q) = %+v, %v; want %+v (error %v)", c.arg, got, err, c.want, c.err)
		}
	}
	for _, c := range []struct {
		arg  string
		host string
		kind Down
	}{{"a.test", "a.test", DownRefused}, {"A.test=timeout", "a.test", DownTimeout}, {"a.test=dns", "a.test", DownDNS}} {
		h, k, err := ParseDown(c.arg)
		if err != nil || h != c.host || k != c.kind {
			t.Errorf("ParseDown(%q) = %q %q %v", c.arg, h, k, err)
		}
	}
	if _, _, err := ParseDown("a.test=sleepy"); err == nil {
		t.Error("ParseDown accepted an unknown kind")
	}
}

const tinyRules = `topics:
  docs:
    - {host: a.test, regex: '^/docs/(deep/)?t[0-9]\.html$'}
    - {host: a.test, paths: [/docs/orphan.html]}
  other:
    - {host: b.test, prefix: /}
`

func TestRules(t *testing.T) {
	r, err := ParseRules([]byte(tinyRules))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		topic, url string
		want       bool
	}{
		{"docs", "http://a.test/docs/t1.html", true},
		{"docs", "http://a.test/docs/deep/t3.html", true},
		{"docs", "http://a.test/docs/orphan.html", true},
		{"docs", "http://a.test/docs/index.html", false},
		{"docs", "http://b.test/docs/t1.html", false},
		{"docs", "http://A.test:80/docs/t2.html", true},
		{"other", "http://b.test/x", true},
		{"nope", "http://b.test/x", false},
	} {
		if got := r.Match(c.topic, c.url); got != c.want {
			t.Errorf("Match(%s, %s) = %v", c.topic, c.url, got)
		}
	}
	for _, bad := range []struct{ yaml, want string }{
		{"topics:\n  t:\n    - {host: a.test, prefx: /}\n", `3:7: topics.t[0]: unknown key "prefx"`},
		{"topics:\n  t:\n    - {prefix: /}\n", "host: missing"},
		{"topics:\n  t:\n    - {host: a.test}\n", "want prefix, regex or paths"},
		{"topics:\n  t:\n    - {host: a.test, regex: '('}\n", "regex:"},
		{"topics: {}\n", "topics: want a map"},
		{"topic: {}\n", "field topic not found"},
	} {
		_, err := ParseRules([]byte(bad.yaml))
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseRules(%q): error %v, want one containing %q", bad.yaml, err, bad.want)
		}
	}
}

func tinyGraph(t *testing.T) *Graph {
	t.Helper()
	w, _ := tinyMirror(t)
	r, err := ParseRules([]byte(tinyRules))
	if err != nil {
		t.Fatal(err)
	}
	g, err := w.Build(context.Background(), []string{"http://a.test/"}, r)
	if err != nil {
		t.Fatal(err)
	}
	// Through a file and back, as eval reads it.
	p := filepath.Join(t.TempDir(), "truth.jsonl")
	var buf bytes.Buffer
	if err := g.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	g2, err := ReadGraph(p)
	if err != nil {
		t.Fatal(err)
	}
	return g2
}

func TestBuildTruth(t *testing.T) {
	g := tinyGraph(t)
	want := []struct {
		url         string
		depth       int
		status      int
		unfetchable string
		relevant    string
	}{
		{"http://a.test/", 0, 200, "", ""},
		{"http://a.test/docs/", 1, 200, "", ""},
		{"http://a.test/misc.html", 1, 200, "", ""},
		{"http://a.test/private/p.html", 1, 0, "robots", ""},
		{"http://gone.test/x", 1, 0, "dns", ""},
		{"http://down.test/", 1, 0, "refused", ""},
		{"http://b.test/", 1, 200, "", "other"},
		{"http://a.test/docs/t1.html", 2, 200, "", "docs"},
		{"http://a.test/docs/t2.html", 2, 200, "", "docs"},
		{"http://b.test/%E6%96%87%E6%A1%A3.html", 2, 404, "", ""}, // a GBK href, decoded
		{"http://a.test/docs/deep/t3.html", 3, 200, "", "docs"},
		{"http://a.test/docs/index.html", -1, 200, "", ""},
		{"http://a.test/docs/orphan.html", -1, 200, "", "docs"},
		{"http://a.test/index.html", -1, 200, "", ""},
		{"http://b.test/index.html", -1, 200, "", "other"},
	}
	if len(g.Nodes) != len(want) {
		for _, n := range g.Nodes {
			t.Logf("%d %s depth %d status %d %s", n.ID, n.URL, n.Depth, n.Status, n.Unfetchable)
		}
		t.Fatalf("%d nodes, want %d", len(g.Nodes), len(want))
	}
	for i, w := range want {
		n := g.Nodes[i]
		rel := strings.Join(n.Relevant, ",")
		if n.URL != w.url || n.Depth != w.depth || n.Status != w.status || n.Unfetchable != w.unfetchable || rel != w.relevant {
			t.Errorf("node %d: %s depth %d status %d unfetchable %q relevant %q; want %+v",
				i, n.URL, n.Depth, n.Status, n.Unfetchable, rel, w)
		}
	}
	// dir/ and dir/index.html are one resource.
	if a, b := g.Node("http://a.test/docs/"), g.Node("http://a.test/docs/index.html"); a.Resource == "" || a.Resource != b.Resource {
		t.Errorf("resources %q and %q differ", a.Resource, b.Resource)
	}
}

func TestEvaluate(t *testing.T) {
	g := tinyGraph(t)
	// The first fetch of each unreachable host (gone.test, elsewhere.test)
	// is its host probe, not a slot; gone.test's second is a slot, and so
	// is a URL refused before any contact (other.test).
	crawl := []Fetch{
		{URL: "http://a.test/"},
		{URL: "http://gone.test/x"},
		{URL: "http://a.test/docs/t1.html"},
		{URL: "http://a.test/private/p.html"},
		{URL: "http://a.test/docs", FinalURL: "http://a.test/docs/"},
		{URL: "http://a.test/docs/t2.html"},
		{URL: "http://gone.test/y"},
		{URL: "http://elsewhere.test/"},
		{URL: "http://u@other.test/", Error: "invalid url: user info in URL"},
	}
	r, err := g.Evaluate("docs", crawl, []int{2, 4, 6})
	if err != nil {
		t.Fatal(err)
	}
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if r.Pages != 7 || r.HostProbes != 2 || r.Relevant != 2 || r.Found != 2 || r.RelevantExist != 4 || r.Reachable != 3 || r.Unknown != 1 {
		t.Errorf("pages %d probes %d relevant %d found %d exist %d reachable %d unknown %d; want 7 2 2 2 4 3 1",
			r.Pages, r.HostProbes, r.Relevant, r.Found, r.RelevantExist, r.Reachable, r.Unknown)
	}
	near("harvest@2", r.HarvestAt[2], 0.5)
	near("harvest@4", r.HarvestAt[4], 0.25)
	near("harvest@6", r.HarvestAt[6], 2.0/6)
	near("recall@4", r.RecallAt[4], 1.0/3)
	near("recall@6", r.RecallAt[6], 2.0/3)
	near("unfetchable@2", r.UnfetchableAt[2], 0)
	near("unfetchable@4", r.UnfetchableAt[4], 0.25)
	near("unfetchable@6", r.UnfetchableAt[6], 2.0/6)
	if len(r.FetchesFor) != 1 || r.FetchesFor["0.5"] != 5 {
		t.Errorf("fetches for recall levels %v, want 0.5 at 5 only", r.FetchesFor)
	}
	if r.Unfetchable != 3 || r.UnfetchableBy["dns"] != 2 || r.UnfetchableBy["robots"] != 1 {
		t.Errorf("unfetchable %d %v; want 3 (dns 2, robots 1)", r.Unfetchable, r.UnfetchableBy)
	}
	// The oracle: the portal, docs/ (nearest to t1 and t2; misc and b.test
	// are as near, docs/ was linked first), t1, t2, t3.
	near("upper@2", r.Upper.HarvestAt[2], 0)
	near("upper@4", r.Upper.HarvestAt[4], 0.5)
	near("upper@6", r.Upper.HarvestAt[6], 0.5)
	if r.Upper.AllFoundAt != 5 {
		t.Errorf("oracle had every relevant URL at fetch %d, want 5", r.Upper.AllFoundAt)
	}
	if r.Verdicts != nil {
		t.Errorf("verdicts %+v from records without any", r.Verdicts)
	}
	if _, err := g.Evaluate("nope", crawl, nil); err == nil {
		t.Error("Evaluate accepted an unknown topic")
	}
}

// TestEvaluateVerdicts: the crawl's own verdicts against the truth, slot
// by slot, after redirects; failed fetches are slots but not judged, a
// host probe is neither, a record without a verdict is a slot only.
func TestEvaluateVerdicts(t *testing.T) {
	g := tinyGraph(t)
	yes, no := new(bool), new(bool)
	*yes = true
	crawl := []Fetch{
		{URL: "http://a.test/", Verdict: yes},                                           // 1: false positive
		{URL: "http://gone.test/x", Error: "dns: no such host", Verdict: no},            // host probe
		{URL: "http://a.test/docs/t1.html", Verdict: yes},                               // 2: true positive
		{URL: "http://a.test/misc.html", Verdict: yes},                                  // 3: false positive
		{URL: "http://a.test/docs", FinalURL: "http://a.test/docs/", Verdict: yes},      // 4: false positive (docs/ is not relevant)
		{URL: "http://a.test/docs/t2.html", Verdict: no},                                // 5: false negative
		{URL: "http://a.test/private/p.html", Error: "robots: disallowed", Verdict: no}, // 6: failed, not judged
		{URL: "http://a.test/docs/deep/t3.html", Verdict: yes},                          // 7: true positive
		{URL: "http://a.test/docs/t1.html"},                                             // 8: no verdict
	}
	r, err := g.Evaluate("docs", crawl, []int{4, 6})
	if err != nil {
		t.Fatal(err)
	}
	v := r.Verdicts
	if v == nil {
		t.Fatal("no verdicts")
	}
	// 8 slots, 5 said relevant; 6 judged: TP 2, FP 3, FN 1, TN 0.
	want := VerdictFigures{Judged: 6, TruePos: 2, FalsePos: 3, FalseNeg: 1, TrueNeg: 0,
		Precision: 0.4, Recall: 2.0 / 3, BelievedHarvest: 5.0 / 8}
	// After 4 slots: TP 1, FP 3, all four said relevant. After 6: t2 missed,
	// p.html failed.
	want4 := VerdictFigures{Judged: 4, TruePos: 1, FalsePos: 3, Precision: 0.25, Recall: 1, BelievedHarvest: 1}
	want6 := VerdictFigures{Judged: 5, TruePos: 1, FalsePos: 3, FalseNeg: 1, Precision: 0.25, Recall: 0.5, BelievedHarvest: 4.0 / 6}
	for _, c := range []struct {
		name      string
		got, want VerdictFigures
	}{{"all", v.VerdictFigures, want}, {"at 4", v.At[4], want4}, {"at 6", v.At[6], want6}} {
		if c.got != c.want {
			t.Errorf("verdicts %s: %+v, want %+v", c.name, c.got, c.want)
		}
	}
	if r.Pages != 8 || r.Harvest != 0.5 {
		t.Errorf("pages %d harvest %v, want 8 and 0.5 (the truth's, beside the believed 0.625)", r.Pages, r.Harvest)
	}
}

// TestUpperBoundThroughTunnel: when no relevant URL is in the frontier,
// the oracle takes the shortest way to one, not the first link.
func TestUpperBoundThroughTunnel(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"index.html": page("home", "/a1.html", "/b1.html"),
		"a1.html":    page("a1", "/a2.html"),
		"a2.html":    page("a2", "/a3.html"),
		"a3.html":    page("a3", "/rel1.html"),
		"b1.html":    page("b1", "/rel2.html"),
		"rel1.html":  page("rel1"),
		"rel2.html":  page("rel2", "/rel3.html"),
		"rel3.html":  page("rel3"),
	})
	w, err := New([]Source{{Host: "t.test", Dir: root}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := ParseRules([]byte("topics:\n  rel:\n    - {host: t.test, prefix: /rel}\n"))
	g, err := w.Build(context.Background(), []string{"http://t.test/"}, r)
	if err != nil {
		t.Fatal(err)
	}
	up := g.UpperBound("rel", 10, []int{3, 4, 8})
	// home, b1 (one link from rel2; a1 is three), rel2, rel3, then a1,
	// a2, a3, rel1.
	if up.HarvestAt[3] != 1.0/3 || up.HarvestAt[4] != 2.0/4 || up.HarvestAt[8] != 3.0/8 || up.AllFoundAt != 8 {
		t.Errorf("upper bound %v, all found at %d; want 1/3, 2/4, 3/8 and 8", up.HarvestAt, up.AllFoundAt)
	}
}
