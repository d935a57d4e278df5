package simweb

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	sim "github.com/focuscrawl/focuscrawl/internal/simweb"
)

func TestNewWebAndTopic(t *testing.T) {
	for _, o := range []WebOptions{
		{Sites: sim.MinSites - 1},
		{Sites: 20, Faults: true, SlowLatency: -time.Second, RateLimit: 5},
		{Sites: 20, Faults: true, RateLimit: 0},
	} {
		var ue *cli.UsageError
		if _, err := NewWeb(o); !errors.As(err, &ue) {
			t.Errorf("%+v: %v, want a usage error", o, err)
		}
	}
	if _, err := NewWeb(WebOptions{Sites: 20, Faults: true, RateLimit: 5}); err != nil {
		t.Errorf("slow latency 0: %v", err)
	}
	for topic, ok := range map[string]bool{"forestry": true, "cooking": false, "": false} {
		if err := CheckTopic(topic, true); (err == nil) != ok {
			t.Errorf("required topic %q: %v", topic, err)
		}
	}
	if err := CheckTopic("", false); err != nil {
		t.Errorf("no topic, none required: %v", err)
	}
}

// TestTruth: the truth of the web is WriteTruth's; a lookup writes the
// truth of each URL read, an error record for a URL not of this web, and
// rejects a line that holds none.
func TestTruth(t *testing.T) {
	web := testWeb(t)
	var out, want bytes.Buffer
	if err := Truth(context.Background(), nil, &out, TruthOptions{Web: web}); err != nil {
		t.Fatal(err)
	}
	if err := web.WriteTruth(&want); err != nil {
		t.Fatal(err)
	}
	if out.String() != want.String() {
		t.Errorf("Truth and WriteTruth differ: %d and %d bytes", out.Len(), want.Len())
	}
	first, _, _ := strings.Cut(out.String(), "\n")
	var pt sim.PageTruth
	if err := json.Unmarshal([]byte(first), &pt); err != nil || pt.URL == "" {
		t.Fatalf("first line %s: %v", first, err)
	}
	in := pt.URL + "\n# comment\n{\"url\":\"http://nowhere.example/\"}\n{not json\n"
	out.Reset()
	err := Truth(context.Background(), strings.NewReader(in), &out, TruthOptions{Web: web, Lookup: true})
	if !errors.Is(err, cli.ErrRejected) {
		t.Errorf("lookup: %v, want one line rejected", err)
	}
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(got) != 2 || got[0] != first || !strings.Contains(got[1], `"error":"not a URL of this simulated web: http://nowhere.example/"`) {
		t.Errorf("lookup output:\n%s", out.String())
	}
}

// TestTruthLabels: with Labels, a lookup writes a label line per URL of
// the web, relevant as the truth says, and leaves out URLs not of it.
func TestTruthLabels(t *testing.T) {
	web := testWeb(t)
	seeds, _ := web.Seeds("forestry")
	in := strings.Join(seeds, "\n") + "\nhttp://nowhere.example/\n{\"url\":\"" + seeds[0] + "\",\"error\":\"timeout\"}\n"
	var out bytes.Buffer
	if err := Truth(context.Background(), strings.NewReader(in), &out, TruthOptions{Web: web, Lookup: true, Labels: "forestry"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(seeds) {
		t.Fatalf("%d labels for %d seeds:\n%s", len(lines), len(seeds), out.String())
	}
	kinds := map[bool]int{}
	for i, l := range lines {
		var lab struct {
			URL      string
			Relevant *bool
		}
		if err := json.Unmarshal([]byte(l), &lab); err != nil || lab.Relevant == nil {
			t.Fatalf("%s: %v", l, err)
		}
		pt, _ := web.Page(seeds[i])
		if lab.URL != seeds[i] || *lab.Relevant != pt.Relevant("forestry") {
			t.Errorf("label %s, want %s relevant %v", l, seeds[i], pt.Relevant("forestry"))
		}
		kinds[*lab.Relevant]++
	}
	if kinds[true] == 0 || kinds[false] == 0 {
		t.Errorf("labels of one kind only: %v", kinds)
	}
}

func TestSeedsSitesGet(t *testing.T) {
	web := testWeb(t)
	seeds, _ := web.Seeds("forestry")
	var out bytes.Buffer
	if err := Seeds(&out, SeedsOptions{Web: web, Topic: "forestry", JSON: true}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for i, l := range lines {
		var u struct {
			URL   string
			Depth *int
		}
		if err := json.Unmarshal([]byte(l), &u); err != nil || i >= len(seeds) || u.URL != seeds[i] || u.Depth == nil || *u.Depth != 0 {
			t.Errorf("seed %d: %s: %v", i, l, err)
		}
	}
	if len(lines) != len(seeds) {
		t.Errorf("%d seeds written, want %d", len(lines), len(seeds))
	}

	out.Reset()
	if err := Sites(&out, SitesOptions{Web: web, Topic: "books", Kind: "bookstore"}); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range web.Sites() {
		if s.Kind == "bookstore" && s.Relevance["books"] > 0 {
			n++
		}
	}
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	if n == 0 || len(got) != n {
		t.Errorf("%d sites written, want %d:\n%s", len(got), n, out.String())
	}

	home := web.Sites()[0].Home
	var body, headers bytes.Buffer
	if err := Get(&body, &headers, GetOptions{Web: web, URL: home, Headers: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(headers.String(), "HTTP/1.1 200\n") || !strings.Contains(headers.String(), "\nContent-Type: ") || !strings.Contains(body.String(), "<html") {
		t.Errorf("get %s: %q, %d bytes", home, headers.String(), body.Len())
	}
	headers.Reset()
	if err := Get(io.Discard, &headers, GetOptions{Web: web, URL: "http://nowhere.example/"}); err == nil || headers.Len() != 0 {
		t.Errorf("get of a host not of this web: %v, headers %q", err, headers.String())
	}
}

// TestServe: the first line names the listener; the web answers through it
// as a proxy; cancelling stops the server.
func TestServe(t *testing.T) {
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ServeOptions{Web: WebOptions{Seed: 1, Sites: 20, NoFaults: true, RateLimit: 5}, Addr: "127.0.0.1:0", Out: pw})
		pw.Close()
	}()
	proxy := hello(t, pr, map[string]float64{"seed": 1, "sites": 20})
	home := testWeb(t).Sites()[0].Home
	if code := getThrough(t, proxy, home); code != 200 {
		t.Errorf("GET %s: %d", home, code)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve after cancel: %v", err)
	}
}

// hello reads the first line a server writes, checks its members and
// returns its proxy URL.
func hello(t *testing.T, r io.Reader, want map[string]float64) string {
	t.Helper()
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, r)
	var h map[string]any
	if err := json.Unmarshal([]byte(line), &h); err != nil {
		t.Fatalf("first line %q: %v", line, err)
	}
	addr, _ := h["addr"].(string)
	if !strings.HasPrefix(addr, "127.0.0.1:") || strings.HasSuffix(addr, ":0") || h["proxy"] != "http://"+addr {
		t.Errorf("first line %q", line)
	}
	for k, v := range want {
		if h[k] != v {
			t.Errorf("first line %q: %s is %v, want %v", line, k, h[k], v)
		}
	}
	return "http://" + addr
}

// getThrough gets u through the proxy and returns the status.
func getThrough(t *testing.T, proxy, u string) int {
	t.Helper()
	pu, _ := url.Parse(proxy)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}, Timeout: 10 * time.Second}
	resp, err := client.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}
