package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// runFetch runs the command with stdin and returns stdout, stderr and the
// exit code.
func runFetch(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	app := newApp()
	var out, errw bytes.Buffer
	app.Reader = strings.NewReader(stdin)
	app.Writer = &out
	code := cli.Run(app, append([]string{"fetch", "--allow-private"}, args...), &errw) // servers on loopback
	return out.String(), errw.String(), code
}

func TestFetchCommand(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nDisallow: /private\n"))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<p>" + r.URL.Path + "</p>"))
	}))
	defer srv.Close()
	huge := "http://x.test/" + strings.Repeat("a", 50<<20) // a 50 MB line
	input := strings.Join([]string{
		srv.URL + "/a",
		"# a comment",
		`{"url":"` + srv.URL + `/b","depth":2,"anchor":"林业","meta":{"job": 7}}`,
		`{"url": broken json`,
		srv.URL + "/private/x",
		"ftp://example.com/",
		huge,
		"http://bad\xff.test/",
		`{"depth":1}`,
		"",
	}, "\n")
	warcPath := filepath.Join(t.TempDir(), "x.warc.gz")
	rejects := filepath.Join(t.TempDir(), "rejects.txt")
	stdout, stderr, code := runFetch(t, input, "--delay", "0", "--rejects", rejects, "--warc", warcPath)
	if code != cli.ExitRejected {
		t.Errorf("exit code %d, want %d (lines rejected); stderr:\n%s", code, cli.ExitRejected, stderr)
	}
	for _, want := range []string{"stdin:4:", "stdin:7:", "stdin:8:", "stdin:9:", "line too long", "4 pages in"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%.2000s", want, stderr)
		}
	}
	pages := map[string]record.Page{}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p record.Page
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("bad output line %q: %v", sc.Text(), err)
		}
		pages[p.URL] = p
	}
	if len(pages) != 4 {
		t.Fatalf("%d pages, want 4:\n%s", len(pages), stdout)
	}
	if p := pages[srv.URL+"/a"]; p.HTML != "<p>/a</p>" || p.Status != 200 {
		t.Errorf("/a: %+v", p)
	}
	if p := pages[srv.URL+"/b"]; p.Depth != 2 || p.Anchor != "林业" || string(p.Meta) != `{"job": 7}` {
		t.Errorf("/b lineage or meta lost: %+v meta %s", p.Lineage, p.Meta)
	}
	if p := pages[srv.URL+"/private/x"]; !strings.HasPrefix(p.Error, "robots-disallow") {
		t.Errorf("/private/x: error %q", p.Error)
	}
	if p := pages["ftp://example.com/"]; !strings.HasPrefix(p.Error, "invalid url") {
		t.Errorf("ftp: error %q", p.Error)
	}
	if st, err := os.Stat(warcPath); err != nil || st.Size() == 0 {
		t.Errorf("warc file: %v", err)
	}
	rej, _ := os.ReadFile(rejects)
	if n := strings.Count(string(rej), "\n"); n != 4 {
		t.Errorf("rejects file holds %d lines, want 4", n)
	}
}

func TestFetchUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--resolve", "nonsense"},
		{"--max-bytes", "lots"},
		{"-c", "0"},
		{"--per-host", "-1"},
		{"--retries", "-2"},
		{"--progress", "sometimes"},
		{"--proxy", "::"},
		{"--accept", "html"},
	} {
		_, stderr, code := runFetch(t, "", args...)
		if code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d; stderr %s", args, code, cli.ExitUsage, stderr)
		}
	}
}

func TestProgressAndQuiet(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>x</p>"))
	}))
	defer srv.Close()
	_, stderr, code := runFetch(t, srv.URL+"/\n", "--progress", "on", "--ignore-robots")
	if code != 0 || !strings.Contains(stderr, "hosts waiting") || !strings.Contains(stderr, "pages/s") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = runFetch(t, srv.URL+"/\n", "-q", "--ignore-robots")
	if code != 0 || stderr != "" {
		t.Errorf("-q: exit %d, stderr %q", code, stderr)
	}
}

// TestInterruptWritesARecordPerInput sends the process a real SIGINT while
// stdin stays open and the server hangs: every URL read must come out.
func TestInterruptWritesARecordPerInput(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(10 * time.Second):
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	pr, pw := io.Pipe()
	defer pw.Close()
	const n = 30
	go func() {
		for i := 0; i < n; i++ {
			fmt.Fprintf(pw, "%s/%d\n", srv.URL, i)
		}
		// stdin stays open, like `seed next --follow`
	}()
	app := newApp()
	var out, errw bytes.Buffer
	app.Reader = pr
	app.Writer = &out
	time.AfterFunc(500*time.Millisecond, func() { syscall.Kill(os.Getpid(), syscall.SIGINT) })
	start := time.Now()
	code := cli.Run(app, []string{"fetch", "--allow-private", "--ignore-robots", "--delay", "0", "-c", "4"}, &errw)
	if code != cli.ExitInterrupted {
		t.Errorf("exit %d, want %d", code, cli.ExitInterrupted)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to stop", d)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != n {
		t.Fatalf("%d records for %d URLs read", len(lines), n)
	}
	for _, l := range lines {
		if !strings.Contains(l, `"error":"canceled"`) {
			t.Errorf("record %s", l)
		}
	}
}

// closedPipe fails every write the way stdout does under `| head`.
type closedPipe struct{}

func (closedPipe) Write([]byte) (int, error) { return 0, syscall.EPIPE }

func TestClosedStdoutEndsQuietly(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>x</p>"))
	}))
	defer srv.Close()
	var in strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&in, "%s/%d\n", srv.URL, i)
	}
	app := newApp()
	var errw bytes.Buffer
	app.Reader = strings.NewReader(in.String())
	app.Writer = closedPipe{}
	done := make(chan int, 1)
	go func() {
		done <- cli.Run(app, []string{"fetch", "--allow-private", "--ignore-robots", "--delay", "0", "-q"}, &errw)
	}()
	select {
	case code := <-done:
		if code != cli.ExitOK || errw.Len() != 0 {
			t.Errorf("exit %d, stderr %q", code, errw.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("fetch did not stop on a closed stdout")
	}
}

func TestHeaderAndAcceptFlags(t *testing.T) {
	var lang string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lang = r.Header.Get("Accept-Language")
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("plain"))
	}))
	defer srv.Close()
	out, stderr, code := runFetch(t, srv.URL+"/\n", "--ignore-robots", "-H", "Accept-Language: zh-CN,zh;q=0.9", "--accept", "text/html,text/plain")
	if code != 0 || lang != "zh-CN,zh;q=0.9" {
		t.Errorf("exit %d, Accept-Language %q, stderr %s", code, lang, stderr)
	}
	if !strings.Contains(out, `"html":"plain"`) {
		t.Errorf("text/plain not accepted: %s", out)
	}
}

// TestHelperProcess is the fetch command in a child process, for tests
// that need a fresh environment (Go reads HTTP_PROXY once per process).
func TestHelperProcess(t *testing.T) {
	if os.Getenv("FETCH_TEST_HELPER") != "1" {
		return
	}
	os.Exit(cli.Run(newApp(), []string{"fetch", "--ignore-robots", "-q"}, os.Stderr))
}

func TestProxyFromEnvironment(t *testing.T) {
	var proxied string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied = r.URL.String()
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>via proxy</p>"))
	}))
	defer proxy.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "FETCH_TEST_HELPER=1", "HTTP_PROXY="+proxy.URL, "http_proxy="+proxy.URL, "NO_PROXY=", "no_proxy=")
	cmd.Stdin = strings.NewReader("http://www.virtual.test/a\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fetch: %v", err)
	}
	if proxied != "http://www.virtual.test/a" || !strings.Contains(string(out), "via proxy") {
		t.Errorf("proxied %q, output %s", proxied, out)
	}
}

// TestBlockedByDefault: without --allow-private a loopback server is not
// reached, and the record says why.
func TestBlockedByDefault(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	app := newApp()
	var out, errw bytes.Buffer
	app.Reader = strings.NewReader(srv.URL + "/\n")
	app.Writer = &out
	code := cli.Run(app, []string{"fetch", "--ignore-robots", "-q"}, &errw)
	var p record.Page
	if err := json.Unmarshal(out.Bytes(), &p); err != nil {
		t.Fatalf("exit %d, output %q: %v", code, out.String(), err)
	}
	if p.Error != "blocked address 127.0.0.1 (loopback)" || hits.Load() != 0 {
		t.Errorf("error %q, %d requests reached the server", p.Error, hits.Load())
	}
}
