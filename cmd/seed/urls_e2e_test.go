package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// seedArgsEnv carries the arguments of a seed process run by the test
// binary itself (see TestSeedProcess), so no separate build is needed.
const seedArgsEnv = "SEED_TEST_PROCESS_ARGS"

// TestSeedProcess is not a test: run by seedCmd in a child process, it is
// the seed command.
func TestSeedProcess(t *testing.T) {
	args := os.Getenv(seedArgsEnv)
	if args == "" {
		t.Skip("helper process for the end-to-end tests")
	}
	var argv []string
	if err := json.Unmarshal([]byte(args), &argv); err != nil {
		panic(err)
	}
	os.Exit(cli.Run(newApp(), append([]string{"seed"}, argv...), os.Stderr))
}

// seedCmd returns a command that runs seed with args.
func seedCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	b, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^TestSeedProcess$")
	cmd.Env = append(os.Environ(), seedArgsEnv+"="+string(b))
	return cmd
}

type result struct {
	stdout, stderr string
	code           int
}

func runSeed(t *testing.T, stdin string, env []string, args ...string) result {
	t.Helper()
	cmd := seedCmd(t, args...)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errs.String(), code}
}

func TestSeedURLsProcess(t *testing.T) {
	dir := t.TempDir()
	rejects := filepath.Join(dir, "rejects.txt")
	outZst := filepath.Join(dir, "out.jsonl.zst")
	tests := []struct {
		name       string
		stdin      string
		env        []string
		args       []string
		wantCode   int
		wantOut    []string // substrings of stdout, in order
		wantErr    []string // substrings of stderr
		wantNoErr  bool
		wantOutEq  *string
		afterCheck func(t *testing.T)
	}{
		{
			name:      "done-when: normalised record",
			stdin:     "HTTP://Example.COM:80/a/../b#x\n",
			args:      []string{"urls", "-q"},
			wantOutEq: ptr(`{"url":"http://example.com/b","depth":0,"site":"example.com"}` + "\n"),
			wantNoErr: true,
		},
		{
			name:     "done-when: malformed JSON line, exit 3, rejects file",
			stdin:    "http://a.example/\n{\"url\": oops}\nhttp://b.example/\n",
			args:     []string{"urls", "--rejects", rejects},
			wantCode: cli.ExitRejected,
			wantOut:  []string{"http://a.example/", "http://b.example/"},
			wantErr:  []string{"stdin:2: invalid JSON"},
			afterCheck: func(t *testing.T) {
				b, err := os.ReadFile(rejects)
				if err != nil || string(b) != "{\"url\": oops}\n" {
					t.Fatalf("rejects file %q, %v", b, err)
				}
			},
		},
		{
			name:     "summary on stderr unless -q",
			stdin:    "http://a.example/\nhttp://A.example/\n",
			args:     []string{"urls"},
			wantOut:  []string{"http://a.example/"},
			wantErr:  []string{"2 lines, 1 urls, 1 duplicates, 0 rejected"},
			wantCode: 0,
		},
		{
			name:      "env var sets a flag",
			stdin:     "http://a.example/?b=1&a=2\n",
			env:       []string{"FOCUSCRAWL_SEED_URLS_SORT_QUERY=true", "FOCUSCRAWL_QUIET=1"},
			args:      []string{"urls"},
			wantOutEq: ptr(`{"url":"http://a.example/?a=2&b=1","depth":0,"site":"a.example"}` + "\n"),
			wantNoErr: true,
		},
		{
			name:      "old env var still sets the flag, with a warning",
			stdin:     "http://a.example/?b=1&a=2\n",
			env:       []string{"FOCUSCRAWL_SORT_QUERY=true"},
			args:      []string{"urls"},
			wantOutEq: ptr(`{"url":"http://a.example/?a=2&b=1","depth":0,"site":"a.example"}` + "\n"),
			wantErr:   []string{"seed urls: warning: FOCUSCRAWL_SORT_QUERY is deprecated: set FOCUSCRAWL_SEED_URLS_SORT_QUERY"},
		},
		{
			name:      "env var output to a compressed file",
			stdin:     "http://a.example/\n",
			env:       []string{"FOCUSCRAWL_SEED_URLS_OUTPUT=" + outZst},
			args:      []string{"urls", "-q"},
			wantOutEq: ptr(""),
			wantNoErr: true,
			afterCheck: func(t *testing.T) {
				r := jsonl.NewReader([]string{outZst}, nil)
				l, err := r.Next()
				if err != nil || !strings.Contains(string(l.Bytes), `"http://a.example/"`) {
					t.Fatalf("read back %s: %q, %v", outZst, l.Bytes, err)
				}
			},
		},
		{
			name:     "bad flag value: exit 2",
			args:     []string{"urls", "--scope", "planet"},
			wantCode: cli.ExitUsage,
			wantErr:  []string{"--scope", "planet"},
		},
		{
			name:     "unknown flag: exit 2",
			args:     []string{"urls", "--no-such-flag"},
			wantCode: cli.ExitUsage,
			wantErr:  []string{"no-such-flag"},
		},
		{
			name:     "bad size: exit 2",
			args:     []string{"urls", "--memory", "lots"},
			wantCode: cli.ExitUsage,
			wantErr:  []string{"--memory"},
		},
		{
			name:     "missing input file: exit 1",
			args:     []string{"urls", filepath.Join(dir, "nope.txt")},
			wantCode: cli.ExitFatal,
			wantErr:  []string{"nope.txt"},
		},
		{
			name:    "help lists exit codes and an example",
			args:    []string{"urls", "--help"},
			wantOut: []string{"EXAMPLE:", "seed urls seeds.txt", "EXIT CODES:", "3 finished but some input lines were rejected", "130 interrupted"},
		},
		{
			name:    "top-level help too",
			args:    []string{"--help"},
			wantOut: []string{"EXAMPLE:", "seed urls seeds.txt | seed add", "EXIT CODES:"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runSeed(t, tt.stdin, tt.env, tt.args...)
			if r.code != tt.wantCode {
				t.Errorf("exit %d, want %d; stderr %q", r.code, tt.wantCode, r.stderr)
			}
			if tt.wantOutEq != nil && r.stdout != *tt.wantOutEq {
				t.Errorf("stdout %q, want %q", r.stdout, *tt.wantOutEq)
			}
			rest := r.stdout
			for _, s := range tt.wantOut {
				i := strings.Index(rest, s)
				if i < 0 {
					t.Errorf("stdout lacks %q (in order):\n%s", s, r.stdout)
					break
				}
				rest = rest[i+len(s):]
			}
			for _, s := range tt.wantErr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
			if tt.wantNoErr && r.stderr != "" {
				t.Errorf("stderr %q, want nothing", r.stderr)
			}
			if tt.afterCheck != nil {
				tt.afterCheck(t)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestSeedURLsClosedStdout is `seed urls < big.txt | head -1`: exit 0,
// nothing on stderr.
func TestSeedURLsClosedStdout(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.txt")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := 0; i < 300000; i++ {
		fmt.Fprintf(w, "http://site%d.example/page/%d\n", i%100, i)
	}
	w.Flush()
	f.Close()

	cmd := seedCmd(t, "urls")
	in, err := os.Open(big)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	cmd.Stdin = in
	var errs bytes.Buffer
	cmd.Stderr = &errs
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	first, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.Contains(first, "site0.example/page/0") {
		t.Fatalf("first line %q, %v", first, err)
	}
	out.Close() // head -1 exits
	err = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit %d (%v), want 0; stderr %q", code, err, errs.String())
	}
	if errs.Len() != 0 {
		t.Fatalf("stderr %q, want nothing", errs.String())
	}
}

// TestSeedURLsPipeLatency proves the flush contract: a record reaches the
// reader of the pipe while seed's stdin is still open.
func TestSeedURLsPipeLatency(t *testing.T) {
	cmd := seedCmd(t, "urls", "-q")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		cmd.Wait()
	}()
	br := bufio.NewReader(stdout)
	for i, u := range []string{"http://a.example/1", "http://a.example/2"} {
		start := time.Now()
		if _, err := io.WriteString(stdin, u+"\n"); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() { l, _ := br.ReadString('\n'); got <- l }()
		select {
		case l := <-got:
			if !strings.Contains(l, u) {
				t.Fatalf("record %q, want %s", l, u)
			}
			// The contract is ~100 ms; the bound is loose for loaded CI
			// machines, but without a timed flush nothing arrives at all.
			t.Logf("record %d arrived after %v", i, time.Since(start))
		case <-time.After(3 * time.Second):
			t.Fatalf("record %d did not arrive while stdin stayed open", i)
		}
	}
}

// TestSeedURLsInterrupt: SIGINT while waiting on stdin ends the run with
// exit 130, after writing whole records only.
func TestSeedURLsInterrupt(t *testing.T) {
	cmd := seedCmd(t, "urls", "-q")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(stdin, "http://a.example/\n")
	br := bufio.NewReader(stdout)
	if l, err := br.ReadString('\n'); err != nil || !strings.HasSuffix(l, "}\n") {
		t.Fatalf("first record %q, %v", l, err)
	}
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { io.Copy(io.Discard, br); done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		t.Fatal("seed urls did not stop on SIGINT")
	}
	if code := cmd.ProcessState.ExitCode(); code != cli.ExitInterrupted {
		t.Fatalf("exit %d, want %d", code, cli.ExitInterrupted)
	}
}
