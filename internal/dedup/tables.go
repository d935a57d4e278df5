package dedup

import (
	"fmt"
	"math/bits"
)

// MaxK is the largest Hamming radius Tables serves: beyond it the number
// of tables needed for keys of useful width grows too fast (45 tables at
// k = 8).
const MaxK = 8

// Tables is the multi-table permuted index of Manku et al. (2007) over
// 64-bit fingerprints, for queries "every fingerprint within Hamming
// distance k". The 64 bits are cut into b = k + m blocks; each of the
// C(b, m) tables is keyed on a different choice of m blocks. Two
// fingerprints that differ in at most k bits differ in at most k blocks,
// so at least m blocks agree and the pair meets in the table keyed on
// them: a query visits one bucket per table, never the whole index.
// m is 1 for k ≤ 3 (k+1 tables keyed on 16 bits or more) and 2 above
// (keys of 12.8 bits or more).
//
// Each table is a hash table of chains through the entries (heads and
// next arrays of int32), so an entry costs 8 bytes plus 4 per table. The
// tables grow as entries are added. Tables is not safe for concurrent use.
type Tables struct {
	k      int
	fps    []uint64
	tables []table
}

type table struct {
	mask  uint64 // the key's bits
	shift uint   // 64 - log2(len(heads))
	heads []int32
	next  []int32
}

// NewTables returns an empty index for queries up to Hamming distance k
// (0 ≤ k ≤ MaxK).
func NewTables(k int) (*Tables, error) {
	if k < 0 || k > MaxK {
		return nil, fmt.Errorf("Hamming radius %d is out of range 0..%d", k, MaxK)
	}
	m := 1
	if k > 3 {
		m = 2
	}
	b := k + m
	// Block i covers bits [start[i], start[i+1]).
	start := make([]int, b+1)
	for i := 0; i <= b; i++ {
		start[i] = i * 64 / b
	}
	block := func(i int) uint64 {
		n := start[i+1] - start[i]
		if n == 64 {
			return ^uint64(0)
		}
		return (uint64(1)<<n - 1) << start[i]
	}
	t := &Tables{k: k}
	var choose func(from, left int, mask uint64)
	choose = func(from, left int, mask uint64) {
		if left == 0 {
			t.tables = append(t.tables, newTable(mask))
			return
		}
		for i := from; i <= b-left; i++ {
			choose(i+1, left-1, mask|block(i))
		}
	}
	choose(0, m, 0)
	return t, nil
}

const minHeadBits = 8

func newTable(mask uint64) table {
	return table{mask: mask, shift: 64 - minHeadBits, heads: newHeads(minHeadBits)}
}

func newHeads(n uint) []int32 {
	h := make([]int32, 1<<n)
	for i := range h {
		h[i] = -1
	}
	return h
}

// K is the largest radius the index answers.
func (t *Tables) K() int { return t.k }

// NumTables is the number of tables.
func (t *Tables) NumTables() int { return len(t.tables) }

// Len is the number of entries.
func (t *Tables) Len() int { return len(t.fps) }

// Fingerprint returns the fingerprint of entry e.
func (t *Tables) Fingerprint(e int32) uint64 { return t.fps[e] }

func (tb *table) bucket(fp uint64) int {
	return int(mix(fp&tb.mask) >> tb.shift)
}

// Add indexes fp and returns its entry number (0, 1, 2, … in order).
func (t *Tables) Add(fp uint64) int32 {
	e := int32(len(t.fps))
	t.fps = append(t.fps, fp)
	for i := range t.tables {
		tb := &t.tables[i]
		bitsNow := 64 - tb.shift
		keyBits := uint(bits.OnesCount64(tb.mask))
		if len(t.fps) > 2<<bitsNow && bitsNow < keyBits && bitsNow < 24 {
			tb.grow(t.fps)
		}
		b := tb.bucket(fp)
		tb.next = append(tb.next, tb.heads[b])
		tb.heads[b] = e
	}
	return e
}

// grow doubles the heads of tb and rechains every entry.
func (tb *table) grow(fps []uint64) {
	n := 64 - tb.shift + 1
	tb.heads = newHeads(n)
	tb.shift = 64 - n
	// Rechain in entry order so chains stay newest first.
	for e := range tb.next {
		b := tb.bucket(fps[e])
		tb.next[e] = tb.heads[b]
		tb.heads[b] = int32(e)
	}
}

// Near calls f for every entry within Hamming distance k of fp (k ≤ K()),
// each once, with its distance; f returns false to stop. Entries come
// table by table, newest first within a table.
func (t *Tables) Near(fp uint64, k int, f func(e int32, dist int) bool) {
	if k > t.k {
		k = t.k
	}
	var seen []int32 // matches so far: few, so a slice beats a map
	for i := range t.tables {
		tb := &t.tables[i]
		key := fp & tb.mask
	chain:
		for e := tb.heads[tb.bucket(fp)]; e >= 0; e = tb.next[e] {
			o := t.fps[e]
			if o&tb.mask != key {
				continue
			}
			d := bits.OnesCount64(o ^ fp)
			if d > k {
				continue
			}
			for _, s := range seen {
				if s == e {
					continue chain
				}
			}
			seen = append(seen, e)
			if !f(e, d) {
				return
			}
		}
	}
}
