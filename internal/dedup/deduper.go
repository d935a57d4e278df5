package dedup

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// Out is one record the Deduper lets go, in the order it decided them.
type Out struct {
	// Rec is the knowledge record: a kept copy, its Duplicates listing
	// the URLs folded into it, or a dropped copy with DuplicateOf set.
	Rec *record.Knowledge
	// Kept says Rec is a kept copy.
	Kept bool
	// Late marks a dropped copy whose kept copy was emitted before, in
	// this run or an earlier one (a knowledge base adds its URL to that
	// record's duplicates). Late records carry the whole record only when
	// Options.EmitDups is set; otherwise just URL and DuplicateOf.
	Late bool
	// Group is the group's number in the index.
	Group int32
}

// GroupRecord is what a Journal keeps of a group of copies: enough to
// find its copies again in a later run.
type GroupRecord struct {
	ID        int32
	URL       string // the kept copy's URL
	SimHashes []uint64
	Exact     []uint64
	URLKeys   []uint64
	Vectors   []Compact // --method euclid only
	// Parts are the leave-one-paragraph-out SimHashes of the kept
	// copies (Print.Parts).
	Parts []uint64
}

// Journal persists the groups of a Deduper (IndexFile is one).
type Journal interface {
	// Group records a group when it is emitted; groups come in ID order.
	Group(GroupRecord) error
	// Alias records more URL keys and exact-content hashes of an emitted
	// group (copies found after it was emitted).
	Alias(id int32, urlKeys, exact []uint64) error
}

// Stats counts what a Deduper decided.
type Stats struct {
	In, Kept, Dropped      int
	ByURL, ByExact, ByNear int
	// Earlier counts copies of groups restored from an earlier run.
	Earlier int
	// Replaced counts kept copies replaced by a better one in the window.
	Replaced int
	// LateBetter counts copies the policy prefers that came after their
	// group had been emitted: they were dropped, and a larger window (or
	// none) would have kept them.
	LateBetter int
}

type matchKind int

const (
	noMatch matchKind = iota
	byURL
	byExact
	byNear
)

// pending is a group still inside the window.
type pending struct {
	head    *Item
	start   int
	at      time.Time // when the group was opened
	folded  []string
	dropped []*Item
	gr      GroupRecord
}

// Deduper decides, in arrival order, which documents are copies of
// earlier ones. It is not safe for concurrent use.
type Deduper struct {
	opt     Options
	tables  *Tables
	vectors []Compact // per entry, euclid only
	entryG  []int32
	// partKey maps the parts (Print.Parts) of the kept copies to their
	// group. They are matched exactly, against a new text's whole
	// SimHash: a part is the SimHash of the text without one paragraph,
	// so a copy that only lacks that paragraph has it to the bit (on the
	// labelled corpus exact matching found 91 % of such copies, radius 3
	// in Manku's tables 97 %, at five times the memory: 1.4 GiB for
	// 1,000,000 docs of 8 paragraphs). Parts are never matched against
	// parts (two texts that each lost a different paragraph are two
	// edits apart).
	partKey map[uint64]int32
	// groupEntry is the first index entry of each group (-1: none), for
	// the TF-IDF vector of a group found through a part.
	groupEntry []int32

	urlKey   map[uint64]int32
	exactKey map[uint64]int32

	// Per group: the kept copy's URL (in arena once emitted) and
	// SimHash (noFP when its text was too short to have one).
	urlOff   []uint32
	urlLen   []uint32
	arena    []byte
	groupFP  []uint64
	groupHas []bool
	groupVal []float64 // the kept copy's policy value, once emitted
	restored int32

	pending map[int32]*pending
	queue   []int32
	seq     int
	now     func() time.Time
	journal Journal
	stats   Stats
}

// New returns a Deduper with options o writing its groups to j (nil: no
// journal).
func New(o Options, j Journal) (*Deduper, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	t, err := NewTables(o.radius())
	if err != nil {
		return nil, err
	}
	return &Deduper{opt: o, tables: t, urlKey: map[uint64]int32{}, exactKey: map[uint64]int32{}, partKey: map[uint64]int32{},
		pending: map[int32]*pending{}, journal: j, now: time.Now}, nil
}

// Stats returns the counts so far.
func (d *Deduper) Stats() Stats { return d.stats }

// Groups is the number of groups known, restored ones included.
func (d *Deduper) Groups() int { return len(d.groupFP) }

// Tables is the SimHash index (for its size and shape).
func (d *Deduper) Tables() *Tables { return d.tables }

// Restore adds a group from an earlier run. Groups must come in ID order
// before the first Add.
func (d *Deduper) Restore(g GroupRecord) error {
	if int(g.ID) != len(d.groupFP) {
		return fmt.Errorf("group %d restored out of order (expected %d)", g.ID, len(d.groupFP))
	}
	id := d.newGroup()
	d.setURL(id, g.URL)
	for i, fp := range g.SimHashes {
		var v Compact
		if i < len(g.Vectors) {
			v = g.Vectors[i]
		}
		if i == 0 {
			d.groupFP[id], d.groupHas[id] = fp, true
		}
		d.addEntry(id, fp, v)
	}
	for _, fp := range g.Parts {
		if _, ok := d.partKey[fp]; !ok {
			d.partKey[fp] = id
		}
	}
	for _, h := range g.Exact {
		d.exactKey[h] = id
	}
	for _, k := range g.URLKeys {
		d.urlKey[k] = id
	}
	d.restored = int32(len(d.groupFP))
	return nil
}

// RestoreAlias adds URL keys and exact hashes of a restored group.
func (d *Deduper) RestoreAlias(id int32, keys, exact []uint64) error {
	if id < 0 || int(id) >= len(d.groupFP) {
		return fmt.Errorf("alias of unknown group %d", id)
	}
	for _, k := range keys {
		d.urlKey[k] = id
	}
	for _, h := range exact {
		d.exactKey[h] = id
	}
	return nil
}

func (d *Deduper) newGroup() int32 {
	id := int32(len(d.groupFP))
	d.groupFP = append(d.groupFP, 0)
	d.groupHas = append(d.groupHas, false)
	d.groupEntry = append(d.groupEntry, -1)
	d.groupVal = append(d.groupVal, math.NaN())
	d.urlOff = append(d.urlOff, 0)
	d.urlLen = append(d.urlLen, 0)
	return id
}

func (d *Deduper) setURL(id int32, u string) {
	d.urlOff[id] = uint32(len(d.arena))
	d.urlLen[id] = uint32(len(u))
	d.arena = append(d.arena, u...)
}

// GroupURL is the URL of the kept copy of an emitted group.
func (d *Deduper) GroupURL(id int32) string {
	if p := d.pending[id]; p != nil {
		return p.head.Rec.URL
	}
	return string(d.arena[d.urlOff[id] : d.urlOff[id]+d.urlLen[id]])
}

func (d *Deduper) addEntry(g int32, fp uint64, v Compact) {
	if d.groupEntry[g] < 0 {
		d.groupEntry[g] = int32(len(d.entryG))
	}
	d.tables.Add(fp)
	d.entryG = append(d.entryG, g)
	if d.opt.Method == MethodEuclid {
		d.vectors = append(d.vectors, v)
	}
}

func (d *Deduper) hasPrint(it *Item) bool { return it.Print.Tokens >= d.opt.MinTokens }

// find returns the group it is a copy of, if any.
func (d *Deduper) find(it *Item) (int32, matchKind) {
	for i, k := range it.URLKeys {
		g, ok := d.urlKey[k]
		if !ok {
			continue
		}
		if i == it.CanonicalKey && d.hasPrint(it) && d.groupHas[g] &&
			Hamming(d.groupFP[g], it.Print.SimHash) > d.opt.CanonicalGuard {
			continue
		}
		return g, byURL
	}
	if it.Print.Exact != 0 {
		if g, ok := d.exactKey[it.Print.Exact]; ok {
			return g, byExact
		}
	}
	if !d.hasPrint(it) {
		return -1, noMatch
	}
	// The whole SimHash is looked up among the kept copies' whole
	// SimHashes, then among their parts (exactly: it lacks a paragraph of
	// a kept copy), then each part among the whole SimHashes (a kept copy
	// lacks one of its paragraphs); the first that finds a copy decides.
	best, bestD := int32(-1), 0.0
	for i := -1; i < len(it.Print.Parts) && best < 0; i++ {
		fp := it.Print.SimHash
		if i >= 0 {
			fp = it.Print.Parts[i]
		}
		if d.opt.Method == MethodEuclid {
			d.tables.Near(fp, d.opt.CandidateK, func(e int32, _ int) bool {
				if dist := Euclidean(it.Print.Vector, d.vectors[e]); dist <= d.opt.MaxDistance && (best < 0 || dist < bestD) {
					best, bestD = e, dist
				}
				return true
			})
		} else {
			d.tables.Near(fp, d.opt.K, func(e int32, dist int) bool {
				if best < 0 || float64(dist) < bestD {
					best, bestD = e, float64(dist)
				}
				return dist > 0
			})
		}
		if i < 0 && best < 0 {
			if g, ok := d.partKey[fp]; ok {
				e := d.groupEntry[g]
				if d.opt.Method != MethodEuclid {
					return g, byNear
				}
				if e >= 0 && Euclidean(it.Print.Vector, d.vectors[e]) <= d.opt.MaxDistance {
					return g, byNear
				}
			}
		}
	}
	if best < 0 {
		return -1, noMatch
	}
	return d.entryG[best], byNear
}

// Add decides the document it and appends to dst the records that leave
// the Deduper as a result: it itself when it is a copy of an emitted
// group, and the groups the window lets go.
func (d *Deduper) Add(dst []Out, it *Item) ([]Out, error) {
	d.seq++
	d.stats.In++
	g, how := d.find(it)
	switch how {
	case byURL:
		d.stats.ByURL++
	case byExact:
		d.stats.ByExact++
	case byNear:
		d.stats.ByNear++
	}
	var err error
	if g < 0 {
		d.start(it)
	} else if p := d.pending[g]; p != nil {
		d.join(g, p, it)
	} else {
		dst, err = d.late(dst, g, it)
		if err != nil {
			return dst, err
		}
	}
	if d.opt.Window >= 0 {
		for len(d.queue) > 0 {
			p := d.pending[d.queue[0]]
			if d.seq-p.start < d.opt.Window {
				break
			}
			if dst, err = d.emit(dst, d.queue[0]); err != nil {
				return dst, err
			}
			d.queue = d.queue[1:]
		}
	}
	return dst, nil
}

// Expire emits the groups opened before t, whatever the window: a stream
// that goes quiet still lets its records out (dedupe --max-hold).
func (d *Deduper) Expire(dst []Out, t time.Time) ([]Out, error) {
	var err error
	for len(d.queue) > 0 && d.pending[d.queue[0]].at.Before(t) {
		if dst, err = d.emit(dst, d.queue[0]); err != nil {
			return dst, err
		}
		d.queue = d.queue[1:]
	}
	return dst, nil
}

// Flush emits every group still in the window; call it at the end of
// the input.
func (d *Deduper) Flush(dst []Out) ([]Out, error) {
	var err error
	for len(d.queue) > 0 {
		if dst, err = d.emit(dst, d.queue[0]); err != nil {
			return dst, err
		}
		d.queue = d.queue[1:]
	}
	d.queue = nil
	return dst, nil
}

// start opens a new group with it as its kept copy.
func (d *Deduper) start(it *Item) {
	g := d.newGroup()
	p := &pending{head: it, start: d.seq, at: d.now(), gr: GroupRecord{ID: g}}
	d.pending[g] = p
	d.queue = append(d.queue, g)
	d.index(g, p, it, true)
}

// index registers the keys of it for group g; with head, also its
// fingerprint (copies are matched against kept copies only, so a chain of
// small changes cannot drift a group far from its text).
func (d *Deduper) index(g int32, p *pending, it *Item, head bool) {
	for _, k := range it.URLKeys {
		if _, ok := d.urlKey[k]; !ok {
			d.urlKey[k] = g
			p.gr.URLKeys = append(p.gr.URLKeys, k)
		}
	}
	if h := it.Print.Exact; h != 0 {
		if _, ok := d.exactKey[h]; !ok {
			d.exactKey[h] = g
			p.gr.Exact = append(p.gr.Exact, h)
		}
	}
	if head && d.hasPrint(it) {
		if !d.groupHas[g] {
			d.groupFP[g], d.groupHas[g] = it.Print.SimHash, true
		}
		d.addEntry(g, it.Print.SimHash, it.Print.Vector)
		p.gr.SimHashes = append(p.gr.SimHashes, it.Print.SimHash)
		for _, fp := range it.Print.Parts {
			if _, ok := d.partKey[fp]; !ok {
				d.partKey[fp] = g
			}
		}
		p.gr.Parts = append(p.gr.Parts, it.Print.Parts...)
		if d.opt.Method == MethodEuclid {
			p.gr.Vectors = append(p.gr.Vectors, it.Print.Vector)
		}
	}
}

// join adds it to the pending group g, as its new kept copy when the
// policy prefers it.
func (d *Deduper) join(g int32, p *pending, it *Item) {
	d.stats.Dropped++
	drop := it
	if d.opt.Keep.better(it, p.head) {
		drop, p.head = p.head, it
		d.stats.Replaced++
		d.index(g, p, it, true)
	} else {
		d.index(g, p, it, false)
	}
	p.folded = append(p.folded, drop.Rec.URL)
	p.folded = append(p.folded, drop.Rec.Duplicates...) // a knowledge record's own copies
	if d.opt.EmitDups {
		p.dropped = append(p.dropped, drop)
	}
}

// late drops it as a copy of the emitted group g.
func (d *Deduper) late(dst []Out, g int32, it *Item) ([]Out, error) {
	d.stats.Dropped++
	if g < d.restored {
		d.stats.Earlier++
	}
	if v := d.groupVal[g]; d.opt.Keep != KeepFirst && !math.IsNaN(v) && d.opt.Keep.value(it) > v {
		d.stats.LateBetter++
	}
	var keys []uint64
	for _, k := range it.URLKeys {
		if _, ok := d.urlKey[k]; !ok {
			d.urlKey[k] = g
			keys = append(keys, k)
		}
	}
	var exact []uint64
	if h := it.Print.Exact; h != 0 {
		if _, ok := d.exactKey[h]; !ok {
			d.exactKey[h] = g
			exact = []uint64{h}
		}
	}
	if (len(keys) > 0 || len(exact) > 0) && d.journal != nil {
		if err := d.journal.Alias(g, keys, exact); err != nil {
			return dst, err
		}
	}
	var r record.Knowledge
	if d.opt.EmitDups {
		r = it.Rec
	} else {
		r = record.Knowledge{URL: it.Rec.URL, Fingerprint: it.Rec.Fingerprint}
	}
	r.DuplicateOf = d.GroupURL(g)
	return append(dst, Out{Rec: &r, Late: true, Group: g}), nil
}

// emit lets the pending group g go.
func (d *Deduper) emit(dst []Out, g int32) ([]Out, error) {
	p := d.pending[g]
	delete(d.pending, g)
	d.stats.Kept++
	rec := p.head.Rec
	rec.Duplicates = append(slices.Clip(p.head.Rec.Duplicates), p.folded...)
	dst = append(dst, Out{Rec: &rec, Kept: true, Group: g})
	for _, it := range p.dropped {
		r := it.Rec
		r.DuplicateOf = rec.URL
		dst = append(dst, Out{Rec: &r, Group: g})
	}
	d.setURL(g, rec.URL)
	d.groupVal[g] = d.opt.Keep.value(p.head)
	if d.journal != nil {
		p.gr.URL = rec.URL
		if err := d.journal.Group(p.gr); err != nil {
			return dst, err
		}
	}
	return dst, nil
}
