package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgressLinesWithoutATerminal: with --progress on and stderr a file,
// progress is whole lines, one per interval, and the last state at the end.
func TestProgressLinesWithoutATerminal(t *testing.T) {
	var b bytes.Buffer
	l := NewLogger("x", &b, false)
	now := time.Unix(0, 0)
	l.now = func() time.Time { return now }
	l.LineEvery(10 * time.Second)
	for i := 1; i <= 25; i++ { // one call a second for 25 s
		now = now.Add(time.Second)
		l.Progressf("%d done", i)
	}
	l.Infof("summary")
	l.EndProgress()
	want := "x: 10 done\nx: 20 done\nx: summary\nx: 25 done\n"
	if b.String() != want {
		t.Fatalf("wrote %q, want %q", b.String(), want)
	}
	if strings.Contains(b.String(), "\r") {
		t.Fatal("control characters in a log file")
	}
}

func TestProgressOnWithoutATerminalRuns(t *testing.T) {
	in := tempInput(t, "http://a.example/\n")
	out, _ := tempOutput(t)
	var stderr bytes.Buffer
	code := Run(echoApp(in, out, nil), []string{"echo", "--progress", "on", "--progress-every", "0s"}, &stderr)
	if code != ExitUsage || !strings.Contains(stderr.String(), "--progress-every") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}
