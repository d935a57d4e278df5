package text

// domainDist is the path length of a domain word: one bit, less than any
// two dictionary words (the most frequent multi-character word of gse's zh
// dictionary costs over 5), so a domain word is never split into pieces of
// itself and wins ties against overlapping ordinary words.
const domainDist float32 = 1

// domain is a small trie of the profile's dictionary words, keyed by the
// text of each unit.
type domain struct {
	nodes []domainNode
	edges map[domainEdge]int32
	// latin reports whether some word starts with a unit that is not CJK,
	// so text without CJK characters still needs the shortest-path cut.
	latin bool
}

type domainNode struct{ dist float32 }

type domainEdge struct {
	parent int32
	unit   string
}

// newDomain builds the trie of words, each already normalised. Words of
// one unit that is not CJK are left out: they come out whole anyway.
func newDomain(words []string) *domain {
	d := &domain{nodes: make([]domainNode, 1), edges: map[domainEdge]int32{}}
	var units []unit
	for _, w := range words {
		units = splitUnits(units[:0], w)
		if len(units) == 0 || len(units) == 1 && units[0].kind != unitCJK {
			continue
		}
		if !hasWordRune(w) {
			continue
		}
		node := int32(0)
		for _, u := range units {
			e := domainEdge{parent: node, unit: w[u.start:u.end]}
			c, ok := d.edges[e]
			if !ok {
				c = int32(len(d.nodes))
				d.nodes = append(d.nodes, domainNode{})
				d.edges[e] = c
			}
			node = c
		}
		d.nodes[node].dist = domainDist
		if units[0].kind != unitCJK {
			d.latin = true
		}
	}
	return d
}

// child returns the node below parent along unit, or -1.
func (d *domain) child(parent int32, unit string) int32 {
	if c, ok := d.edges[domainEdge{parent: parent, unit: unit}]; ok {
		return c
	}
	return -1
}
