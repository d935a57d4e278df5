package jsonl

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
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
//
// A file has one appender at a time: Append takes an exclusive lock on it
// (flock, released when the process ends, however it ends) and fails with
// ErrArchiveBusy when another process holds it, since two appenders
// interleave their frames into a file no one can read back.
//
// Holding the lock, Append first removes a cut last frame (member, line)
// that a killed writer left (archive_seal.go); Writer.Repaired says what
// it removed, for the caller to say once.
func Append(name string) (*Writer, error) {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_APPEND|os.O_RDWR, 0o644)
	readable := err == nil
	if errors.Is(err, os.ErrPermission) {
		// Writable but not readable: appended to without the repair.
		f, err = os.OpenFile(name, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	}
	if err != nil {
		return nil, fmt.Errorf("open output: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, ErrArchiveBusy) {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	var repair *Repair
	if readable {
		format := ""
		switch {
		case strings.HasSuffix(name, ".gz"):
			format = "gzip"
		case strings.HasSuffix(name, ".zst"):
			format = "zstd"
		}
		if repair, err = sealTail(f, format); err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: check its end: %w", name, err)
		}
	}
	w, err := appendWriter(name, f)
	if err != nil {
		return nil, err
	}
	w.repair = repair
	return w, nil
}

// Repaired tells what Append removed from the end of the file (a frame
// cut by a killed writer), or nil.
func (w *Writer) Repaired() *Repair { return w.repair }

// appendWriter is the Writer of an opened, locked file.
func appendWriter(name string, f *os.File) (*Writer, error) {
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

// ErrArchiveBusy: another process is appending to the file.
var ErrArchiveBusy = errors.New("another process is appending to this file (one writer per archive: " +
	"give each crawl loop its own ARCHIVE, or --archive-next-free)")

// AppendFree is Append to name or, when another process is appending to
// it, to the first free of its siblings NAME-2.EXT, NAME-3.EXT … (the
// extension being .jsonl.zst, .jsonl.gz, .jsonl or whatever follows the
// first dot of the base name). It returns the name it appends to.
func AppendFree(name string) (*Writer, string, error) {
	try := name
	for i := 2; ; i++ {
		w, err := Append(try)
		if err == nil || !errors.Is(err, ErrArchiveBusy) || i > 1000 {
			return w, try, err
		}
		try = siblingName(name, i)
	}
}

// siblingName is name with -i before its extension: crawl.jsonl.zst →
// crawl-2.jsonl.zst.
func siblingName(name string, i int) string {
	dir, base := filepath.Split(name)
	stem, ext := base, ""
	if dot := strings.IndexByte(base[min(1, len(base)):], '.'); dot >= 0 {
		stem, ext = base[:dot+1], base[dot+1:]
	}
	return dir + stem + "-" + strconv.Itoa(i) + ext
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
