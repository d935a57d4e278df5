package siteverify

import (
	"math"
	"sort"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// candidate is a queued page of the site being verified.
type candidate struct {
	u     record.URL
	class *class
	// from is the score of the page the link was found on (for input
	// URLs: the start page's).
	from  float64
	order int
}

// class is an AbstractURL equivalence class A_k = E_k ∪ Q_k.
type class struct {
	name  string
	order int // when the class was first seen
	// sum and expanded give H(A_k) = sum / expanded over E_k.
	sum      float64
	expanded int
	// failures counts the pages of the class that could not be judged
	// (errors, non-2xx answers, off-site redirects): they cost a fetch
	// but say nothing of the class's content, so they stay out of H,
	// until a class has only failed, twice: then it is taken as broken.
	failures int
	queue    []*candidate
	// What the priors need: the score of the page holding the first
	// link, the best, and the sum and count of the linking pages.
	first, best float64
	parentSum   float64
	parents     int
}

// h is H(A_k): the mean score of the expanded pages, or the prior.
func (c *class) h(p Prior) float64 {
	if c.expanded > 0 {
		return c.sum / float64(c.expanded)
	}
	if c.failures >= brokenAfter {
		return 0
	}
	switch p.Kind {
	case PriorBestParent:
		return c.best
	case PriorMeanParent:
		if c.parents == 0 {
			return 0
		}
		return c.parentSum / float64(c.parents)
	case PriorConstant:
		return p.Value
	}
	return c.first
}

// tieEps is how close two values of H are to tie: a mean of scores and
// the prior it started from differ in their last bits.
const tieEps = 1e-9

// brokenAfter is the number of failed pages after which a class with no
// judged page counts as H = 0.
const brokenAfter = 2

// frontier holds the classes of one site and picks the next page.
type frontier struct {
	bfs   bool
	prior Prior
	// threshold is the page threshold: a class whose mean reached it is
	// proven, and comes before every class that has only its prior.
	threshold float64
	classes   map[string]*class
	ordered   []*class     // in order of first sight
	fifo      []*candidate // every candidate in order found (bfs)
	queued    int
	n         int // candidates ever queued, for their order
	// linkers remembers which (page, class) pairs were counted for the
	// mean-parent prior, so a page with many links into one class
	// counts once.
	linkers map[linker]bool
}

type linker struct {
	page  string
	class *class
}

func newFrontier(bfs bool, prior Prior, threshold float64) *frontier {
	return &frontier{bfs: bfs, prior: prior, threshold: threshold, classes: map[string]*class{}, linkers: map[linker]bool{}}
}

// classOf returns the class named name, creating it.
func (f *frontier) classOf(name string) *class {
	c := f.classes[name]
	if c == nil {
		c = &class{name: name, order: len(f.ordered)}
		f.classes[name] = c
		f.ordered = append(f.ordered, c)
	}
	return c
}

// push queues u in class name; from is the score of the page it was found
// on, whose URL is parent.
func (f *frontier) push(u record.URL, name string, from float64, parent string) {
	c := f.classOf(name)
	if len(c.queue) == 0 && c.expanded == 0 && c.parents == 0 {
		c.first, c.best = from, from
	}
	if from > c.best {
		c.best = from
	}
	if k := (linker{parent, c}); !f.linkers[k] {
		f.linkers[k] = true
		c.parentSum += from
		c.parents++
	}
	cd := &candidate{u: u, class: c, from: from, order: f.n}
	f.n++
	c.queue = append(c.queue, cd)
	f.queued++
	if f.bfs {
		f.fifo = append(f.fifo, cd)
	}
}

// expand records the score of a fetched page of class name.
func (f *frontier) expand(name string, score float64) {
	c := f.classOf(name)
	c.sum += score
	c.expanded++
}

// failed records a fetched page of class name that could not be judged.
func (f *frontier) failed(name string) {
	f.classOf(name).failures++
}

// next removes and returns the page to fetch next, or nil when nothing is
// queued.
func (f *frontier) next() *candidate {
	if f.queued == 0 {
		return nil
	}
	var cd *candidate
	if f.bfs {
		cd, f.fifo = f.fifo[0], f.fifo[1:]
	} else {
		cd = f.best()
	}
	c := cd.class
	for i, q := range c.queue {
		if q == cd {
			c.queue = append(c.queue[:i], c.queue[i+1:]...)
			break
		}
	}
	f.queued--
	return cd
}

// best is the heuristic's choice: the class of highest H with queued
// pages (ties: more queued pages, then found first), a proven class (its
// mean reached the page threshold) before any other; in the class, the
// page linked from the best-scoring page (ties: found first).
func (f *frontier) best() *candidate {
	var top *class
	topH, topProven := math.Inf(-1), false
	for _, c := range f.ordered {
		if len(c.queue) == 0 {
			continue
		}
		h := c.h(f.prior)
		proven := c.expanded > 0 && h >= f.threshold-tieEps
		better := h > topH+tieEps || (h >= topH-tieEps && len(c.queue) > len(top.queue))
		if top == nil || (proven && !topProven) || (proven == topProven && better) {
			top, topH, topProven = c, h, proven
		}
	}
	pick := top.queue[0]
	for _, q := range top.queue[1:] {
		if q.from > pick.from {
			pick = q
		}
	}
	return pick
}

// stats describes the classes for the verdict: the expanded ones first
// (most expanded, then best mean), then the queued ones in order of sight.
func (f *frontier) stats() []record.ClassStat {
	out := make([]record.ClassStat, 0, len(f.ordered))
	cs := append([]*class(nil), f.ordered...)
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if (a.expanded > 0) != (b.expanded > 0) {
			return a.expanded > 0
		}
		if a.expanded != b.expanded {
			return a.expanded > b.expanded
		}
		return a.h(Prior{Kind: PriorConstant}) > b.h(Prior{Kind: PriorConstant})
	})
	for _, c := range cs {
		st := record.ClassStat{AbstractURL: c.name, Expanded: c.expanded, Queued: len(c.queue)}
		if c.expanded > 0 {
			st.Mean = round3(c.sum / float64(c.expanded))
		}
		out = append(out, st)
	}
	return out
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
