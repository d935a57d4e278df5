package fetch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/fetcher"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// TestRun fetches url records and plain URL lines from Go: every URL gets
// a page, lineage and meta pass through, bad lines are rejected, and the
// summary is logged.
func TestRun(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<p>" + r.URL.Path + "</p>"))
	}))
	defer srv.Close()
	cfg := fetcher.Defaults()
	cfg.AllowPrivate, cfg.IgnoreRobots, cfg.Delay = true, true, 0
	in := srv.URL + "/a\n" + `{"url":"` + srv.URL + `/b","depth":2,"meta":{"job":7}}` + "\n" + `{"url": broken` + "\n" +
		`{"url":"` + srv.URL + `/c","anchor":"` + strings.Repeat("c", MaxLine) + `"}` + "\n"
	var out, log bytes.Buffer
	err := Run(context.Background(), strings.NewReader(in), &out, Options{Fetcher: cfg, Log: cli.NewLogger("fetch", &log, false)})
	if !errors.Is(err, cli.ErrRejected) {
		t.Fatalf("error %v, want ErrRejected; log:\n%s", err, log.String())
	}
	pages := map[string]record.Page{}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var p record.Page
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("output line %q: %v", sc.Text(), err)
		}
		pages[p.URL] = p
	}
	if len(pages) != 3 {
		t.Fatalf("%d pages, want 3 (a, b and the over-long line's error record)", len(pages))
	}
	if p := pages[srv.URL+"/a"]; p.HTML != "<p>/a</p>" || p.Status != 200 {
		t.Errorf("/a: %+v", p)
	}
	if p := pages[srv.URL+"/c"]; !strings.HasPrefix(p.Error, "input: line too long") {
		t.Errorf("/c, the over-long line: %+v", p)
	}
	if p := pages[srv.URL+"/b"]; p.Depth != 2 || string(p.Meta) != `{"job":7}` || p.HTML != "<p>/b</p>" {
		t.Errorf("/b: %+v", p)
	}
	for _, want := range []string{"stdin:3: ", "stdin:4: line too long", "fetch: 3 pages in", "1 errors (input 1)"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}

// TestRunConfigError: a configuration the fetcher refuses is a usage error
// naming the flag.
func TestRunConfigError(t *testing.T) {
	cfg := fetcher.Defaults()
	cfg.Proxy = "::"
	err := Run(context.Background(), strings.NewReader(""), &bytes.Buffer{}, Options{Fetcher: cfg})
	var ue *cli.UsageError
	if !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), "--proxy") {
		t.Errorf("error %v, want a usage error naming --proxy", err)
	}
}

// TestRunDeadProxy: a proxy that refuses connections stops the run with
// ErrProxy, said once; every page goes out cancelled (the frontier queues
// its URL again and parks no host), none as a failure of its host.
func TestRunDeadProxy(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close() // nothing listens there now: connections are refused
	cfg := fetcher.Defaults()
	cfg.Proxy, cfg.Delay = dead, 0
	var in strings.Builder
	for _, h := range []string{"a", "b", "c", "d"} {
		fmt.Fprintf(&in, "http://%s.example/\nhttp://%s.example/x\n", h, h)
	}
	var out, log bytes.Buffer
	err = Run(context.Background(), strings.NewReader(in.String()), &out, Options{Fetcher: cfg, Log: cli.NewLogger("fetch", &log, false)})
	if !errors.Is(err, ErrProxy) {
		t.Fatalf("error %v, want ErrProxy; log:\n%s", err, log.String())
	}
	sc := bufio.NewScanner(&out)
	n := 0
	for sc.Scan() {
		var p record.Page
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		n++
		if k := fetcher.ErrorKind(p.Error); k != fetcher.KindCanceled {
			t.Errorf("%s: error %q of kind %q, want %q", p.URL, p.Error, k, fetcher.KindCanceled)
		}
	}
	if n == 0 {
		t.Error("no page out: the URLs taken from the input must come back")
	}
	if c := strings.Count(log.String()+err.Error(), "proxy cannot be reached"); c != 1 {
		t.Errorf("the dead proxy said %d times, want once:\n%s%v", c, log.String(), err)
	}
	if strings.Contains(log.String(), "disallowing") {
		t.Errorf("a host blamed for the proxy:\n%s", log.String())
	}
}
