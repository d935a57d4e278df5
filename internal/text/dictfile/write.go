package dictfile

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"unicode/utf8"
)

// magic starts every dictionary file; the byte after it is the version.
const (
	magic   = "FCZD"
	version = 1
)

// firstMultiLabel is the label of the first multi-rune unit: labels below
// it are the rune of a one-rune unit.
const firstMultiLabel = utf8.MaxRune + 1

// Entry is one dictionary word: its units, in order, and its frequency.
type Entry struct {
	Units []string
	Freq  uint64
}

// ErrFormat is wrapped by every error about a malformed dictionary file.
var ErrFormat = errors.New("dictfile: malformed dictionary")

type buildNode struct {
	freq     uint64
	children map[uint32]*buildNode
}

// Write encodes entries as a dictionary whose path lengths are computed
// against total, the dictionary's total frequency (gse's TotalFreq, which
// may include words that are not written). A word that occurs twice keeps
// its first frequency, as gse's AddToken does.
func Write(w io.Writer, total float64, entries []Entry) error {
	if total <= 0 || math.IsInf(total, 0) || math.IsNaN(total) {
		return fmt.Errorf("dictfile: total frequency %v: must be positive", total)
	}
	multi := map[string]uint32{}
	var multiList []string
	label := func(u string) (uint32, error) {
		if u == "" {
			return 0, errors.New("empty unit")
		}
		if r, size := utf8.DecodeRuneInString(u); size == len(u) {
			if r == utf8.RuneError || r == 0 {
				return 0, fmt.Errorf("unit %q: invalid rune", u)
			}
			return uint32(r), nil
		}
		if id, ok := multi[u]; ok {
			return id, nil
		}
		id := firstMultiLabel + uint32(len(multiList))
		multi[u] = id
		multiList = append(multiList, u)
		return id, nil
	}

	root := &buildNode{}
	for i, e := range entries {
		if len(e.Units) == 0 || e.Freq == 0 {
			return fmt.Errorf("dictfile: entry %d %q: no units or zero frequency", i, e.Units)
		}
		n := root
		for _, u := range e.Units {
			l, err := label(u)
			if err != nil {
				return fmt.Errorf("dictfile: entry %d: %w", i, err)
			}
			if n.children == nil {
				n.children = map[uint32]*buildNode{}
			}
			c := n.children[l]
			if c == nil {
				c = &buildNode{}
				n.children[l] = c
			}
			n = c
		}
		if n.freq == 0 {
			n.freq = e.Freq
		}
	}

	bw := bufio.NewWriter(w)
	var buf [binary.MaxVarintLen64]byte
	putU := func(v uint64) {
		k := binary.PutUvarint(buf[:], v)
		bw.Write(buf[:k])
	}
	bw.WriteString(magic)
	bw.WriteByte(version)
	binary.LittleEndian.PutUint64(buf[:8], math.Float64bits(total))
	bw.Write(buf[:8])
	putU(uint64(len(multiList)))
	for _, s := range multiList {
		putU(uint64(len(s)))
		bw.WriteString(s)
	}

	// Breadth-first, children sorted by label: the children of every node
	// are then consecutive, and a reader finds them by counting.
	queue := []*buildNode{root}
	count := 0
	for i := 0; i < len(queue); i++ {
		count += len(queue[i].children)
		for _, c := range queue[i].children {
			queue = append(queue, c)
		}
	}
	putU(uint64(count + 1))
	queue = queue[:1]
	for i := 0; i < len(queue); i++ {
		n := queue[i]
		labels := make([]uint32, 0, len(n.children))
		for l := range n.children {
			labels = append(labels, l)
		}
		sort.Slice(labels, func(a, b int) bool { return labels[a] < labels[b] })
		putU(n.freq)
		putU(uint64(len(labels)))
		prev := uint32(0)
		for _, l := range labels {
			putU(uint64(l - prev))
			prev = l
			queue = append(queue, n.children[l])
		}
	}
	return bw.Flush()
}
