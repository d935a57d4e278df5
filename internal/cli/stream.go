package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// Stream is the plumbing of one run of a stage: the input lines, the
// output records, the rejected lines, and the log on stderr.
type Stream struct {
	In      *jsonl.Reader
	Out     *jsonl.Writer
	Rejects *jsonl.Rejects
	Log     *Logger
	// Progress says whether to draw progress on stderr.
	Progress bool

	input *input // the loop started by ReadInput
}

// OpenStream opens the inputs named by the arguments (stdin when none),
// the output of -o and the rejects file of --rejects.
func OpenStream(c *ucli.Context) (*Stream, error) {
	return OpenStreamWith(c, c.Args().Slice(), os.Stdin, os.Stdout, os.Stderr)
}

// OpenStreamWith is OpenStream with explicit inputs and standard files, for
// tests and for commands whose arguments are not input files.
func OpenStreamWith(c *ucli.Context, inputs []string, stdin io.Reader, stdout, stderr io.Writer) (*Stream, error) {
	progress, err := ProgressWanted(c.String(FlagProgress), stderr)
	if err != nil {
		return nil, err
	}
	log, err := NewProgressLogger(c, stderr)
	if err != nil {
		return nil, err
	}
	rej, err := jsonl.OpenRejects(c.String(FlagRejects), stderr)
	if err != nil {
		return nil, err
	}
	out, err := jsonl.Create(c.String(FlagOutput), stdout)
	if err != nil {
		rej.Close()
		return nil, err
	}
	return &Stream{In: jsonl.NewReader(inputs, stdin), Out: out, Rejects: rej, Log: log, Progress: progress}, nil
}

// NewStream is the Stream of a stage called from Go (a stage's Run) rather
// than from its command line: lines from in, records to out, and rejected
// lines and summaries logged on log (nil: nothing is logged; rejects are
// still counted, and Close still returns ErrRejected).
func NewStream(in io.Reader, out io.Writer, log *Logger) *Stream {
	if log == nil {
		log = NewLogger("", io.Discard, true)
	}
	rej, _ := jsonl.OpenRejects("", log.w) // no file: cannot fail
	return &Stream{In: jsonl.NewReader(nil, in), Out: jsonl.NewWriter(out), Rejects: rej, Log: log}
}

// Close flushes and closes everything. It returns ErrRejected when lines
// were rejected and nothing worse happened.
func (s *Stream) Close() error {
	err := firstErr(s.Out.Close(), s.In.Close(), s.Rejects.Close())
	if err == nil && s.Rejects.Count() > 0 {
		return fmt.Errorf("%w: %d", ErrRejected, s.Rejects.Count())
	}
	return err
}

// CloseOutput is Close for a stage that stops early while a goroutine of
// its own may still be blocked reading the input (stdin in a feedback
// loop): it flushes and closes the output and the rejects file, and leaves
// the input alone, to be released when the process exits.
func (s *Stream) CloseOutput() error {
	err := firstErr(s.Out.Close(), s.Rejects.Close())
	if err == nil && s.Rejects.Count() > 0 {
		return fmt.Errorf("%w: %d", ErrRejected, s.Rejects.Count())
	}
	return err
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// NewProgressLogger is the logger of a command with StreamFlags: quiet
// with -q, and with --progress on while stderr is not a terminal, writing
// a progress line every --progress-every.
func NewProgressLogger(c *ucli.Context, stderr io.Writer) (*Logger, error) {
	log := NewLogger(c.App.Name, stderr, c.Bool(FlagQuiet))
	if c.String(FlagProgress) == "on" && !IsTerminal(stderr) {
		every := c.Duration(FlagProgressEvery)
		if every <= 0 {
			return nil, Usagef("--%s %v: must be positive", FlagProgressEvery, every)
		}
		log.LineEvery(every)
	}
	return log, nil
}

// ProgressWanted decides --progress auto|on|off.
func ProgressWanted(mode string, stderr io.Writer) (bool, error) {
	switch mode {
	case "on":
		return true, nil
	case "off":
		return false, nil
	case "auto", "":
		return IsTerminal(stderr), nil
	}
	return false, Usagef("--progress: %q is not auto, on or off", mode)
}

// IsTerminal tells whether w is a character device (a terminal).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Logger writes warnings, summaries and progress to stderr, prefixed by the
// command's name. Quiet silences everything but errors.
type Logger struct {
	mu    sync.Mutex
	name  string
	w     io.Writer
	quiet bool
	line  bool // a progress line is on screen

	// every > 0: progress as whole lines, at most one per every (LineEvery).
	every   time.Duration
	last    time.Time // when the last progress line was written
	pending string    // the latest progress not yet written
	now     func() time.Time
}

// NewLogger logs to w.
func NewLogger(name string, w io.Writer, quiet bool) *Logger {
	return &Logger{name: name, w: w, quiet: quiet, now: time.Now}
}

// LineEvery makes progress whole lines, at most one per every, the last
// one written by EndProgress: for a stderr that is a file or a pipe (cron,
// nohup, a log), where a line redrawn in place is an ever longer line of
// control characters. The first line comes every after this call.
func (l *Logger) LineEvery(every time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.every, l.last = every, l.now()
}

// Infof prints a summary or warning unless quiet.
func (l *Logger) Infof(format string, args ...any) {
	if l.quiet {
		return
	}
	l.printf(format, args...)
}

// Errorf prints an error, even when quiet.
func (l *Logger) Errorf(format string, args ...any) { l.printf(format, args...) }

func (l *Logger) printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.line {
		fmt.Fprint(l.w, "\r\033[K")
		l.line = false
	}
	fmt.Fprintf(l.w, "%s: %s\n", l.name, PrintableText(fmt.Sprintf(format, args...)))
}

// Progressf redraws the progress line in place.
func (l *Logger) Progressf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.every > 0 {
		l.pending = fmt.Sprintf(format, args...)
		if now := l.now(); now.Sub(l.last) >= l.every {
			l.writePending(now)
		}
		return
	}
	fmt.Fprintf(l.w, "\r\033[K%s: %s", l.name, Printable(fmt.Sprintf(format, args...)))
	l.line = true
}

func (l *Logger) writePending(now time.Time) {
	fmt.Fprintf(l.w, "%s: %s\n", l.name, l.pending)
	l.pending, l.last = "", now
}

// EndProgress moves past the progress line.
func (l *Logger) EndProgress() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending != "" {
		l.writePending(l.now())
	}
	if l.line {
		fmt.Fprintln(l.w)
		l.line = false
	}
}

// Ticker calls f every interval until stop is called; for progress lines.
func Ticker(interval time.Duration, f func()) (stop func()) {
	t := time.NewTicker(interval)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-t.C:
				f()
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			t.Stop()
			close(done)
			wg.Wait()
		})
	}
}
