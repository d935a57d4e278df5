package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/warc"
)

// warcCheck is the summary scripts/warccheck/check.mjs prints.
type warcCheck struct {
	Records        int            `json:"records"`
	Types          map[string]int `json:"types"`
	Targets        []string       `json:"targets"`
	Pairs          int            `json:"pairs"`
	BlockDigests   int            `json:"blockDigests"`
	PayloadDigests int            `json:"payloadDigests"`
	Truncated      int            `json:"truncated"`
	Statuses       map[string]int `json:"statuses"`
	Errors         []string       `json:"errors"`
}

// runWARCCheck reads a WARC file with webrecorder's warcio, on node. The
// check is part of make test: under CI (CI=true) a missing node or
// missing node modules fail the test; elsewhere they skip it, saying how
// to set it up.
func runWARCCheck(t *testing.T, path string) (warcCheck, error) {
	t.Helper()
	dir, _ := filepath.Abs("../../scripts/warccheck")
	missing := func(what string) {
		msg := what + ": .ci/run installs them (apt-get install nodejs npm; npm ci in scripts/warccheck)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "warcio")); err != nil {
		missing("warcio is not installed in scripts/warccheck/node_modules")
	}
	cmd := exec.Command(node, filepath.Join(dir, "check.mjs"), path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	var sum warcCheck
	if err := json.Unmarshal(out, &sum); err != nil {
		t.Fatalf("check.mjs printed %q (%v), stderr %s: %v", out, runErr, stderr.String(), err)
	}
	var ee *exec.ExitError
	if runErr != nil && !errors.As(runErr, &ee) {
		t.Fatal(runErr)
	}
	return sum, runErr
}

// TestWARCWithWarcio: fetch writes a WARC of pages, a gzip-encoded one, a
// redirect, a 404, robots.txt and a body cut at --max-bytes; warcio reads
// it all, pairs every request with its response and finds every block
// and payload digest right.
func TestWARCWithWarcio(t *testing.T) {
	big := strings.Repeat("<p>森林抚育 forest tending</p>\n", 4000) // ~150 KB
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nAllow: /\n"))
		case "/gz":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			zw.Write([]byte("<html><body><p>压缩的页面</p></body></html>"))
			zw.Close()
		case "/moved":
			http.Redirect(w, r, "/plain", http.StatusMovedPermanently)
		case "/plain":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte("<html><body><p>plain</p></body></html>"))
		case "/big":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(big))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "crawl.warc.gz")
	in := strings.Join([]string{srv.URL + "/gz", srv.URL + "/moved", srv.URL + "/big", srv.URL + "/gone"}, "\n") + "\n"
	if _, stderr, code := runFetch(t, in, "--delay", "0", "--max-bytes", "64KiB", "--warc", path); code != 0 {
		t.Fatalf("fetch: exit %d: %s", code, stderr)
	}
	sum, err := runWARCCheck(t, path)
	if err != nil || len(sum.Errors) > 0 {
		t.Fatalf("warcio check failed (%v): %v", err, sum.Errors)
	}
	want := []string{srv.URL + "/big", srv.URL + "/gone", srv.URL + "/gz", srv.URL + "/moved", srv.URL + "/plain", srv.URL + "/robots.txt"}
	if !slices.Equal(sum.Targets, want) {
		t.Errorf("targets %v, want %v", sum.Targets, want)
	}
	if sum.Types["warcinfo"] != 1 || sum.Types["request"] != 6 || sum.Types["response"] != 6 || sum.Records != 13 || sum.Pairs != 6 {
		t.Errorf("records %d %v, %d pairs; want 1 warcinfo and 6 request/response pairs", sum.Records, sum.Types, sum.Pairs)
	}
	if sum.BlockDigests != 12 || sum.PayloadDigests != 6 {
		t.Errorf("%d block and %d payload digests checked, want 12 and 6", sum.BlockDigests, sum.PayloadDigests)
	}
	if sum.Truncated != 1 || sum.Statuses["200"] != 4 || sum.Statuses["301"] != 1 || sum.Statuses["404"] != 1 {
		t.Errorf("truncated %d, statuses %v", sum.Truncated, sum.Statuses)
	}
}

// TestWARCCheckCatchesBadDigests: the checker is not a rubber stamp: a
// record whose digests do not match its block, and a request with no
// response, fail it.
func TestWARCCheckCatchesBadDigests(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.warc.gz")
	w, err := warc.Create(path, "test")
	if err != nil {
		t.Fatal(err)
	}
	block := []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>x</p>")
	w.Write(warc.Record{Type: "response", Headers: []warc.Header{
		{Name: "WARC-Record-ID", Value: warc.NewRecordID()},
		{Name: "WARC-Target-URI", Value: "http://a.example/"},
		{Name: "Content-Type", Value: "application/http;msgtype=response"},
		{Name: "WARC-Block-Digest", Value: warc.Digest(block[:10])},
		{Name: "WARC-Payload-Digest", Value: warc.Digest([]byte("<p>y</p>"))},
	}, Block: block})
	req := []byte("GET / HTTP/1.1\r\nHost: b.example\r\n\r\n")
	w.Write(warc.Record{Type: "request", Headers: []warc.Header{
		{Name: "WARC-Record-ID", Value: warc.NewRecordID()},
		{Name: "WARC-Target-URI", Value: "http://b.example/"},
		{Name: "Content-Type", Value: "application/http;msgtype=request"},
		{Name: "WARC-Block-Digest", Value: warc.Digest(req)},
	}, Block: req})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	sum, err := runWARCCheck(t, path)
	if err == nil {
		t.Fatalf("check passed a bad file: %+v", sum)
	}
	joined := strings.Join(sum.Errors, "\n")
	for _, want := range []string{"WARC-Block-Digest", "WARC-Payload-Digest", "has no concurrent response"} {
		if !strings.Contains(joined, want) {
			t.Errorf("errors lack %q:\n%s", want, joined)
		}
	}
}
