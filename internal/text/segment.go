package text

import "github.com/focuscrawl/focuscrawl/internal/text/dictfile"

// pseudoDist is the path length gse gives a character that starts no
// dictionary word of one unit.
const pseudoDist float32 = 32

// jumper is gse's per-unit record of the shortest path ending at that
// unit: its length and the length in units of its last word.
type jumper struct {
	dist float32
	size int32
}

// update keeps the shorter of the jumper's path and base+d, the first one
// found on a tie, exactly as gse's updateJumper does.
func (j *jumper) update(base, d float32, size int) {
	nd := base + d
	if j.dist == 0 || j.dist > nd {
		j.dist = nd
		j.size = int32(size)
	}
}

// cut segments the units of s by gse's shortest-path algorithm (what
// gse's Cut(s) does without HMM) over the base dictionary zh, which may be
// nil, and the domain dictionary dom, whose words replace the base's
// entries for the same units. It returns the word boundaries as the index
// of the unit after each word, in order.
func cut(s string, units []unit, zh *dictfile.Trie, dom *domain, ends []int32) []int32 {
	n := len(units)
	if n == 0 {
		return ends
	}
	labels := make([]uint32, n)
	if zh != nil {
		for i, u := range units {
			if u.kind != unitWord {
				labels[i] = zh.Label(s[u.start:u.end])
			}
		}
	}
	var domDist []float32
	var domIDs []uint32
	if dom != nil && len(dom.nodes) > 1 {
		domDist = dom.dists(zh)
		domIDs = make([]uint32, n)
		for i, u := range units {
			domIDs[i] = dom.unitID(s[u.start:u.end])
		}
	}
	jumpers := shortestPaths(labels, domIDs, zh, dom, domDist, false)
	// Walk back from the end, then reverse.
	start := len(ends)
	for i := n - 1; i >= 0; i -= int(jumpers[i].size) {
		ends = append(ends, int32(i+1))
	}
	for a, b := start, len(ends)-1; a < b; a, b = a+1, b-1 {
		ends[a], ends[b] = ends[b], ends[a]
	}
	return ends
}

// shortestPaths is the dynamic programme of gse's shortest-path cut:
// jumpers[i] holds the cost of the cheapest cut of units 0..i and the size
// of its last word. A unit no word of length one covers costs pseudoDist
// alone. With split, the word made of all the units is left out, which
// gives the cheapest cut of a word into smaller ones (splitDist).
func shortestPaths(labels, domIDs []uint32, zh *dictfile.Trie, dom *domain, domDist []float32, split bool) []jumper {
	n := len(labels)
	jumpers := make([]jumper, n)
	var found []match
	for cur := 0; cur < n; cur++ {
		var base float32
		if cur > 0 {
			base = jumpers[cur-1].dist
		}
		found = lookup(found[:0], labels, domIDs, cur, zh, dom, domDist)
		for _, m := range found {
			if split && cur == 0 && m.size == n {
				continue // the word itself
			}
			jumpers[cur+m.size-1].update(base, m.dist, m.size)
		}
		if len(found) == 0 || found[0].size > 1 { // shortest first: no one-unit word
			jumpers[cur].update(base, pseudoDist, 1)
		}
	}
	return jumpers
}

// match is a dictionary word starting at the current unit.
type match struct {
	size int // in units
	dist float32
}

// lookup appends the words starting at unit cur, shortest first. A domain
// word replaces a base word over the same units.
func lookup(dst []match, labels, domIDs []uint32, cur int,
	zh *dictfile.Trie, dom *domain, domDist []float32) []match {
	var node uint32
	zhLive := zh != nil
	domNode := int32(0)
	domLive := domDist != nil && domIDs[cur] != 0
	for k := cur; k < len(labels) && (zhLive || domLive); k++ {
		var d float32
		if zhLive {
			node = zh.Child(node, labels[k])
			if node == 0 {
				zhLive = false
			} else {
				d = zh.Dist(node)
			}
		}
		if domLive {
			domNode = dom.child(domNode, domIDs[k])
			if domNode < 0 {
				domLive = false
			} else if dd := domDist[domNode]; dd > 0 {
				d = dd
			}
		}
		if d > 0 {
			dst = append(dst, match{size: k - cur + 1, dist: d})
		}
	}
	return dst
}
