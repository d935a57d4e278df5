package cli

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

func testStream(t *testing.T, stdin io.Reader, progress bool) (*Stream, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, log bytes.Buffer
	rej, err := jsonl.OpenRejects("", &log)
	if err != nil {
		t.Fatal(err)
	}
	return &Stream{In: jsonl.NewReader(nil, stdin), Out: jsonl.NewWriter(&out), Rejects: rej,
		Log: NewLogger("t", &log, false), Progress: progress}, &out, &log
}

func TestFinish(t *testing.T) {
	loopErr := errors.New("read failed")
	tests := []struct {
		name    string
		stdin   string
		loopErr error
		want    []error
	}{
		{name: "ended", stdin: "a\n"},
		{name: "ended with an error", stdin: "a\n", loopErr: loopErr, want: []error{loopErr}},
		{name: "rejected lines", stdin: "a\nb\n", want: []error{ErrRejected}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, out, _ := testStream(t, strings.NewReader(tt.stdin), false)
			s.ReadInput(func() error {
				for {
					l, err := s.In.Next()
					if err == io.EOF {
						return tt.loopErr
					}
					if string(l.Bytes) == "b" {
						s.Rejects.Reject(l, errors.New("no b"))
						continue
					}
					s.Out.WriteLine(l.Bytes)
				}
			})
			err := s.Finish()
			for _, want := range tt.want {
				if !errors.Is(err, want) {
					t.Errorf("Finish: %v, want %v in it", err, want)
				}
			}
			if len(tt.want) == 0 && err != nil {
				t.Errorf("Finish: %v", err)
			}
			if out.String() != "a\n" {
				t.Errorf("output %q", out.String())
			}
		})
	}
}

// TestFinishLeavesABlockedRead: a loop blocked reading an open stdin does
// not hold the stage; the output is closed all the same.
func TestFinishLeavesABlockedRead(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	s, out, _ := testStream(t, pr, false)
	s.Out.WriteLine([]byte("done"))
	s.ReadInput(func() error {
		_, err := s.In.Next()
		return err
	})
	start := time.Now()
	if err := s.Finish(); err != nil {
		t.Fatalf("Finish: %v", err)
	}
	if d := time.Since(start); d > 20*InputGrace {
		t.Errorf("Finish took %v with the input blocked", d)
	}
	if out.String() != "done\n" {
		t.Errorf("output %q not flushed", out.String())
	}
}

func TestShowProgress(t *testing.T) {
	for _, on := range []bool{false, true} {
		s, _, log := testStream(t, strings.NewReader(""), on)
		draws := 0
		stop := s.ShowProgress(time.Hour, func() {
			draws++
			s.Log.Progressf("%d drawn", draws)
		})
		stop()
		stop()
		switch {
		case !on && (draws != 0 || log.Len() != 0):
			t.Errorf("progress off: %d draws, log %q", draws, log.String())
		case on && (draws != 1 || !strings.HasSuffix(log.String(), "t: 1 drawn\n")):
			t.Errorf("progress on: %d draws, log %q; want the final state once, and the line ended", draws, log.String())
		}
	}
}
