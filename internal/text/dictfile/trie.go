package dictfile

import (
	"encoding/binary"
	"fmt"
	"math"
	"unicode/utf8"
)

// Trie is a read-only dictionary. Node 0 is the root; a node is a word
// when Dist reports a positive path length. Safe for concurrent use.
type Trie struct {
	total    float64
	first    []uint32  // children of node n are first[n] … first[n+1]-1
	label    []uint32  // label of the edge into node n
	dist     []float32 // path length of the word ending at node n, 0 if none
	rootBMP  []uint32  // root child by rune for the Basic Multilingual Plane
	multi    map[string]uint32
	words    int
	maxDepth int
}

// Read decodes a dictionary written by Write. data is not retained.
func Read(data []byte) (*Trie, error) {
	r := reader{b: data}
	if len(data) < len(magic)+1+8 || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: bad magic", ErrFormat)
	}
	if v := data[len(magic)]; v != version {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrFormat, v, version)
	}
	r.p = len(magic) + 1
	t := &Trie{total: math.Float64frombits(binary.LittleEndian.Uint64(data[r.p:]))}
	r.p += 8
	if !(t.total > 0) || math.IsInf(t.total, 0) {
		return nil, fmt.Errorf("%w: total frequency %v", ErrFormat, t.total)
	}
	nMulti := r.uvarint()
	if nMulti > uint64(len(data)) {
		return nil, fmt.Errorf("%w: %d multi-rune units", ErrFormat, nMulti)
	}
	t.multi = make(map[string]uint32, nMulti)
	for i := uint64(0); i < nMulti && r.err == nil; i++ {
		s := r.bytes(r.uvarint())
		t.multi[string(s)] = firstMultiLabel + uint32(i)
	}
	n := r.uvarint()
	if r.err != nil || n == 0 || n > uint64(len(data)) {
		return nil, fmt.Errorf("%w: node count %d", ErrFormat, n)
	}
	t.first = make([]uint32, n+1)
	t.label = make([]uint32, n)
	t.dist = make([]float32, n)
	depth := make([]uint16, n)
	// Path lengths exactly as gse's CalcToken computes them, in float32.
	logTotal := float32(math.Log2(t.total))
	next := uint64(1)
	for i := uint64(0); i < n; i++ {
		freq := r.uvarint()
		if freq > 0 {
			t.dist[i] = logTotal - float32(math.Log2(float64(freq)))
			if !(t.dist[i] > 0) {
				return nil, fmt.Errorf("%w: node %d frequency %d not below total", ErrFormat, i, freq)
			}
			t.words++
		}
		kids := r.uvarint()
		if r.err != nil || kids > n-next {
			return nil, fmt.Errorf("%w: node %d has %d children", ErrFormat, i, kids)
		}
		t.first[i] = uint32(next)
		l := uint64(0)
		for k := uint64(0); k < kids; k++ {
			d := r.uvarint()
			if k > 0 && d == 0 {
				return nil, fmt.Errorf("%w: node %d: repeated label", ErrFormat, i)
			}
			l += d
			if l > math.MaxUint32 {
				return nil, fmt.Errorf("%w: node %d: label overflow", ErrFormat, i)
			}
			t.label[next+k] = uint32(l)
			depth[next+k] = depth[i] + 1
			if int(depth[next+k]) > t.maxDepth {
				t.maxDepth = int(depth[next+k])
			}
		}
		next += kids
	}
	if r.err != nil {
		return nil, r.err
	}
	if next != n {
		return nil, fmt.Errorf("%w: %d nodes declared, %d linked", ErrFormat, n, next)
	}
	if r.p != len(data) {
		return nil, fmt.Errorf("%w: %d trailing bytes", ErrFormat, len(data)-r.p)
	}
	t.first[n] = uint32(n)
	t.rootBMP = make([]uint32, 0x10000)
	for c := t.first[0]; c < t.first[1]; c++ {
		if l := t.label[c]; l < 0x10000 {
			t.rootBMP[l] = c
		}
	}
	return t, nil
}

// Label returns the edge label of a unit (one rune, or a run of Latin
// letters and digits), or 0 when no word of the dictionary contains it.
func (t *Trie) Label(unit string) uint32 {
	r, size := utf8.DecodeRuneInString(unit)
	if size == len(unit) {
		if r == utf8.RuneError {
			return 0
		}
		return uint32(r)
	}
	return t.multi[unit]
}

// Child returns the child of node along label, or 0 when there is none.
func (t *Trie) Child(node, label uint32) uint32 {
	if label == 0 {
		return 0
	}
	if node == 0 && label < 0x10000 {
		return t.rootBMP[label]
	}
	lo, hi := t.first[node], t.first[node+1]
	for lo < hi {
		m := lo + (hi-lo)/2
		switch l := t.label[m]; {
		case l == label:
			return m
		case l < label:
			lo = m + 1
		default:
			hi = m
		}
	}
	return 0
}

// Dist returns the path length of the word ending at node, log2(total
// frequency / word frequency) as gse computes it, or 0 when the node ends
// no word.
func (t *Trie) Dist(node uint32) float32 { return t.dist[node] }

// Total returns the dictionary's total frequency.
func (t *Trie) Total() float64 { return t.total }

// Words returns the number of words in the dictionary.
func (t *Trie) Words() int { return t.words }

// Nodes returns the number of trie nodes, the root included.
func (t *Trie) Nodes() int { return len(t.label) }

// MaxDepth returns the length in units of the longest word.
func (t *Trie) MaxDepth() int { return t.maxDepth }

type reader struct {
	b   []byte
	p   int
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, k := binary.Uvarint(r.b[r.p:])
	if k <= 0 {
		r.err = fmt.Errorf("%w: bad varint at byte %d", ErrFormat, r.p)
		return 0
	}
	r.p += k
	return v
}

func (r *reader) bytes(n uint64) []byte {
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)-r.p) {
		r.err = fmt.Errorf("%w: string of %d bytes at byte %d overruns", ErrFormat, n, r.p)
		return nil
	}
	s := r.b[r.p : r.p+int(n)]
	r.p += int(n)
	return s
}
