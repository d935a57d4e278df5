package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// FlushDelay is how long a written record may wait in the buffer before it
// is flushed: well under the 100 ms the pipeline contract promises.
const FlushDelay = 50 * time.Millisecond

// Writer writes one JSON value per line. It is safe for concurrent use;
// each record is written whole, so lines never interleave. Buffered records
// are flushed FlushDelay after the first of them was written, or sooner when
// the buffer fills.
type Writer struct {
	mu        sync.Mutex
	bw        *bufio.Writer
	flushComp func() error // flushes the compressor, if any
	closeAll  func() error
	pending   bool // a flush is scheduled
	err       error
	scratch   bytes.Buffer
	enc       *json.Encoder
	repair    *Repair       // what Append removed from the file's end
	delay     time.Duration // FlushDelay; tests that need whole frames set it longer
}

// Create writes to the named file, compressed by its suffix (.gz, .zst),
// or to stdout when name is "" or "-".
func Create(name string, stdout io.Writer) (*Writer, error) {
	if name == "" || name == "-" {
		return NewWriter(stdout), nil
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, fmt.Errorf("create output: %w", err)
	}
	w, err := newCompressed(f, name)
	if err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

func newCompressed(f *os.File, name string) (*Writer, error) {
	switch {
	case strings.HasSuffix(name, ".gz"):
		zw := gzip.NewWriter(f)
		return newWriter(zw, zw.Flush, func() error { return firstErr(zw.Close(), f.Close()) }), nil
	case strings.HasSuffix(name, ".zst"):
		zw, err := zstd.NewWriter(f, zstd.WithEncoderConcurrency(1))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		return newWriter(zw, zw.Flush, func() error { return firstErr(zw.Close(), f.Close()) }), nil
	}
	return newWriter(f, nil, f.Close), nil
}

// NewWriter writes uncompressed lines to w. Close does not close w.
func NewWriter(w io.Writer) *Writer {
	return newWriter(w, nil, nil)
}

func newWriter(w io.Writer, flushComp, closeAll func() error) *Writer {
	jw := &Writer{bw: bufio.NewWriterSize(w, 256<<10), flushComp: flushComp, closeAll: closeAll, delay: FlushDelay}
	jw.enc = json.NewEncoder(&jw.scratch)
	jw.enc.SetEscapeHTML(false)
	return jw
}

// Write encodes v as one line.
func (w *Writer) Write(v any) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	w.scratch.Reset()
	if err := w.enc.Encode(v); err != nil {
		return fmt.Errorf("encode record: %w", err)
	}
	return w.writeLocked(w.scratch.Bytes())
}

// WriteLine writes b, which must be one JSON value without a newline, as a
// line of its own.
func (w *Writer) WriteLine(b []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if _, err := w.bw.Write(b); err != nil {
		w.err = err
		return err
	}
	return w.writeLocked([]byte{'\n'})
}

func (w *Writer) writeLocked(b []byte) error {
	if _, err := w.bw.Write(b); err != nil {
		w.err = err
		return err
	}
	if !w.pending {
		w.pending = true
		time.AfterFunc(w.delay, w.timedFlush)
	}
	return nil
}

func (w *Writer) timedFlush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pending = false
	if w.err == nil {
		w.err = w.flushLocked()
	}
}

func (w *Writer) flushLocked() error {
	if err := w.bw.Flush(); err != nil {
		return err
	}
	if w.flushComp != nil {
		return w.flushComp()
	}
	return nil
}

// Flush writes out everything buffered.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	w.err = w.flushLocked()
	return w.err
}

// Err reports the first write error, such as a closed pipe.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Close flushes and closes the output (but never stdout).
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	err := w.err
	if err == nil {
		err = w.flushLocked()
	}
	if w.closeAll != nil {
		err = firstErr(err, w.closeAll())
		w.closeAll = nil
	}
	if w.err == nil {
		w.err = errClosed
	}
	return err
}

var errClosed = fmt.Errorf("jsonl: writer closed")

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
