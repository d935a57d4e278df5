package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// reportDB makes a frontier with pages fetched, the first of every three
// relevant, and the info score --db records.
func reportDB(t *testing.T, path string, pages int, links string) {
	t.Helper()
	s, err := frontier.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	addPages(t, s, 0, pages)
	if err := s.SetInfo(context.Background(), map[string]string{frontier.InfoTopic: "forestry", frontier.InfoLinks: links}); err != nil {
		t.Fatal(err)
	}
}

func addPages(t *testing.T, s *frontier.SQLiteStore, from, to int) {
	t.Helper()
	t0 := time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
	var b frontier.Batch
	for i := from; i < to; i++ {
		host := fmt.Sprintf("h%d.example.cn", i%3)
		b.Done = append(b.Done, frontier.Outcome{URL: fmt.Sprintf("http://%s/%d", host, i), Host: host, Depth: i % 4,
			Status: 200, FetchedAt: t0.Add(time.Duration(i) * time.Second), Scored: true, Relevant: i%3 == 0})
	}
	if _, err := s.Apply(context.Background(), b); err != nil {
		t.Fatal(err)
	}
}

func TestReportCommand(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	reportDB(t, a, 150, "shark")
	reportDB(t, b, 90, "bfs")
	out := filepath.Join(dir, "report.html")

	r := runSeed(t, "", nil, "report", "--db", a, "--db", b, "--label", "Shark", "-o", out)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">Shark</text>", ">b.db</text>", "<td>forestry</td><td>shark</td>", "<td>bfs</td>", ">150</td>", ">90</td>", "33.3%"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".report.html.*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}

	r = runSeed(t, "", nil, "report", "--db", a, "--svg", "harvest")
	if r.code != 0 || !strings.HasPrefix(r.stdout, `<svg xmlns="http://www.w3.org/2000/svg"`) || !strings.Contains(r.stdout, ">a.db</text>") {
		t.Fatalf("--svg harvest: exit %d\n%.200s\n%s", r.code, r.stdout, r.stderr)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--db", a, "--label", "x", "--label", "y"}, "2 labels for 1 --db"},
		{[]string{"--db", filepath.Join(dir, "none.db")}, "no such frontier"},
		{[]string{"--db", a, "--svg", "pie"}, `--svg "pie": no such chart`},
		{[]string{"--db", a, "--serve", "127.0.0.1:0", "-o", out}, "--serve serves the report"},
		{[]string{"--db", a, "--window", "0"}, "--window 0"},
		{[]string{"--db", a, "extra"}, `unexpected argument "extra"`},
	} {
		r := runSeed(t, "", nil, append([]string{"report"}, c.args...)...)
		if r.code != cli.ExitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, r.code, r.stderr, cli.ExitUsage, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); err == nil {
		t.Error("seed report created a frontier")
	}
}

// TestReportServe serves a frontier that grows: each request shows the
// pages fetched so far; SIGINT stops the server.
func TestReportServe(t *testing.T) {
	db := filepath.Join(t.TempDir(), "live.db")
	reportDB(t, db, 40, "shark")
	cmd := seedCmd(t, "report", "--db", db, "--serve", "127.0.0.1:0", "--refresh", "3")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	addr := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(line)
	if addr == "" {
		t.Fatalf("no address in %q", line)
	}
	get := func() string {
		resp, err := http.Get(addr)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", addr, resp.StatusCode, b)
		}
		return string(b)
	}
	page := get()
	if !strings.Contains(page, `<meta http-equiv="refresh" content="3">`) || !strings.Contains(page, ">40</td>") {
		t.Fatalf("first page: no refresh tag or not 40 pages:\n%.500s", page)
	}
	s, err := frontier.OpenSQLite(db)
	if err != nil {
		t.Fatal(err)
	}
	addPages(t, s, 40, 75)
	s.Close()
	if page = get(); !strings.Contains(page, ">75</td>") {
		t.Error("the page after 35 more pages does not show 75")
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("seed report --serve did not stop on SIGINT")
	}
	if code := cmd.ProcessState.ExitCode(); code != cli.ExitInterrupted {
		t.Errorf("exit %d after SIGINT, want %d", code, cli.ExitInterrupted)
	}
}
