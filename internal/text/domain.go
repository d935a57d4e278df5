package text

import (
	"sync"
	"unicode/utf8"

	"github.com/focuscrawl/focuscrawl/internal/text/dictfile"
)

// domainDist is the most a domain word costs on a shortest path: 10 bits,
// the price of the most common Chinese words (我们 9.1, 这个 9.8), so that
// domain words are strongly preferred. A word the dictionary already
// prices lower keeps its price, and every word of two or more units costs
// at least a bit less than the cheapest way to cut it into pieces of
// itself, so it is never split where it occurs; a cheaper path through its
// neighbours can still win (适宜|林地 over 适|宜林地).
const domainDist float32 = 10

// domain is a small trie of the profile's dictionary words, keyed by the
// text of each unit.
type domain struct {
	nodes []domainNode
	ids   map[string]uint32 // unit text → unit id (from 1)
	// runes has bit r&0xFFFF set for every one-rune unit in ids: most
	// units of a text are in no domain word, and this rejects them
	// without hashing.
	runes [1024]uint64
	edges map[uint64]int32 // parent<<32 | unit id → child
	words []domainWord
	// latin reports whether some word starts with a unit that is not CJK,
	// so text without CJK characters still needs the shortest-path cut.
	latin bool

	// zhDist holds each node's cost against the Chinese dictionary,
	// computed once, at the first CJK text (see withChinese).
	zhOnce sync.Once
	zhDist []float32
	// plain holds each node's cost when the Chinese dictionary is not
	// used (text without CJK characters).
	plain []float32
}

type domainNode struct {
	dist float32 // cost without the Chinese dictionary; 0: not a word
}

type domainWord struct {
	text  string
	units []unit
	node  int32
}

// newDomain builds the trie of words, each already normalised. Words of
// one unit that is not CJK are left out: they come out whole anyway.
func newDomain(words []string) *domain {
	d := &domain{nodes: make([]domainNode, 1), ids: map[string]uint32{}, edges: map[uint64]int32{}}
	for _, w := range words {
		units := splitUnits(nil, w)
		if len(units) == 0 || len(units) == 1 && units[0].kind != unitCJK || !hasWordRune(w) {
			continue
		}
		node := int32(0)
		for _, u := range units {
			id, ok := d.ids[w[u.start:u.end]]
			if !ok {
				id = uint32(len(d.ids) + 1)
				d.ids[w[u.start:u.end]] = id
				if r, size := utf8.DecodeRuneInString(w[u.start:u.end]); size == u.end-u.start {
					d.runes[(r&0xFFFF)>>6] |= 1 << (r & 63)
				}
			}
			e := uint64(node)<<32 | uint64(id)
			c, ok := d.edges[e]
			if !ok {
				c = int32(len(d.nodes))
				d.nodes = append(d.nodes, domainNode{})
				d.edges[e] = c
			}
			node = c
		}
		if d.nodes[node].dist == 0 {
			d.words = append(d.words, domainWord{text: w, units: units, node: node})
		}
		d.nodes[node].dist = domainDist
		if units[0].kind != unitCJK {
			d.latin = true
		}
	}
	d.plain = make([]float32, len(d.nodes))
	for i, n := range d.nodes {
		d.plain[i] = n.dist
	}
	return d
}

// dists returns the cost of each node: against zh when it is not nil.
func (d *domain) dists(zh *dictfile.Trie) []float32 {
	if zh == nil {
		return d.plain
	}
	d.zhOnce.Do(func() {
		out := make([]float32, len(d.nodes))
		for _, w := range d.words {
			c := domainDist
			if b := wordDist(w.text, w.units, zh); b > 0 && b < c {
				c = b
			}
			if len(w.units) > 1 {
				if s := splitDist(w.text, w.units, zh); s-1 < c {
					c = s - 1
				}
			}
			if !(c > 0) {
				c = 1.0 / 1024
			}
			out[w.node] = c
		}
		d.zhDist = out
	})
	return d.zhDist
}

// unitID returns the id of a unit's text, or 0 when no domain word has it.
func (d *domain) unitID(unit string) uint32 {
	if r, size := utf8.DecodeRuneInString(unit); size == len(unit) && d.runes[(r&0xFFFF)>>6]&(1<<(r&63)) == 0 {
		return 0
	}
	return d.ids[unit]
}

// child returns the node below parent along the unit with id, or -1.
func (d *domain) child(parent int32, id uint32) int32 {
	if id == 0 {
		return -1
	}
	if c, ok := d.edges[uint64(parent)<<32|uint64(id)]; ok {
		return c
	}
	return -1
}

// wordDist returns the dictionary's cost of the whole word, or 0.
func wordDist(s string, units []unit, zh *dictfile.Trie) float32 {
	var node uint32
	for _, u := range units {
		if node = zh.Child(node, zh.Label(s[u.start:u.end])); node == 0 {
			return 0
		}
	}
	return zh.Dist(node)
}

// splitDist returns the cost of the cheapest cut of a word's units into
// two or more pieces, by the same rules as cut.
func splitDist(s string, units []unit, zh *dictfile.Trie) float32 {
	n := len(units)
	labels := make([]uint32, n)
	for i, u := range units {
		labels[i] = zh.Label(s[u.start:u.end])
	}
	return shortestPaths(labels, nil, zh, nil, nil, true)[n-1].dist
}
