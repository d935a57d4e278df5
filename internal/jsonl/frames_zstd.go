package jsonl

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// The zstd side of the frame reader (frames.go): the frame structure is
// walked by hand so that a damaged frame is found and skipped.

// zstdFrames walks the frame structure (header, block headers, checksum)
// so that the decoder sees exactly one frame, and a cut frame is noticed
// within a block of the cut.
type zstdFrames struct {
	src *histReader
	dec *zstd.Decoder
	fs  zstdFrame
}

func (z *zstdFrames) next() error {
	for {
		var magic [4]byte
		n, err := io.ReadFull(z.src, magic[:])
		if n == 0 && (err == io.EOF || err == io.ErrUnexpectedEOF) {
			return io.EOF
		}
		if err != nil {
			return io.ErrUnexpectedEOF
		}
		// Skippable frames (magic 0x184D2A5?) carry no data.
		if magic[1] == 0x2a && magic[2] == 0x4d && magic[3] == 0x18 && magic[0]&0xf0 == 0x50 {
			var size [4]byte
			if err := z.src.full(size[:]); err != nil {
				return err
			}
			skip := int64(size[0]) | int64(size[1])<<8 | int64(size[2])<<16 | int64(size[3])<<24
			if _, err := io.CopyN(io.Discard, z.src, skip); err != nil {
				return io.ErrUnexpectedEOF
			}
			z.src.startFrame()
			continue
		}
		if !bytes.Equal(magic[:], zstdMagic) {
			return errNotFrame
		}
		z.fs = zstdFrame{src: z.src, pending: append([]byte(nil), magic[:]...)}
		if err := z.fs.header(); err != nil {
			return err
		}
		return z.dec.Reset(&z.fs)
	}
}

func (z *zstdFrames) Read(p []byte) (int, error) { return z.dec.Read(p) }
func (z *zstdFrames) close()                     { z.dec.Close() }

// zstdFrame hands out the raw bytes of one frame, block by block.
type zstdFrame struct {
	src      *histReader
	pending  []byte
	checksum bool
	last     bool // the last block was read
	end      bool
}

func (f *zstdFrame) header() error {
	var fhd [1]byte
	if err := f.src.full(fhd[:]); err != nil {
		return err
	}
	d := fhd[0]
	if d&0x08 != 0 {
		return errors.New("reserved bit set in the frame header")
	}
	single := d&0x20 != 0
	f.checksum = d&0x04 != 0
	size := []int{0, 1, 2, 4}[d&0x03]
	switch d >> 6 {
	case 0:
		if single {
			size++
		}
	case 1:
		size += 2
	case 2:
		size += 4
	case 3:
		size += 8
	}
	if !single {
		size++ // window descriptor
	}
	rest := make([]byte, size)
	if err := f.src.full(rest); err != nil {
		return err
	}
	f.pending = append(append(f.pending, d), rest...)
	return nil
}

func (f *zstdFrame) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.end {
			return 0, io.EOF
		}
		if err := f.more(); err != nil {
			return 0, err
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// more reads the next block (or the checksum) into pending.
func (f *zstdFrame) more() error {
	if f.last {
		f.end = true
		if f.checksum {
			f.pending = make([]byte, 4)
			return f.src.full(f.pending)
		}
		return nil
	}
	var h [3]byte
	if err := f.src.full(h[:]); err != nil {
		return err
	}
	v := int(h[0]) | int(h[1])<<8 | int(h[2])<<16
	f.last = v&1 != 0
	size := v >> 3
	if size > zstdMaxBlock {
		return fmt.Errorf("block of %d bytes, over zstd's %d", size, zstdMaxBlock)
	}
	switch (v >> 1) & 3 {
	case 1: // RLE: one byte, repeated
		size = 1
	case 3:
		return errors.New("reserved block type")
	}
	f.pending = append(make([]byte, 0, 3+size), h[:]...)
	f.pending = f.pending[:3+size]
	return f.src.full(f.pending[3:])
}
