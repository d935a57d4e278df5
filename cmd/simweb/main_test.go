package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/simweb"
)

// run runs the command with args and returns its exit code, stdout and
// stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	app := newApp()
	app.Writer = &out
	code := cli.Run(app, append([]string{"simweb"}, args...), &errb)
	return code, out.String(), errb.String()
}

func TestServe(t *testing.T) {
	pr, pw := io.Pipe()
	app := newApp()
	app.Writer = pw
	app.ErrWriter = io.Discard
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- app.RunContext(ctx, []string{"simweb", "serve", "--addr", "127.0.0.1:0", "--sites", "20", "--no-faults"})
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var hello struct{ Addr, Proxy string }
	if err := json.Unmarshal([]byte(line), &hello); err != nil || !strings.HasPrefix(hello.Addr, "127.0.0.1:") || strings.HasSuffix(hello.Addr, ":0") {
		t.Fatalf("first line %q: %v", line, err)
	}
	go io.Copy(io.Discard, pr)
	web := simweb.New(simweb.Config{Seed: 1, Sites: 20, NoFaults: true})
	home := web.Sites()[0].Home
	pu, _ := url.Parse(hello.Proxy)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}, Timeout: 10 * time.Second}
	resp, err := client.Get(home)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte("<title>")) {
		t.Errorf("GET %s through the proxy: %d, %d bytes", home, resp.StatusCode, len(body))
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve after cancel: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

func TestTruthAndLookup(t *testing.T) {
	code, out, errs := run(t, "truth", "--sites", "20", "--seed", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	web := simweb.New(simweb.Config{Seed: 5, Sites: 20})
	var want bytes.Buffer
	if err := web.WriteTruth(&want); err != nil {
		t.Fatal(err)
	}
	if out != want.String() {
		t.Errorf("truth command and WriteTruth differ (%d lines)", len(lines))
	}
	var first simweb.PageTruth
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first.URL == "" || len(first.Relevance) != len(simweb.Topics) {
		t.Fatalf("first line %s: %v", lines[0], err)
	}

	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	os.WriteFile(in, []byte(first.URL+"\n{\"url\":\"http://nowhere.example/\"}\n{not json\n"), 0o644)
	code, out, errs = run(t, "truth", "--sites", "20", "--seed", "5", "--lookup", in)
	if code != cli.ExitRejected {
		t.Errorf("exit %d, want %d (one line rejected): %s", code, cli.ExitRejected, errs)
	}
	got := strings.Split(strings.TrimSpace(out), "\n")
	if len(got) != 2 || !strings.Contains(got[0], first.URL) || !strings.Contains(got[1], `"error"`) {
		t.Errorf("lookup output:\n%s", out)
	}
	if !strings.Contains(errs, "urls.txt:3") {
		t.Errorf("rejected line not reported by position: %s", errs)
	}
}

func TestSeedsSitesAndUsage(t *testing.T) {
	code, out, _ := run(t, "seeds", "--sim-topic", "forestry")
	if code != 0 || len(strings.Fields(out)) < 3 || !strings.Contains(out, "http://") {
		t.Errorf("seeds: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, "sites", "--sim-topic", "books", "--sites", "40")
	if code != 0 {
		t.Fatalf("sites: exit %d", code)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var s simweb.SiteTruth
		if err := json.Unmarshal([]byte(l), &s); err != nil || s.Kind != "bookstore" {
			t.Errorf("sites --topic books: %s", l)
		}
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"seeds", "--sim-topic", "cooking"}, "cooking"},
		{[]string{"truth", "--sites", "3"}, "--sites"},
		{[]string{"serve", "--rate-limit", "0"}, "--rate-limit"},
		{[]string{"get"}, "one URL"},
	} {
		code, _, errs := run(t, tc.args...)
		if code != cli.ExitUsage || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errs)
		}
	}
}

func TestEval(t *testing.T) {
	web := simweb.New(simweb.Config{Seed: 1, Sites: 20})
	seeds, _ := web.Seeds("forestry")
	dir := t.TempDir()
	in := filepath.Join(dir, "pages.jsonl")
	var b strings.Builder
	for _, s := range seeds {
		b.WriteString(`{"url":"` + s + `","status":200}` + "\n")
	}
	os.WriteFile(in, []byte(b.String()), 0o644)
	code, out, errs := run(t, "eval", "--sites", "20", "--sim-topic", "forestry", "--at", "1,2", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r simweb.Eval
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.Pages != len(seeds) || r.Exist == 0 || len(r.HarvestAt) != 2 || !strings.Contains(errs, "harvest") {
		t.Errorf("eval: %+v\n%s", r, errs)
	}
	if code, _, _ := run(t, "eval", "--sim-topic", "forestry", "--at", "x", in); code != cli.ExitUsage {
		t.Errorf("--at x: exit %d", code)
	}
}
