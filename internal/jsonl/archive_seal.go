package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/gzip"
)

// A writer killed while it appends (SIGKILL, a crash, the machine going
// down) leaves the archive's last zstd frame, gzip member or line cut.
// Every reader skips it with a warning, but that warning then comes back
// on every read of the archive, for ever. The next Append, holding the
// lock, cuts that tail off before it writes, so the archive reads back
// whole again. Nothing recorded is lost: seed add flushes a batch's frame
// before it records the batch in the frontier, so the pages of a cut
// frame were never recorded, and are fetched (and archived) again.
//
// Only a cut tail is removed: damage inside the file (from a build before
// this repair, or another writer) is left for the readers to skip, and a
// file that does not read as the format its name says is left alone.

// Repair says what Append cut off the end of an archive.
type Repair struct {
	Offset int64  // where the cut frame, member or line began: the new size
	Bytes  int64  // bytes removed
	Unit   string // "zstd frame", "gzip member" or "line"
}

func (r Repair) String() string {
	return fmt.Sprintf("its last %s was cut (a writer killed while it wrote): removed its %d bytes from byte %d, so the archive reads back whole; "+
		"the pages in it were never recorded in the frontier and are fetched again", r.Unit, r.Bytes, r.Offset)
}

// sealTail finds a cut last frame (member, line) of f, whose format is
// "zstd", "gzip" or "" (plain lines), and truncates f before it.
func sealTail(f *os.File, format string) (*Repair, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if size == 0 {
		return nil, nil
	}
	var end int64
	switch format {
	case "zstd":
		end, err = zstdWholeEnd(f, size)
	case "gzip":
		end, err = gzipWholeEnd(f, size)
	default:
		end, err = plainWholeEnd(f, size)
	}
	if err != nil || end >= size {
		return nil, err
	}
	if err := f.Truncate(end); err != nil {
		return nil, fmt.Errorf("remove the cut end: %w", err)
	}
	unit := map[string]string{"zstd": "zstd frame", "gzip": "gzip member", "": "line"}[format]
	return &Repair{Offset: end, Bytes: size - end, Unit: unit}, nil
}

// errCut marks a frame that the end of the file cuts.
var errCut = errors.New("cut by the end of the file")

// zstdWholeEnd walks the frames of a zstd file by their headers (no
// decoding) and gives where the last whole one ends: size when the file
// ends with a whole frame. A frame that is not whole before the end is
// skipped to the next magic number, as the readers do.
func zstdWholeEnd(r io.ReaderAt, size int64) (int64, error) {
	off := int64(0)
	for off < size {
		end, err := zstdFrameEnd(r, off, size)
		switch {
		case err == nil:
			off = end
		case errors.Is(err, errCut):
			return off, nil
		default:
			// Damage inside the file: go on from the next frame, if any.
			next, ferr := nextMagic(r, off+1, size, zstdMagic)
			if ferr != nil {
				return size, ferr
			}
			if next < 0 {
				// No frame follows: the tail is not a frame at all.
				return off, nil
			}
			off = next
		}
	}
	return size, nil
}

// zstdFrameEnd gives the end of the frame (or skippable frame) at off.
func zstdFrameEnd(r io.ReaderAt, off, size int64) (int64, error) {
	read := func(n int) ([]byte, error) {
		if off+int64(n) > size {
			return nil, errCut
		}
		b := make([]byte, n)
		if _, err := r.ReadAt(b, off); err != nil {
			return nil, err
		}
		off += int64(n)
		return b, nil
	}
	magic, err := read(4)
	if err != nil {
		return 0, err
	}
	if magic[1] == 0x2a && magic[2] == 0x4d && magic[3] == 0x18 && magic[0]&0xf0 == 0x50 {
		b, err := read(4)
		if err != nil {
			return 0, err
		}
		off += int64(b[0]) | int64(b[1])<<8 | int64(b[2])<<16 | int64(b[3])<<24
		if off > size {
			return 0, errCut
		}
		return off, nil
	}
	if !bytes.Equal(magic, zstdMagic) {
		return 0, errNotFrame
	}
	fhd, err := read(1)
	if err != nil {
		return 0, err
	}
	d := fhd[0]
	if d&0x08 != 0 {
		return 0, errors.New("reserved bit set in the frame header")
	}
	single := d&0x20 != 0
	checksum := d&0x04 != 0
	n := []int{0, 1, 2, 4}[d&0x03] + []int{0, 2, 4, 8}[d>>6]
	if d>>6 == 0 && single {
		n++
	}
	if !single {
		n++ // window descriptor
	}
	if _, err := read(n); err != nil {
		return 0, err
	}
	for last := false; !last; {
		h, err := read(3)
		if err != nil {
			return 0, err
		}
		v := int(h[0]) | int(h[1])<<8 | int(h[2])<<16
		last = v&1 != 0
		bsize := v >> 3
		switch (v >> 1) & 3 {
		case 1: // RLE: one byte, repeated
			bsize = 1
		case 3:
			return 0, errors.New("reserved block type")
		}
		if bsize > zstdMaxBlock {
			return 0, fmt.Errorf("block of %d bytes, over zstd's %d", bsize, zstdMaxBlock)
		}
		off += int64(bsize)
		if off > size {
			return 0, errCut
		}
	}
	if checksum {
		off += 4
		if off > size {
			return 0, errCut
		}
	}
	return off, nil
}

// nextMagic gives the offset of the first magic at or after from, or -1.
func nextMagic(r io.ReaderAt, from, size int64, magic []byte) (int64, error) {
	buf := make([]byte, 64<<10)
	for from < size {
		n, err := r.ReadAt(buf, from)
		if err != nil && err != io.EOF {
			return 0, err
		}
		if i := bytes.Index(buf[:n], magic); i >= 0 {
			return from + int64(i), nil
		}
		if from+int64(n) >= size {
			break
		}
		from += int64(n - len(magic) + 1)
	}
	return -1, nil
}

// gzipWholeEnd decodes the members of a gzip file (deflate has no block
// sizes to walk) and gives where the last whole one ends. A member
// damaged inside the file ends the walk with the file left as it is.
func gzipWholeEnd(r io.ReaderAt, size int64) (int64, error) {
	cr := &countingReader{br: bufio.NewReader(io.NewSectionReader(r, 0, size))}
	var zr *gzip.Reader
	end := int64(0)
	for {
		var err error
		if zr == nil {
			zr, err = gzip.NewReader(cr)
		} else {
			err = zr.Reset(cr)
		}
		if err == io.EOF && cr.n == end {
			return size, nil
		}
		if err == nil {
			zr.Multistream(false)
			_, err = io.Copy(io.Discard, zr)
		}
		switch {
		case err == nil:
			end = cr.n
		case errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF:
			return end, nil
		default:
			return size, nil
		}
	}
}

// countingReader counts the bytes a decoder has taken; being a
// ByteReader, the decoder reads no further than it needs.
type countingReader struct {
	br *bufio.Reader
	n  int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.br.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.br.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// plainWholeEnd gives the end of the last whole line of a plain file.
func plainWholeEnd(r io.ReaderAt, size int64) (int64, error) {
	buf := make([]byte, 64<<10)
	for end := size; end > 0; {
		from := max(0, end-int64(len(buf)))
		n, err := r.ReadAt(buf[:end-from], from)
		if err != nil && err != io.EOF {
			return size, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return from + int64(i) + 1, nil
		}
		end = from
	}
	return 0, nil
}
