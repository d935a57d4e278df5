package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// DefaultMaxLine is the longest line a Reader returns whole (64 MiB).
const DefaultMaxLine = 64 << 20

// StdinName is the name under which standard input is reported.
const StdinName = "stdin"

// ErrLineTooLong marks a line longer than the reader's MaxLine. The Line
// returned with it holds the first MaxLine bytes.
var ErrLineTooLong = errors.New("line too long")

// Line is one input line and where it came from.
type Line struct {
	Name  string // file name, or "stdin"
	Num   int    // 1-based line number within Name
	Bytes []byte // without the line ending; valid until the next call to Next
	// Closing says Bytes is not the line read but the error record that
	// stands in for a line over the reader's cap (ClosingRecord), as
	// cli.Ordered hands it on.
	Closing bool
}

// String gives the NAME:LINE position of the line.
func (l Line) String() string { return fmt.Sprintf("%s:%d", l.Name, l.Num) }

// Reader reads the lines of several inputs one after another. Blank lines
// are skipped (but counted). It is not safe for concurrent use.
type Reader struct {
	// MaxLine is the longest line returned whole; longer lines are returned
	// cut, with ErrLineTooLong.
	MaxLine int
	// Warnings receives a line for each damaged compressed frame skipped
	// (default: os.Stderr).
	Warnings io.Writer

	damage Damage

	names []string
	stdin io.Reader

	br     *bufio.Reader
	closer func() error
	name   string
	num    int
	buf    []byte
}

// NewReader reads the named files in order, or stdin when names is empty.
// The name "-" also means stdin.
func NewReader(names []string, stdin io.Reader) *Reader {
	if len(names) == 0 {
		names = []string{"-"}
	}
	return &Reader{MaxLine: DefaultMaxLine, names: append([]string(nil), names...), stdin: stdin}
}

// Next returns the next non-blank line. It returns io.EOF after the last
// input. An error opening or reading an input is returned as is, wrapped
// with the input's name; reading cannot continue after it.
func (r *Reader) Next() (Line, error) {
	for {
		if r.br == nil {
			if len(r.names) == 0 {
				return Line{}, io.EOF
			}
			if err := r.open(r.names[0]); err != nil {
				return Line{}, err
			}
			r.names = r.names[1:]
		}
		b, tooLong, err := r.readLine()
		if err == io.EOF && b == nil {
			if cerr := r.closeCurrent(); cerr != nil {
				return Line{}, cerr
			}
			continue
		}
		if err != nil && err != io.EOF {
			return Line{}, fmt.Errorf("read %s: %w", r.name, err)
		}
		r.num++
		if len(bytes.TrimSpace(b)) == 0 && !tooLong {
			continue
		}
		l := Line{Name: r.name, Num: r.num, Bytes: b}
		if tooLong {
			return l, fmt.Errorf("%w (over %d bytes)", ErrLineTooLong, r.MaxLine)
		}
		return l, nil
	}
}

// readLine reads one line without its ending. It returns b == nil with
// io.EOF at the end of the input.
func (r *Reader) readLine() (b []byte, tooLong bool, err error) {
	r.buf = r.buf[:0]
	got := false
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(chunk) > 0 {
			got = true
		}
		if !tooLong {
			room := r.MaxLine - len(r.buf)
			if len(chunk) > room+1 { // +1: the newline does not count
				r.buf = append(r.buf, chunk[:room]...)
				tooLong = true
			} else {
				r.buf = append(r.buf, chunk...)
			}
		}
		switch err {
		case bufio.ErrBufferFull:
			continue
		case nil:
			return trimEOL(r.buf), tooLong, nil
		case io.EOF:
			if !got {
				return nil, false, io.EOF
			}
			return trimEOL(r.buf), tooLong, nil
		default:
			return nil, false, err
		}
	}
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

func (r *Reader) open(name string) error {
	var src io.Reader
	closeFile := func() error { return nil }
	if name == "-" {
		src, r.name = r.stdin, StdinName
	} else {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("open input: %w", err)
		}
		src, r.name, closeFile = f, name, f.Close
	}
	br := bufio.NewReaderSize(src, 256<<10)
	dec, closeDec, err := decompressor(br, name, r.name, r.warnings(), &r.damage)
	if err != nil {
		closeFile()
		return fmt.Errorf("open %s: %w", r.name, err)
	}
	r.br = bufio.NewReaderSize(dec, 256<<10)
	r.closer = func() error {
		closeDec()
		return closeFile()
	}
	r.num = 0
	return nil
}

// decompressor wraps br in a decoder when the name or the first bytes say
// the stream is gzip or zstd; damaged frames are reported as display.
func decompressor(br *bufio.Reader, name, display string, warn io.Writer, damage *Damage) (io.Reader, func(), error) {
	magic, _ := br.Peek(4)
	format := ""
	switch {
	case strings.HasSuffix(name, ".gz") || bytes.HasPrefix(magic, gzipMagic[:2]):
		format = "gzip"
	case strings.HasSuffix(name, ".zst") || bytes.HasPrefix(magic, zstdMagic):
		format = "zstd"
	default:
		return br, func() {}, nil
	}
	fr, err := newFrameReader(br, display, format, warn, damage)
	if err != nil {
		return nil, nil, err
	}
	return fr, fr.close, nil
}

func (r *Reader) closeCurrent() error {
	err := r.closer()
	r.br, r.closer = nil, nil
	if err != nil {
		return fmt.Errorf("close %s: %w", r.name, err)
	}
	return nil
}

// Buffered tells whether the next line may be returned without waiting
// for input: data is buffered, or the current input is exhausted and the
// next one is a file. A stage that batches lines flushes its batch when
// Buffered is false, so a record never waits for input that may never
// come (a feedback loop through a pipe).
func (r *Reader) Buffered() bool {
	if r.br == nil {
		return len(r.names) == 0 || r.names[0] != "-"
	}
	return r.br.Buffered() > 0
}

// Close releases the current input, if any.
func (r *Reader) Close() error {
	if r.br == nil {
		return nil
	}
	return r.closeCurrent()
}
