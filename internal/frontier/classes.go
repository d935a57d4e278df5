package frontier

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// Learning configures the frontier's feedback from the crawl. Every URL
// belongs to a chain of URL classes of its host (urlx.ClassChain: the host,
// each directory, the file name's leading words). When a page comes back,
// each class of its URL counts it, its label (score's page score; 0 for a
// failed page) and the link priority its URL was queued with. A class's
// ratio ρ says how much better its pages turned out than their links
// promised, shrunk towards its parent's with Pseudo pages of weight:
//
//	ρ(c) = (n·L/P + Pseudo·ρ(parent(c))) / (n + Pseudo)
//
// n pages, L the sum of their labels, P of their priors; the parent of a
// host's class is the crawl's class, whose parent has ρ = 1. The queue
// orders URLs by
//
//	priority = clamp(prior · (ρ(class)/ρ(host))^Weight, 0, 1)
//
// Before any page comes back ρ = 1 everywhere and the order is the link
// priorities'; a multiplier keeps the link strategy's large distinctions
// and reorders what it saw as alike, within each host. Queued URLs of a
// class are ranked again when its ratio moves by more than a share
// Epsilon. docs/frontier.md
// ("Learning from the crawl") has the details.
type Learning struct {
	Weight  float64 `json:"weight"`
	Pseudo  float64 `json:"pseudo"`
	Epsilon float64 `json:"epsilon"`
}

// ErrNoClassRanking is the answer of a store whose Capabilities say it
// does not rank URL classes, asked to (score --db with a learned strategy
// and a class weight).
var ErrNoClassRanking = errors.New("this frontier store does not re-rank URL classes " +
	"(use a SQLite or Redis frontier, or --class-weight 0 to learn without it)")

// DefaultLearning is the configuration score's learned strategies ask for
// unless told otherwise.
func DefaultLearning() Learning {
	return Learning{Weight: 1, Pseudo: 4, Epsilon: 0.02}
}

// Validate reports a configuration outside its ranges.
func (l *Learning) Validate() error {
	switch {
	case !(l.Weight >= 0 && l.Weight <= 4):
		return fmt.Errorf("learning weight %v: want a number in [0,4]", l.Weight)
	case !(l.Pseudo > 0) || math.IsInf(l.Pseudo, 0):
		return fmt.Errorf("learning pseudo-count %v: want a positive number", l.Pseudo)
	case !(l.Epsilon >= 0 && l.Epsilon < 1):
		return fmt.Errorf("learning epsilon %v: want a number in [0,1)", l.Epsilon)
	}
	return nil
}

// blend is the queue priority of a URL with link priority prior in a class
// whose ratio against its host's is rho.
func (l *Learning) blend(prior, rho float64) float64 {
	return record.ClampUnit(prior * l.factor(rho))
}

// factor is r^Weight, r a class's ratio against its host's.
func (l *Learning) factor(rho float64) float64 {
	return math.Pow(rho, l.Weight)
}

// moved tells whether a class's ratio moved enough since its queued URLs
// were ranked with applied to rank them again.
func (l *Learning) moved(rho, applied float64) bool {
	return math.Abs(rho-applied) > l.Epsilon*math.Max(applied, 1e-9)
}

// urlClass is one class as the frontier keeps it.
type urlClass struct {
	id       int64
	key      string
	parent   *urlClass
	fetched  int64
	relevant int64
	labels   float64 // Σ labels of its fetched pages
	priors   float64 // Σ link priorities they were queued with
	// applied is the estimate the class's queued URLs carry in their
	// priority; valid tells whether it was ever set.
	applied float64
	valid   bool
	// add is what this transaction counted, to add to the stored figures;
	// dirty tells whether the class is to be written.
	add   classFigures
	dirty bool
	// est is the estimate computed in this transaction; estDone tells
	// whether it is.
	est     float64
	estDone bool
}

// relative is ρ(c)/ρ(host), the class's ratio against its host's, which
// ranks its queued URLs: the model in score weighs hosts already, and a
// host's pages are not made better by the host's good name.
func (c *urlClass) relative(l *Learning) float64 {
	root := c
	for root.key != "/" && root.parent != nil {
		root = root.parent
	}
	if den := root.estimate(l); den > 1e-9 {
		return c.estimate(l) / den
	}
	return 1
}

// estimate is ρ of the class, memoised for the transaction.
func (c *urlClass) estimate(l *Learning) float64 {
	if c.estDone {
		return c.est
	}
	parent := 1.0
	if c.parent != nil {
		parent = c.parent.estimate(l)
	}
	c.est = parent
	if c.fetched > 0 && c.priors > 0 {
		n := float64(c.fetched)
		c.est = (n*c.labels/c.priors + l.Pseudo*parent) / (n + l.Pseudo)
	}
	c.estDone = true
	return c.est
}

// pageLabel is what a page that came back teaches its classes: score's
// page score, or 0 for a failed page; teaches is false for a page neither
// scored nor failed.
func pageLabel(o *Outcome) (label float64, teaches bool) {
	switch {
	case o.Error != "":
		return 0, true
	case o.Scored:
		return record.ClampUnit(o.Score), true
	}
	return 0, false
}

// learnPage counts a page that came back in c and every class above it:
// its label, the link priority its URL was queued with, its relevance.
func learnPage(c *urlClass, label, prior float64, relevant bool) {
	f := classFigures{fetched: 1, labels: label, priors: prior}
	if relevant {
		f.relevant = 1
	}
	for ; c != nil; c = c.parent {
		c.count(f)
	}
}

// count adds f to the class's figures, and to what the transaction is to
// add to the stored ones.
func (k *urlClass) count(f classFigures) {
	k.fetched += f.fetched
	k.relevant += f.relevant
	k.labels += f.labels
	k.priors += f.priors
	k.add.fetched += f.fetched
	k.add.relevant += f.relevant
	k.add.labels += f.labels
	k.add.priors += f.priors
	k.dirty = true
}

// classFigures are what pages teach a class: pages fetched, relevant,
// the sum of their labels and of the link priorities they were queued
// with.
type classFigures struct {
	fetched, relevant int64
	labels, priors    float64
}

// learningValue is the info table's value of a Learning configuration,
// checked.
func learningValue(l *Learning) (string, error) {
	if err := l.Validate(); err != nil {
		return "", fmt.Errorf("frontier: %w", err)
	}
	v, err := json.Marshal(l)
	return string(v), err
}

// parseLearning reads the Learning configuration of the info table.
func parseLearning(v string) (*Learning, error) {
	var l Learning
	if err := json.Unmarshal([]byte(v), &l); err != nil {
		return nil, fmt.Errorf("frontier: learning %q: %w", v, err)
	}
	if err := l.Validate(); err != nil {
		return nil, fmt.Errorf("frontier: %w", err)
	}
	return &l, nil
}

// classMove is a class whose ratio moved enough that its queued URLs are
// ranked again with est; by is how far it moved (+Inf: never ranked).
type classMove struct {
	c       *urlClass
	est, by float64
}

// classMoves gives the classes of hosts (each host's classes in id order,
// parents first) whose ratio against their host's moved by more than
// Epsilon since their queued URLs were ranked, the most moved first: a
// store ranks them in that order, as many as maxRerankRows queued URLs
// allow, and the rest in a later transaction that touches their host.
// crawl is the root above every host; its estimate is computed afresh.
func (l *Learning) classMoves(crawl *urlClass, hosts [][]*urlClass) []classMove {
	crawl.estDone = false
	var moves []classMove
	for _, list := range hosts {
		for _, c := range list {
			c.estDone = false
		}
		for _, c := range list {
			est := c.relative(l)
			if c.valid && !l.moved(est, c.applied) {
				continue
			}
			by := math.Inf(1)
			if c.valid {
				by = math.Abs(est/math.Max(c.applied, 1e-9) - 1)
			}
			moves = append(moves, classMove{c, est, by})
		}
	}
	sort.SliceStable(moves, func(i, j int) bool { return moves[i].by > moves[j].by })
	return moves
}
