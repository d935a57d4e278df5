package jsonl

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Append opens the named file for appending, compressed by its suffix
// (.gz, .zst). Every flush of a compressed file ends a zstd frame or gzip
// member and the next write starts a new one, so a process killed while it
// writes leaves at most its last frame cut — which every Reader skips with
// a warning — and the frames appended after it by the next run stay
// readable. Plain files get whole lines per flush.
func Append(name string) (*Writer, error) {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open output: %w", err)
	}
	var zw interface {
		io.WriteCloser
		Reset(io.Writer)
	}
	switch {
	case strings.HasSuffix(name, ".gz"):
		zw = gzip.NewWriter(f)
	case strings.HasSuffix(name, ".zst"):
		enc, err := zstd.NewWriter(f, zstd.WithEncoderConcurrency(1))
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("zstd: %w", err)
		}
		zw = zstdResetter{enc}
	default:
		return newWriter(f, nil, f.Close), nil
	}
	fw := &frameWriter{zw: zw, f: f}
	return newWriter(fw, fw.endFrame, func() error { return firstErr(fw.endFrame(), f.Close()) }), nil
}

// zstdResetter gives zstd's encoder the Reset of gzip's writer.
type zstdResetter struct{ *zstd.Encoder }

func (z zstdResetter) Reset(w io.Writer) { z.Encoder.Reset(w) }

// frameWriter compresses into frames that end at each flush.
type frameWriter struct {
	zw interface {
		io.WriteCloser
		Reset(io.Writer)
	}
	f     *os.File
	dirty bool // bytes written since the frame began
}

func (fw *frameWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		fw.dirty = true
	}
	return fw.zw.Write(p)
}

// endFrame closes the current frame, if it holds anything, and starts the
// next; an empty frame is never written.
func (fw *frameWriter) endFrame() error {
	if !fw.dirty {
		return nil
	}
	fw.dirty = false
	err := fw.zw.Close()
	fw.zw.Reset(fw.f)
	return err
}
