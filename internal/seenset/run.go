package seenset

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/bits-and-blooms/bloom/v3"
)

// blockSize is the size of the blocks of a run file a lookup reads.
const blockSize = 8 << 10

// run is one sorted file of keys: uvarint length + bytes, one after the
// other, in blocks that start at a key boundary.
type run struct {
	path  string
	f     *os.File
	size  int64
	n     int
	first [][]byte // first key of every block
	offs  []int64  // file offset of every block
	bf    *bloom.BloomFilter
}

// runWriter writes a run file from keys given in order.
type runWriter struct {
	r       *run
	bw      *bufio.Writer
	off     int64
	blockAt int64
	last    []byte
	scratch [binary.MaxVarintLen64]byte
}

// bloomK is the number of Bloom hash functions; it depends only on the
// false-positive rate, so every run shares it and a key's locations are
// computed once per lookup.
var bloomK = func() uint {
	_, k := bloom.EstimateParameters(1<<20, falsePositive)
	return k
}()

func newRunWriter(path string, n int, fp float64) (*runWriter, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create run: %w", err)
	}
	m, _ := bloom.EstimateParameters(uint(max(n, 1)), fp)
	r := &run{path: path, f: f, bf: bloom.New(m, bloomK)}
	return &runWriter{r: r, bw: bufio.NewWriterSize(f, 256<<10), blockAt: -blockSize}, nil
}

func (w *runWriter) add(key []byte) error {
	if w.last != nil && bytes.Compare(key, w.last) <= 0 {
		return fmt.Errorf("run %s: keys out of order", w.r.path)
	}
	if w.off-w.blockAt >= blockSize {
		w.blockAt = w.off
		w.r.first = append(w.r.first, bytes.Clone(key))
		w.r.offs = append(w.r.offs, w.off)
	}
	n := binary.PutUvarint(w.scratch[:], uint64(len(key)))
	if _, err := w.bw.Write(w.scratch[:n]); err != nil {
		return fmt.Errorf("write run: %w", err)
	}
	if _, err := w.bw.Write(key); err != nil {
		return fmt.Errorf("write run: %w", err)
	}
	w.off += int64(n + len(key))
	w.r.bf.Add(key)
	w.r.n++
	w.last = append(w.last[:0], key...)
	return nil
}

func (w *runWriter) finish() (*run, error) {
	if err := w.bw.Flush(); err != nil {
		w.abort()
		return nil, fmt.Errorf("write run: %w", err)
	}
	w.r.size = w.off
	return w.r, nil
}

func (w *runWriter) abort() {
	w.r.f.Close()
	os.Remove(w.r.path)
}

// contains tells whether key is in the run; locs are the key's Bloom
// locations (bloom.Locations with the run's k).
func (r *run) contains(key []byte, locs []uint64, buf *[]byte) (bool, error) {
	if !r.bf.TestLocations(locs) {
		return false, nil
	}
	i := sort.Search(len(r.first), func(i int) bool { return bytes.Compare(r.first[i], key) > 0 }) - 1
	if i < 0 {
		return false, nil
	}
	end := r.size
	if i+1 < len(r.offs) {
		end = r.offs[i+1]
	}
	n := int(end - r.offs[i])
	if cap(*buf) < n {
		*buf = make([]byte, n)
	}
	b := (*buf)[:n]
	if _, err := r.f.ReadAt(b, r.offs[i]); err != nil {
		return false, fmt.Errorf("read run %s: %w", r.path, err)
	}
	for len(b) > 0 {
		l, w := binary.Uvarint(b)
		if w <= 0 || int(l) > len(b)-w {
			return false, fmt.Errorf("read run %s: corrupt block at %d", r.path, r.offs[i])
		}
		k := b[w : w+int(l)]
		switch c := bytes.Compare(k, key); {
		case c == 0:
			return true, nil
		case c > 0:
			return false, nil
		}
		b = b[w+int(l):]
	}
	return false, nil
}

func (r *run) remove() error {
	err := r.f.Close()
	if rerr := os.Remove(r.path); err == nil {
		err = rerr
	}
	return err
}

// runCursor reads a run's keys in order.
type runCursor struct {
	br  *bufio.Reader
	key []byte
	err error
}

func (c *runCursor) next() bool {
	l, err := binary.ReadUvarint(c.br)
	if err != nil {
		if !errors.Is(err, io.EOF) {
			c.err = err
		}
		return false
	}
	if cap(c.key) < int(l) {
		c.key = make([]byte, l)
	}
	c.key = c.key[:l]
	if _, err := io.ReadFull(c.br, c.key); err != nil {
		c.err = err
		return false
	}
	return true
}

type cursorHeap []*runCursor

func (h cursorHeap) Len() int           { return len(h) }
func (h cursorHeap) Less(i, j int) bool { return bytes.Compare(h[i].key, h[j].key) < 0 }
func (h cursorHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *cursorHeap) Push(x any)        { *h = append(*h, x.(*runCursor)) }
func (h *cursorHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}

// mergeRuns writes the union of runs to a new run at path.
func mergeRuns(runs []*run, path string, fp float64) (*run, error) {
	total := 0
	for _, r := range runs {
		total += r.n
	}
	w, err := newRunWriter(path, total, fp)
	if err != nil {
		return nil, err
	}
	h := make(cursorHeap, 0, len(runs))
	for _, r := range runs {
		c := &runCursor{br: bufio.NewReaderSize(io.NewSectionReader(r.f, 0, r.size), 64<<10)}
		if c.next() {
			h = append(h, c)
		} else if c.err != nil {
			w.abort()
			return nil, fmt.Errorf("merge %s: %w", r.path, c.err)
		}
	}
	heap.Init(&h)
	for h.Len() > 0 {
		c := h[0]
		if w.last == nil || !bytes.Equal(c.key, w.last) {
			if err := w.add(c.key); err != nil {
				w.abort()
				return nil, err
			}
		}
		if c.next() {
			heap.Fix(&h, 0)
			continue
		}
		if c.err != nil {
			w.abort()
			return nil, fmt.Errorf("merge runs: %w", c.err)
		}
		heap.Pop(&h)
	}
	return w.finish()
}
