package dedup

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"strings"
	"syscall"
)

// ErrLocked says another process holds the index file.
var ErrLocked = errors.New("in use by another dedupe run")

// indexMagic starts every index file.
const indexMagic = "FCDEDUP1\n"

const (
	recGroup = 'G'
	recAlias = 'A'
)

// maxRecord bounds one record's payload, so a corrupt length cannot make
// the reader allocate gigabytes.
const maxRecord = 64 << 20

// IndexFile is the persistent index of dedupe --index: an append-only
// log of the groups emitted by every run (their kept URL, SimHashes,
// exact hashes and URL keys) and of later aliases. A run replays it into
// a Deduper, then appends what it emits. The file is locked (flock) from
// open to close, so a second run on it is refused rather than allowed to
// interleave its writes. A record cut short by a crash is detected by its
// checksum and dropped at the next open.
type IndexFile struct {
	f      *os.File
	w      *bufio.Writer
	path   string
	params string
	// Truncated is the number of bytes of a damaged tail dropped at open.
	Truncated int64
	buf       []byte
	// Deferred holds records in memory until Commit or CommitTo, so the
	// file gains only what the caller's own store committed (dedupe
	// --store). Otherwise records reach the file as the buffer fills.
	Deferred bool
	// pending are the records not yet committed; base is the position
	// (in bytes written since open) of pending's first byte.
	pending []byte
	base    int64
}

// OpenIndex opens (creating it if needed) and locks the index file at
// path. params describes how fingerprints are computed; an existing file
// made with other params is refused.
func OpenIndex(path, params string) (*IndexFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("index %s is %w: runs on one index cannot overlap; wait for it to finish or use another index", path, ErrLocked)
		}
		return nil, fmt.Errorf("lock index %s: %w", path, err)
	}
	x := &IndexFile{f: f, path: path, params: params}
	st, err := f.Stat()
	if err != nil {
		x.Close()
		return nil, fmt.Errorf("index %s: %w", path, err)
	}
	if st.Size() == 0 {
		if _, err := f.WriteString(indexMagic + params + "\n"); err != nil {
			x.Close()
			return nil, fmt.Errorf("index %s: %w", path, err)
		}
	}
	return x, nil
}

// Replay reads every record of the file, calling group and alias, and
// positions the file for appending. A damaged tail is cut off (see
// Truncated).
func (x *IndexFile) Replay(group func(GroupRecord) error, alias func(id int32, urlKeys, exact []uint64) error) error {
	if _, err := x.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	br := bufio.NewReaderSize(x.f, 1<<20)
	head, err := br.ReadString('\n')
	if err != nil || head != indexMagic {
		return fmt.Errorf("%s is not a dedupe index (no %q header)", x.path, strings.TrimSpace(indexMagic))
	}
	params, err := br.ReadString('\n')
	if err != nil {
		return fmt.Errorf("%s: damaged header: %w", x.path, err)
	}
	if p := strings.TrimSuffix(params, "\n"); p != x.params {
		return fmt.Errorf("index %s was made with %q, this run computes %q: fingerprints would not compare; use another index", x.path, p, x.params)
	}
	good := int64(len(head) + len(params))
	for {
		n, err := x.readRecord(br, group, alias)
		if err == io.EOF {
			break
		}
		if err != nil {
			var de *damageError
			if !errors.As(err, &de) {
				return fmt.Errorf("index %s at byte %d: %w", x.path, good, err)
			}
			st, serr := x.f.Stat()
			if serr != nil {
				return serr
			}
			x.Truncated = st.Size() - good
			if err := x.f.Truncate(good); err != nil {
				return fmt.Errorf("index %s: cut damaged tail: %w", x.path, err)
			}
			break
		}
		good += n
	}
	if _, err := x.f.Seek(good, io.SeekStart); err != nil {
		return err
	}
	x.w = bufio.NewWriterSize(x.f, 256<<10)
	return nil
}

// damageError marks a record that is cut short or fails its checksum.
type damageError struct{ msg string }

func (e *damageError) Error() string { return e.msg }

func (x *IndexFile) readRecord(br *bufio.Reader, group func(GroupRecord) error, alias func(int32, []uint64, []uint64) error) (int64, error) {
	kind, err := br.ReadByte()
	if err == io.EOF {
		return 0, io.EOF
	}
	if err != nil {
		return 0, err
	}
	size, err := binary.ReadUvarint(br)
	if err != nil || size > maxRecord {
		return 0, &damageError{"bad record length"}
	}
	if cap(x.buf) < int(size)+4 {
		x.buf = make([]byte, size+4)
	}
	b := x.buf[:size+4]
	if _, err := io.ReadFull(br, b); err != nil {
		return 0, &damageError{"record cut short"}
	}
	payload := b[:size]
	sum := crc32.NewIEEE()
	sum.Write([]byte{kind})
	sum.Write(payload)
	if binary.LittleEndian.Uint32(b[size:]) != sum.Sum32() {
		return 0, &damageError{"checksum mismatch"}
	}
	n := int64(1 + uvarintLen(size) + int(size) + 4)
	d := decoder{b: payload}
	switch kind {
	case recGroup:
		g := GroupRecord{ID: int32(d.uvarint())}
		g.URL = string(d.bytes(int(d.uvarint())))
		g.SimHashes = d.u64s()
		g.Exact = d.u64s()
		g.URLKeys = d.u64s()
		nv := int(d.uvarint())
		for i := 0; i < nv && d.err == nil; i++ {
			nt := int(d.uvarint())
			c := Compact{Terms: make([]uint32, 0, nt), Weights: make([]float32, 0, nt)}
			for j := 0; j < nt && d.err == nil; j++ {
				c.Terms = append(c.Terms, d.u32())
				c.Weights = append(c.Weights, math.Float32frombits(d.u32()))
			}
			g.Vectors = append(g.Vectors, c)
		}
		g.Parts = d.u64s()
		if d.err != nil {
			return 0, d.err
		}
		return n, group(g)
	case recAlias:
		id := int32(d.uvarint())
		keys := d.u64s()
		exact := d.u64s()
		if d.err != nil {
			return 0, d.err
		}
		return n, alias(id, keys, exact)
	}
	return 0, &damageError{fmt.Sprintf("unknown record type %q", kind)}
}

func uvarintLen(v uint64) int {
	var b [binary.MaxVarintLen64]byte
	return binary.PutUvarint(b[:], v)
}

// Group appends a group record.
func (x *IndexFile) Group(g GroupRecord) error {
	e := encoder{b: x.buf[:0]}
	e.uvarint(uint64(g.ID))
	e.uvarint(uint64(len(g.URL)))
	e.b = append(e.b, g.URL...)
	e.u64s(g.SimHashes)
	e.u64s(g.Exact)
	e.u64s(g.URLKeys)
	e.uvarint(uint64(len(g.Vectors)))
	for _, c := range g.Vectors {
		e.uvarint(uint64(len(c.Terms)))
		for i := range c.Terms {
			e.u32(c.Terms[i])
			e.u32(math.Float32bits(c.Weights[i]))
		}
	}
	e.u64s(g.Parts)
	x.buf = e.b
	return x.write(recGroup, e.b)
}

// Alias appends more URL keys and exact hashes of group id.
func (x *IndexFile) Alias(id int32, keys, exact []uint64) error {
	e := encoder{b: x.buf[:0]}
	e.uvarint(uint64(id))
	e.u64s(keys)
	e.u64s(exact)
	x.buf = e.b
	return x.write(recAlias, e.b)
}

func (x *IndexFile) write(kind byte, payload []byte) error {
	if x.w == nil {
		return errors.New("index: Replay must come before writes")
	}
	var hdr [1 + binary.MaxVarintLen64]byte
	hdr[0] = kind
	n := 1 + binary.PutUvarint(hdr[1:], uint64(len(payload)))
	sum := crc32.NewIEEE()
	sum.Write(hdr[:1])
	sum.Write(payload)
	var tail [4]byte
	binary.LittleEndian.PutUint32(tail[:], sum.Sum32())
	x.pending = append(x.pending, hdr[:n]...)
	x.pending = append(x.pending, payload...)
	x.pending = append(x.pending, tail[:]...)
	if !x.Deferred && len(x.pending) >= 256<<10 {
		return x.Commit()
	}
	return nil
}

// Mark is the position after the last record written: CommitTo(Mark())
// commits everything written so far.
func (x *IndexFile) Mark() int64 { return x.base + int64(len(x.pending)) }

// CommitTo writes the records before mark (a Mark taken earlier) to the
// file and keeps the later ones pending.
func (x *IndexFile) CommitTo(mark int64) error {
	n := int(min(max(mark-x.base, 0), int64(len(x.pending))))
	if n == 0 {
		return nil
	}
	x.w.Write(x.pending[:n])
	if err := x.w.Flush(); err != nil {
		return fmt.Errorf("write index %s: %w", x.path, err)
	}
	x.pending = x.pending[:copy(x.pending, x.pending[n:])]
	x.base += int64(n)
	return nil
}

// Commit writes every pending record to the file.
func (x *IndexFile) Commit() error { return x.CommitTo(x.Mark()) }

// Rollback forgets the pending records: the store they go with failed.
func (x *IndexFile) Rollback() {
	x.base += int64(len(x.pending))
	x.pending = x.pending[:0]
}

// Flush writes buffered records to the file (Commit).
func (x *IndexFile) Flush() error {
	if x.w == nil {
		return nil
	}
	return x.Commit()
}

// Close commits what is pending (Rollback first to drop it), syncs,
// unlocks and closes the file.
func (x *IndexFile) Close() error {
	err := x.Flush()
	if serr := x.f.Sync(); err == nil && serr != nil {
		err = fmt.Errorf("sync index %s: %w", x.path, serr)
	}
	if cerr := x.f.Close(); err == nil && cerr != nil { // closing releases the lock
		err = cerr
	}
	return err
}

type encoder struct{ b []byte }

func (e *encoder) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) u32(v uint32)     { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *encoder) u64s(vs []uint64) {
	e.uvarint(uint64(len(vs)))
	for _, v := range vs {
		e.b = binary.LittleEndian.AppendUint64(e.b, v)
	}
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail() { d.err = &damageError{"record payload malformed"}; d.b = nil }

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes(n int) []byte {
	if n < 0 || n > len(d.b) {
		d.fail()
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) u32() uint32 {
	b := d.bytes(4)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

func (d *decoder) u64s() []uint64 {
	n := int(d.uvarint())
	if n*8 > len(d.b) {
		d.fail()
		return nil
	}
	out := make([]uint64, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(d.b[8*i:])
	}
	d.b = d.b[8*n:]
	return out
}
