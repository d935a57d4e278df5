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
// Each table is a hash table of buckets keyed by the key bits; a bucket
// holds its entries' fingerprints next to their numbers, so a lookup reads
// a few contiguous cache lines per table (the locality Manku's sorted
// tables give) instead of chasing pointers. An entry costs 8 bytes plus
// 12 per table, and the tables grow as entries are added. Tables is not
// safe for concurrent use.
type Tables struct {
	k      int
	fps    []uint64
	tables []table
}

type table struct {
	mask    uint64 // the key's bits
	shift   uint   // 64 - log2(len(buckets))
	buckets []bucket
}

type bucket struct {
	fps []uint64
	ids []int32
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

const minBucketBits = 8

func newTable(mask uint64) table {
	return table{mask: mask, shift: 64 - minBucketBits, buckets: make([]bucket, 1<<minBucketBits)}
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
		if len(t.fps) > 4<<bitsNow && bitsNow < keyBits && bitsNow < 22 {
			tb.grow()
		}
		b := &tb.buckets[tb.bucket(fp)]
		b.fps = append(b.fps, fp)
		b.ids = append(b.ids, e)
	}
	return e
}

// grow doubles the buckets of tb and spreads the entries over them.
func (tb *table) grow() {
	old := tb.buckets
	n := 64 - tb.shift + 1
	tb.buckets = make([]bucket, 1<<n)
	tb.shift = 64 - n
	for _, ob := range old {
		for j, fp := range ob.fps {
			b := &tb.buckets[tb.bucket(fp)]
			b.fps = append(b.fps, fp)
			b.ids = append(b.ids, ob.ids[j])
		}
	}
}

// Near calls f for every entry within Hamming distance k of fp (k ≤ K()),
// each once, with its distance; f returns false to stop. Entries come
// table by table, oldest first within a table.
func (t *Tables) Near(fp uint64, k int, f func(e int32, dist int) bool) {
	if k > t.k {
		k = t.k
	}
	var seen []int32 // matches so far: few, so a slice beats a map
	for i := range t.tables {
		tb := &t.tables[i]
		key := fp & tb.mask
		b := &tb.buckets[tb.bucket(fp)]
	scan:
		for j, o := range b.fps {
			if o&tb.mask != key {
				continue
			}
			d := bits.OnesCount64(o ^ fp)
			if d > k {
				continue
			}
			e := b.ids[j]
			for _, s := range seen {
				if s == e {
					continue scan
				}
			}
			seen = append(seen, e)
			if !f(e, d) {
				return
			}
		}
	}
}
