package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// echoApp is a tiny stage built the way every command is: it copies url
// lines to url records through a Stream, rejecting what is not a URL.
// in and out replace stdin and stdout.
func echoApp(in *os.File, out *os.File, action func(*ucli.Context) error) *ucli.App {
	if action == nil {
		action = func(c *ucli.Context) error {
			s, err := OpenStreamWith(c, c.Args().Slice(), in, out, c.App.ErrWriter)
			if err != nil {
				return err
			}
			for {
				l, err := s.In.Next()
				if err != nil {
					break
				}
				u, err := jsonl.DecodeURL(l.Bytes)
				if err != nil {
					s.Rejects.Reject(l, err)
					continue
				}
				if err := s.Out.Write(u); err != nil {
					s.CloseOutput()
					return err
				}
			}
			return s.Close()
		}
	}
	return New(App{
		Name:    "echo",
		Usage:   "copy URLs",
		Args:    "[FILE...]",
		Example: "echo urls.txt | fetch",
		Flags:   append(StreamFlags(), TopicFlag(false)),
		Action:  action,
	})
}

func tempInput(t *testing.T, content string) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func tempOutput(t *testing.T) (*os.File, func() string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f, func() string { b, _ := os.ReadFile(path); return string(b) }
}

func TestRunExitCodesAndEnv(t *testing.T) {
	dir := t.TempDir()
	outFile := filepath.Join(dir, "from-env.jsonl.gz")
	tests := []struct {
		name       string
		env        map[string]string
		args       []string
		stdin      string
		wantCode   int
		wantStdout string
		wantStderr []string
		check      func(t *testing.T)
	}{
		{name: "ok", stdin: "http://a.example/\n", wantCode: ExitOK, wantStdout: `{"url":"http://a.example/","depth":0}` + "\n"},
		{name: "rejected line", stdin: "ok\n{bad\n", wantCode: ExitRejected,
			wantStderr: []string{"stdin:2: invalid JSON", "echo: some input lines were rejected: 1"}},
		{name: "bad flag", args: []string{"--nope"}, wantCode: ExitUsage,
			wantStderr: []string{"nope", "Run 'echo --help' for usage."}},
		{name: "bad progress value", args: []string{"--progress", "sometimes"}, wantCode: ExitUsage,
			wantStderr: []string{`--progress: "sometimes" is not auto, on or off`}},
		{name: "env sets progress", env: map[string]string{"FOCUSCRAWL_PROGRESS": "bogus"}, wantCode: ExitUsage,
			wantStderr: []string{`"bogus"`}},
		{name: "env sets output", env: map[string]string{"FOCUSCRAWL_ECHO_OUTPUT": outFile}, stdin: "u\n", wantCode: ExitOK,
			check: func(t *testing.T) {
				l, err := jsonl.NewReader([]string{outFile}, nil).Next()
				if err != nil || string(l.Bytes) != `{"url":"u","depth":0}` {
					t.Fatalf("output file from FOCUSCRAWL_ECHO_OUTPUT: %q, %v", l.Bytes, err)
				}
			}},
		{name: "one variable for every stage is retired", env: map[string]string{"FOCUSCRAWL_OUTPUT": filepath.Join(dir, "shared")},
			stdin: "w\n", wantCode: ExitOK, wantStdout: `{"url":"w","depth":0}` + "\n",
			wantStderr: []string{"echo: warning: FOCUSCRAWL_OUTPUT is no longer read by echo", "FOCUSCRAWL_FETCH_OUTPUT"}},
		{name: "flag beats env", env: map[string]string{"FOCUSCRAWL_ECHO_OUTPUT": filepath.Join(dir, "unused")},
			args: []string{"-o", "-"}, stdin: "v\n", wantCode: ExitOK, wantStdout: `{"url":"v","depth":0}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			in := tempInput(t, tt.stdin)
			out, stdout := tempOutput(t)
			var stderr bytes.Buffer
			code := Run(echoApp(in, out, nil), append([]string{"echo"}, tt.args...), &stderr)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr %q", code, tt.wantCode, stderr.String())
			}
			if tt.wantStdout != "" && stdout() != tt.wantStdout {
				t.Fatalf("stdout %q, want %q", stdout(), tt.wantStdout)
			}
			for _, s := range tt.wantStderr {
				if !strings.Contains(stderr.String(), s) {
					t.Fatalf("stderr %q lacks %q", stderr.String(), s)
				}
			}
			if tt.check != nil {
				tt.check(t)
			}
		})
	}
}

func TestHelpListsExitCodesAndExample(t *testing.T) {
	app := echoApp(nil, nil, nil)
	var help bytes.Buffer
	app.Writer = &help
	if code := Run(app, []string{"echo", "--help"}, &bytes.Buffer{}); code != ExitOK {
		t.Fatalf("--help exit %d", code)
	}
	for _, want := range []string{"EXAMPLE:", "echo urls.txt | fetch", "EXIT CODES:", "0 ok", "2 usage error",
		"3 finished but some input lines were rejected", "130 interrupted", "--rejects", "FOCUSCRAWL_ECHO_OUTPUT", "--progress"} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("--help lacks %q:\n%s", want, help.String())
		}
	}
}

func TestSubcommandHelpListsExitCodes(t *testing.T) {
	app := New(App{Name: "seed", Example: "seed urls x | seed add", Commands: []*ucli.Command{
		{Name: "urls", Usage: "u", Action: func(*ucli.Context) error { return nil }},
	}})
	var help bytes.Buffer
	app.Writer = &help
	Run(app, []string{"seed", "urls", "--help"}, &bytes.Buffer{})
	if !strings.Contains(help.String(), "EXIT CODES:") {
		t.Fatalf("subcommand help lacks exit codes:\n%s", help.String())
	}
	var stderr bytes.Buffer
	if code := Run(app, []string{"seed", "urls", "--bad"}, &stderr); code != ExitUsage {
		t.Fatalf("bad subcommand flag: exit %d, want %d", code, ExitUsage)
	}
}

// TestClosedStdoutIsQuiet is `stage | head -1`: the write fails with EPIPE
// and the run ends with exit 0 and nothing on stderr.
func TestClosedStdoutIsQuiet(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer w.Close()
	in := tempInput(t, strings.Repeat("http://a.example/\n", 100000))
	var stderr bytes.Buffer
	code := Run(echoApp(in, w, nil), []string{"echo"}, &stderr)
	if code != ExitOK || stderr.Len() != 0 {
		t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, stderr.String())
	}
}

// TestSignalInterrupts sends SIGINT to the process: the context of the
// action is cancelled and the exit code is 130.
func TestSignalInterrupts(t *testing.T) {
	started := make(chan struct{})
	app := echoApp(nil, nil, func(c *ucli.Context) error {
		close(started)
		<-c.Context.Done()
		return c.Context.Err()
	})
	go func() {
		<-started
		syscall.Kill(os.Getpid(), syscall.SIGINT)
	}()
	var stderr bytes.Buffer
	if code := Run(app, []string{"echo"}, &stderr); code != ExitInterrupted {
		t.Fatalf("exit %d, want %d (stderr %q)", code, ExitInterrupted, stderr.String())
	}
	if stderr.Len() != 0 {
		t.Fatalf("stderr %q after an interrupt", stderr.String())
	}
}

func TestStreamClose(t *testing.T) {
	var stderr bytes.Buffer
	app := echoApp(nil, nil, func(c *ucli.Context) error {
		var out bytes.Buffer
		s, err := OpenStreamWith(c, nil, strings.NewReader("x\n"), &out, &stderr)
		if err != nil {
			return err
		}
		l, _ := s.In.Next()
		s.Rejects.Reject(l, errors.New("no"))
		err = s.Close()
		if !errors.Is(err, ErrRejected) {
			t.Errorf("Close after a reject: %v, want ErrRejected", err)
		}
		return nil
	})
	Run(app, []string{"echo"}, &stderr)
	if !strings.Contains(stderr.String(), "stdin:1: no") {
		t.Fatalf("stderr %q", stderr.String())
	}
}

func TestLoggerQuiet(t *testing.T) {
	var b bytes.Buffer
	l := NewLogger("x", &b, true)
	l.Infof("summary")
	l.Errorf("bad %d", 1)
	if b.String() != "x: bad 1\n" {
		t.Fatalf("quiet logger wrote %q", b.String())
	}
	b.Reset()
	l = NewLogger("x", &b, false)
	l.Progressf("50%%")
	l.Infof("done")
	if !strings.HasSuffix(b.String(), "\r\033[Kx: done\n") {
		t.Fatalf("progress line not cleared before a message: %q", b.String())
	}
}

func TestProgressWanted(t *testing.T) {
	var b bytes.Buffer
	for mode, want := range map[string]bool{"on": true, "off": false, "auto": false, "": false} {
		got, err := ProgressWanted(mode, &b)
		if err != nil || got != want {
			t.Errorf("ProgressWanted(%q) = %v, %v", mode, got, err)
		}
	}
	if _, err := ProgressWanted("loud", &b); err == nil {
		t.Error("ProgressWanted(loud) accepted")
	}
}
