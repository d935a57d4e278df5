package seenset

import (
	"bytes"
	"encoding/binary"
	"iter"
	"slices"

	"github.com/cespare/xxhash/v2"
)

const (
	chunkBits = 20 // arena chunks of 1 MiB
	chunkSize = 1 << chunkBits
	offBits   = 44 // low bits of a slot: arena offset + 1
	offMask   = 1<<offBits - 1
)

// memSet is an exact set of byte strings with no pointers for the garbage
// collector to chase: keys sit length-prefixed in 1 MiB arena chunks and
// the table holds, per slot, 20 bits of the key's hash and its arena
// offset + 1 (0 marks an empty slot), the offset being the chunk's index
// << chunkBits | the position in the chunk. Chunks are reused after reset.
type memSet struct {
	chunkCap int // capacity of an arena chunk, at most chunkSize
	chunks   [][]byte
	used     int // chunks in use; chunks[used-1] is being filled
	table    []uint64
	n        int
}

// newMemSet sizes the arena chunks to a sixteenth of the budget (4 KiB to
// 1 MiB), so that small budgets still hold many keys.
func newMemSet(budget int64) *memSet {
	c := int(min(max(budget/16, 4<<10), chunkSize))
	return &memSet{chunkCap: c, table: make([]uint64, 1<<10)}
}

// bytes is the memory the set holds.
func (m *memSet) bytes() int64 {
	var b int64
	for _, c := range m.chunks {
		b += int64(cap(c))
	}
	return b + int64(len(m.table))*8
}

// growCost is the memory the next insertion may add: a chunk and, when the
// table is due to double, the new table.
func (m *memSet) growCost(keyLen int) int64 {
	var c int64
	if (m.n+1)*4 > len(m.table)*3 {
		c += int64(len(m.table)) * 16
	}
	if m.used == 0 || len(m.chunks[m.used-1])+keyLen+binary.MaxVarintLen32 > cap(m.chunks[m.used-1]) {
		if m.used >= len(m.chunks) {
			c += int64(max(m.chunkCap, keyLen+binary.MaxVarintLen32))
		}
	}
	return c
}

func (m *memSet) key(slot uint64) []byte {
	off := slot&offMask - 1
	c := m.chunks[off>>chunkBits]
	pos := off & (chunkSize - 1)
	n, w := binary.Uvarint(c[pos:])
	start := int(pos) + w
	return c[start : start+int(n)]
}

// find returns the table index holding key, or the empty index where it
// would go, and whether it was found.
func (m *memSet) find(key []byte, h uint64) (int, bool) {
	mask := uint64(len(m.table) - 1)
	tag := h >> offBits
	for i := h & mask; ; i = (i + 1) & mask {
		s := m.table[i]
		if s == 0 {
			return int(i), false
		}
		if s>>offBits == tag && bytes.Equal(m.key(s), key) {
			return int(i), true
		}
	}
}

func (m *memSet) contains(key []byte) bool {
	_, ok := m.find(key, xxhash.Sum64(key))
	return ok
}

// insert adds a key known to be absent.
func (m *memSet) insert(key []byte) {
	if (m.n+1)*4 > len(m.table)*3 {
		m.rehash(len(m.table) * 2)
	}
	h := xxhash.Sum64(key)
	i, _ := m.find(key, h)
	off := m.append(key)
	m.table[i] = h>>offBits<<offBits | (off + 1)
	m.n++
}

// append stores key in the arena and returns its offset.
func (m *memSet) append(key []byte) uint64 {
	need := len(key) + binary.MaxVarintLen32
	if m.used == 0 || len(m.chunks[m.used-1])+need > cap(m.chunks[m.used-1]) {
		switch {
		case need > m.chunkCap:
			// A key bigger than a chunk gets a chunk of its own, which
			// is not kept for reuse.
			m.chunks = slices.Insert(m.chunks, m.used, make([]byte, 0, need))
		case m.used == len(m.chunks):
			m.chunks = append(m.chunks, make([]byte, 0, m.chunkCap))
		}
		m.used++
	}
	ci := m.used - 1
	c := m.chunks[ci]
	off := uint64(ci)<<chunkBits | uint64(len(c))
	c = binary.AppendUvarint(c, uint64(len(key)))
	m.chunks[ci] = append(c, key...)
	return off
}

func (m *memSet) rehash(size int) {
	old := m.table
	m.table = make([]uint64, size)
	mask := uint64(size - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		h := xxhash.Sum64(m.key(s))
		i := h & mask
		for m.table[i] != 0 {
			i = (i + 1) & mask
		}
		m.table[i] = s
	}
}

// sorted returns the keys in order. It sorts the table's slots in place
// (the set must be reset afterwards), so a spill allocates nothing; the
// slices point into the arena and are valid until reset.
func (m *memSet) sorted() iter.Seq[[]byte] {
	slots := m.table[:0]
	for _, s := range m.table {
		if s != 0 {
			slots = append(slots, s)
		}
	}
	clear(m.table[len(slots):])
	slices.SortFunc(slots, func(a, b uint64) int { return bytes.Compare(m.key(a), m.key(b)) })
	return func(yield func([]byte) bool) {
		for _, s := range slots {
			if !yield(m.key(s)) {
				return
			}
		}
	}
}

// reset empties the set, keeping its chunks (but not oversized ones) and
// its table for reuse.
func (m *memSet) reset() {
	kept := m.chunks[:0]
	for _, c := range m.chunks {
		if cap(c) == m.chunkCap {
			kept = append(kept, c[:0])
		}
	}
	clear(m.chunks[len(kept):])
	m.chunks = kept
	m.used = 0
	clear(m.table)
	m.n = 0
}
