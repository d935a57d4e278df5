package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// orderedStream is a Stream over in whose rejects are logged to rejLog.
func orderedStream(in io.Reader, rejLog io.Writer) *Stream {
	return NewStream(in, io.Discard, NewLogger("test", rejLog, false))
}

func numbered(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

func TestOrderedKeepsInputOrderAndBound(t *testing.T) {
	const n, window = 2000, 40
	var inFlight, most atomic.Int64
	var got []int
	o := Ordered[int]{
		Workers: 4, Window: window, BatchLines: 3,
		Work: func(_ context.Context, l jsonl.Line) (int, error) {
			if cur := inFlight.Add(1); cur > most.Load() {
				most.Store(cur)
			}
			if rand.IntN(10) == 0 {
				time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond)
			}
			return strconv.Atoi(string(l.Bytes))
		},
		Emit: func(l jsonl.Line, v int) error {
			inFlight.Add(-1)
			if v+1 != l.Num {
				return fmt.Errorf("line %d carries %d", l.Num, v)
			}
			got = append(got, v)
			return nil
		},
	}
	if err := o.Run(context.Background(), orderedStream(strings.NewReader(numbered(n)), io.Discard)); err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("emitted %d of %d lines", len(got), n)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("result %d is %d: order lost", i, v)
		}
	}
	if most.Load() > window {
		t.Errorf("%d lines read and not emitted at once, over the window of %d", most.Load(), window)
	}
}

func TestOrderedRejectsAndGoesOn(t *testing.T) {
	var log bytes.Buffer
	var got []string
	o := Ordered[string]{
		Workers: 3,
		Work: func(_ context.Context, l jsonl.Line) (string, error) {
			if strings.HasPrefix(string(l.Bytes), "bad") {
				return "", Reject(errors.New("not good"))
			}
			return string(l.Bytes), nil
		},
		Emit: func(_ jsonl.Line, v string) error { got = append(got, v); return nil },
	}
	s := orderedStream(strings.NewReader("a\nbad1\nb\nbad2\nc\n"), &log)
	if err := o.Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "a,b,c" {
		t.Errorf("emitted %q, want a,b,c", got)
	}
	if s.Rejects.Count() != 2 || !strings.Contains(log.String(), "stdin:2: not good") || !strings.Contains(log.String(), "stdin:4: not good") {
		t.Errorf("rejects: %d, log %q", s.Rejects.Count(), log.String())
	}
}

func TestOrderedStopsAtFirstError(t *testing.T) {
	boom := errors.New("boom")
	var emitted []int
	o := Ordered[int]{
		Workers: 4, BatchLines: 2,
		Work: func(_ context.Context, l jsonl.Line) (int, error) {
			if l.Num == 50 {
				return 0, boom
			}
			return l.Num, nil
		},
		Emit: func(_ jsonl.Line, v int) error { emitted = append(emitted, v); return nil },
	}
	err := o.Run(context.Background(), orderedStream(strings.NewReader(numbered(1000)), io.Discard))
	if !errors.Is(err, boom) {
		t.Fatalf("got %v, want boom", err)
	}
	if len(emitted) != 49 || emitted[48] != 49 {
		t.Errorf("emitted %d lines before the error, want the 49 before it", len(emitted))
	}

	// An error of Emit (a closed stdout) stops the run too.
	o.Work = func(_ context.Context, l jsonl.Line) (int, error) { return l.Num, nil }
	o.Emit = func(_ jsonl.Line, v int) error {
		if v == 10 {
			return io.ErrClosedPipe
		}
		return nil
	}
	if err := o.Run(context.Background(), orderedStream(strings.NewReader(numbered(1000)), io.Discard)); !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("got %v, want the emit error", err)
	}
}

// A line in a feedback loop is emitted before the next one is written:
// a batch never waits for input that has not come.
func TestOrderedDoesNotHoldBackALine(t *testing.T) {
	pr, pw := io.Pipe()
	emitted := make(chan string)
	o := Ordered[string]{
		Workers: 2,
		Work:    func(_ context.Context, l jsonl.Line) (string, error) { return string(l.Bytes), nil },
		Emit:    func(_ jsonl.Line, v string) error { emitted <- v; return nil },
	}
	done := make(chan error, 1)
	go func() { done <- o.Run(context.Background(), orderedStream(pr, io.Discard)) }()
	for i := range 3 {
		want := "line " + strconv.Itoa(i)
		if _, err := io.WriteString(pw, want+"\n"); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-emitted:
			if got != want {
				t.Fatalf("emitted %q, want %q", got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("line %q not emitted while the input stays open", want)
		}
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// Cancelling returns while the reader is blocked on an input that never
// ends, and a worker in a long Work call sees the cancel.
func TestOrderedCancel(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	o := Ordered[int]{
		Workers: 2,
		Work: func(ctx context.Context, l jsonl.Line) (int, error) {
			close(started)
			<-ctx.Done()
			return 0, ctx.Err()
		},
		Emit: func(jsonl.Line, int) error { return nil },
	}
	done := make(chan error, 1)
	go func() { done <- o.Run(ctx, orderedStream(pr, io.Discard)) }()
	io.WriteString(pw, "line 1\n")
	<-started
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}

// A line over the reader's cap is rejected at its turn, and its URL goes
// on as an error record.
func TestOrderedLineTooLong(t *testing.T) {
	var log bytes.Buffer
	long := strings.Repeat("x", 200)
	in := "bad line\n" + `{"url":"https://a.example/x","html":"` + long + `"}` + "\n" +
		`{"html":"` + long + `"}` + "\n" + `{"url":"https://b.example/"}` + "\n"
	s := orderedStream(strings.NewReader(in), &log)
	s.In.MaxLine = 100
	var got []string
	o := Ordered[string]{
		Workers: 2,
		Work: func(_ context.Context, l jsonl.Line) (string, error) {
			if strings.HasPrefix(string(l.Bytes), "bad") {
				return "", Reject(errors.New("not JSON"))
			}
			return string(l.Bytes), nil
		},
		Emit: func(l jsonl.Line, v string) error {
			got = append(got, fmt.Sprintf("%v %s", l.Closing, v))
			return nil
		},
	}
	if err := o.Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], `true {"url":"https://a.example/x"`) || !strings.Contains(got[0], `"error"`) ||
		!strings.HasPrefix(got[1], "false ") {
		t.Fatalf("emitted %q: want an error record for a.example, then b.example", got)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if s.Rejects.Count() != 3 || len(lines) != 3 {
		t.Fatalf("rejects %d, log %q", s.Rejects.Count(), log.String())
	}
	for i, want := range []string{"stdin:1: not JSON", "stdin:2: line too long", "stdin:3: line too long"} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("reject %d is %q, want %q: rejects in input order", i+1, lines[i], want)
		}
	}
}

// Long lines are bounded by bytes, not only by count.
func TestOrderedByteBound(t *testing.T) {
	const lineLen, windowBytes = 1000, 10_000
	var b strings.Builder
	for i := range 500 {
		fmt.Fprintf(&b, "%0*d\n", lineLen, i)
	}
	var inFlight, most atomic.Int64
	o := Ordered[int]{
		Workers: 4, BatchLines: 2, WindowBytes: windowBytes,
		Work: func(_ context.Context, l jsonl.Line) (int, error) {
			if cur := inFlight.Add(int64(len(l.Bytes))); cur > most.Load() {
				most.Store(cur)
			}
			return len(l.Bytes), nil
		},
		// A slow writer: the workers run ahead up to the window.
		Emit: func(_ jsonl.Line, n int) error {
			time.Sleep(20 * time.Microsecond)
			inFlight.Add(-int64(n))
			return nil
		},
	}
	if err := o.Run(context.Background(), orderedStream(strings.NewReader(b.String()), io.Discard)); err != nil {
		t.Fatal(err)
	}
	if most.Load() > windowBytes+2*lineLen {
		t.Errorf("%d bytes of lines in flight at once, over the window of %d bytes and one batch", most.Load(), windowBytes)
	}
}
