package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// A compressed input is read one zstd frame or gzip member at a time, so
// that a damaged one — the last frame of a run that was killed while it
// wrote, followed by the frames a resumed run appended — costs only its
// own lines: the reader warns, finds the next frame's magic number and
// goes on. A frame's lines are handed out once the whole frame has decoded
// and its checksum held (a frame over holdMax, which only other writers
// make, is handed out a line at a time as it decodes), so a damaged frame
// adds neither a cut line nor garbage decoded past the cut.

var (
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
	gzipMagic = []byte{0x1f, 0x8b, 0x08} // ID1 ID2 CM=deflate
)

const (
	// histKeep is how many bytes of the current frame are kept for the
	// search of the next frame after damage. A cut is noticed at most one
	// block (128 KiB for zstd) after it, so this covers it with room.
	histKeep = 1 << 20
	// holdMax bounds the decoded bytes of one frame held back until the
	// frame is known to be whole.
	holdMax = 4 << 20
	// zstdMaxBlock is the largest block zstd allows.
	zstdMaxBlock = 128 << 10
)

// Damage counts what the reader skipped in one compressed input.
type Damage struct {
	Frames int   // damaged frames or members skipped
	Bytes  int64 // compressed bytes skipped
	Lines  int   // lines (whole or cut) of damaged frames dropped
}

// histReader is the compressed stream: it replays bytes pushed back after
// damage, and keeps the bytes of the current frame for the search of the
// next one.
type histReader struct {
	br      *bufio.Reader
	replay  []byte
	hist    []byte
	histOff int64 // stream offset of hist[0]
	off     int64 // stream offset of the next byte
}

func (h *histReader) Read(p []byte) (int, error) {
	var n int
	var err error
	if len(h.replay) > 0 {
		n = copy(p, h.replay)
		h.replay = h.replay[n:]
	} else {
		n, err = h.br.Read(p)
	}
	h.keep(p[:n])
	return n, err
}

func (h *histReader) ReadByte() (byte, error) {
	var b [1]byte
	if len(h.replay) > 0 {
		b[0] = h.replay[0]
		h.replay = h.replay[1:]
	} else {
		c, err := h.br.ReadByte()
		if err != nil {
			return 0, err
		}
		b[0] = c
	}
	h.keep(b[:])
	return b[0], nil
}

func (h *histReader) keep(b []byte) {
	h.off += int64(len(b))
	h.hist = append(h.hist, b...)
	if len(h.hist) > 2*histKeep {
		drop := len(h.hist) - histKeep
		h.histOff += int64(drop)
		h.hist = append(h.hist[:0], h.hist[drop:]...)
	}
}

// startFrame marks the next byte as the start of a frame.
func (h *histReader) startFrame() {
	h.hist = h.hist[:0]
	h.histOff = h.off
}

// full reads exactly len(p) bytes; a short read is io.ErrUnexpectedEOF.
func (h *histReader) full(p []byte) error {
	_, err := io.ReadFull(h, p)
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// resync moves to the next occurrence of magic after the start of the
// damaged frame whose start is frameOff. It looks first in the kept bytes,
// then reads on. It returns false at the end of the input.
func (h *histReader) resync(magic []byte, frameOff int64) bool {
	from := int(frameOff + 1 - h.histOff) // skip the damaged frame's own magic
	if from < 0 {
		from = 0
	}
	if from < len(h.hist) {
		if i := bytes.Index(h.hist[from:], magic); i >= 0 {
			start := from + i
			// Bytes not yet replayed stay behind the kept ones.
			h.replay = append(append([]byte(nil), h.hist[start:]...), h.replay...)
			h.off = h.histOff + int64(start)
			h.startFrame()
			return true
		}
		// The magic may straddle the end of the kept bytes.
		tail := h.hist[max(from, len(h.hist)-len(magic)+1):]
		h.replay = append(append([]byte(nil), tail...), h.replay...)
		h.off -= int64(len(tail))
	}
	h.startFrame()
	for {
		c, err := h.ReadByte()
		if err != nil {
			return false
		}
		if c != magic[0] {
			h.startFrame()
			continue
		}
		rest := make([]byte, len(magic)-1)
		n, _ := io.ReadFull(h, rest)
		if n == len(rest) && bytes.Equal(rest, magic[1:]) {
			h.replay = append(append([]byte(nil), magic...), h.replay...)
			h.off -= int64(len(magic))
			h.startFrame()
			return true
		}
		// Not it: give back what was read after the first byte.
		h.replay = append(append([]byte(nil), rest[:n]...), h.replay...)
		h.off -= int64(n)
		h.startFrame()
	}
}

// frameDecoder decodes one frame (member) at a time from a histReader.
type frameDecoder interface {
	// next starts the next frame; io.EOF when the input has no more.
	next() error
	// Read reads the current frame's decoded bytes; io.EOF at its end.
	Read(p []byte) (int, error)
	close()
}

// frameReader is the decoded stream of every good frame.
type frameReader struct {
	name, format string
	magic        []byte
	src          *histReader
	dec          frameDecoder
	warn         io.Writer
	damage       *Damage

	started  bool
	frameOff int64
	buf      []byte // decoded bytes of the current frame
	ready    int    // buf[:ready] may be handed out
	pos      int    // buf[:pos] was handed out
	done     bool
}

func newFrameReader(br *bufio.Reader, name, format string, warn io.Writer, damage *Damage) (*frameReader, error) {
	src := &histReader{br: br}
	fr := &frameReader{name: name, format: format, src: src, warn: warn, damage: damage}
	switch format {
	case "zstd":
		zd, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(1<<29))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		fr.dec, fr.magic = &zstdFrames{src: src, dec: zd}, zstdMagic
	default:
		fr.dec, fr.magic = &gzipMembers{src: src}, gzipMagic
	}
	// A stream that is not compressed at all is an error at once, as
	// before, rather than one long skip.
	if err := fr.start(); err != nil && err != io.EOF {
		if errors.Is(err, errNotFrame) {
			return nil, fmt.Errorf("%s: %w", format, err)
		}
		fr.damaged(err)
	}
	return fr, nil
}

var errNotFrame = errors.New("not a frame: wrong magic number")

func (fr *frameReader) start() error {
	fr.src.startFrame()
	fr.frameOff = fr.src.off
	fr.started = true
	err := fr.dec.next()
	if err == io.EOF {
		fr.done = true
	}
	return err
}

// damaged reports the damaged frame, drops its lines and moves to the
// next frame (or to the end). A frame cut short by the end of the input —
// a file still being written, or the last run's killed writer — keeps its
// whole lines: no bytes follow the cut to be decoded as garbage.
func (fr *frameReader) damaged(cause error) {
	held := fr.buf[fr.ready:]
	for first := true; ; first = false {
		found := fr.src.resync(fr.magic, fr.frameOff)
		skipped := fr.src.off - fr.frameOff
		fr.damage.Frames++
		fr.damage.Bytes += skipped
		kept := 0
		if !found && first && errors.Is(cause, io.ErrUnexpectedEOF) {
			kept = bytes.LastIndexByte(held, '\n') + 1
		}
		dropped := bytes.Count(held[kept:], []byte{'\n'})
		if len(held) > kept && held[len(held)-1] != '\n' {
			dropped++
		}
		fr.damage.Lines += dropped
		fr.ready += kept
		fr.buf = fr.buf[:fr.ready]
		where := "the end of the input"
		if found {
			where = fmt.Sprintf("the next %s at byte %d", fr.unit(), fr.src.off)
		}
		msg := fmt.Sprintf("%s: damaged %s at byte %d (%v): skipped %d bytes to %s", fr.name, fr.unit(), fr.frameOff, cause, skipped, where)
		if kept > 0 {
			msg += fmt.Sprintf(", keeping the %d whole lines before the cut", bytes.Count(held[:kept], []byte{'\n'}))
		}
		if dropped > 0 {
			msg += fmt.Sprintf(", dropping %d lines decoded from it", dropped)
		}
		fmt.Fprintln(fr.warn, msg)
		held = nil
		if !found {
			fr.done = true
			return
		}
		err := fr.start()
		if err == nil || err == io.EOF {
			return
		}
		cause = err
	}
}

func (fr *frameReader) unit() string {
	if fr.format == "zstd" {
		return "zstd frame"
	}
	return "gzip member"
}

func (fr *frameReader) Read(p []byte) (int, error) {
	for fr.pos == fr.ready {
		if fr.done {
			return 0, io.EOF
		}
		if err := fr.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, fr.buf[fr.pos:fr.ready])
	fr.pos += n
	return n, nil
}

// fill decodes more of the current frame, or starts the next one.
func (fr *frameReader) fill() error {
	if fr.pos > 0 {
		fr.buf = append(fr.buf[:0], fr.buf[fr.pos:]...)
		fr.ready -= fr.pos
		fr.pos = 0
	}
	if cap(fr.buf)-len(fr.buf) < 32<<10 {
		fr.buf = append(fr.buf, make([]byte, 64<<10)...)[:len(fr.buf)]
	}
	n, err := fr.dec.Read(fr.buf[len(fr.buf):cap(fr.buf)])
	if n > 0 {
		fr.buf = fr.buf[:len(fr.buf)+n]
		if len(fr.buf)-fr.ready > holdMax {
			if i := bytes.LastIndexByte(fr.buf[fr.ready:], '\n'); i >= 0 {
				fr.ready += i + 1
			} else {
				fr.ready = len(fr.buf)
			}
		}
	}
	switch {
	case err == nil:
		return nil
	case err == io.EOF: // the frame ended well
		fr.ready = len(fr.buf)
		if fr.pos < fr.ready {
			return nil // hand out the rest first; the next fill starts the next frame
		}
		if err := fr.start(); err != nil && err != io.EOF {
			fr.damaged(err)
		}
		return nil
	default:
		fr.damaged(err)
		return nil
	}
}

func (fr *frameReader) close() { fr.dec.close() }

// gzipMembers decodes one gzip member at a time.
type gzipMembers struct {
	src *histReader
	zr  *gzip.Reader
}

func (g *gzipMembers) next() error {
	var err error
	if g.zr == nil {
		g.zr, err = gzip.NewReader(g.src)
	} else {
		err = g.zr.Reset(g.src)
	}
	switch {
	case err == io.EOF:
		return io.EOF
	case errors.Is(err, gzip.ErrHeader):
		return errNotFrame
	case err != nil:
		return err
	}
	g.zr.Multistream(false)
	return nil
}

func (g *gzipMembers) Read(p []byte) (int, error) {
	if g.zr == nil {
		return 0, io.EOF
	}
	return g.zr.Read(p)
}

func (g *gzipMembers) close() {
	if g.zr != nil {
		g.zr.Close()
	}
}

func (r *Reader) warnings() io.Writer {
	if r.Warnings != nil {
		return r.Warnings
	}
	return os.Stderr
}

// Damage tells what was skipped so far in damaged compressed inputs.
func (r *Reader) Damage() Damage { return r.damage }
