package frontier

import (
	"fmt"
	"math"
)

// Learning configures the frontier's feedback from the crawl: every URL
// belongs to a chain of URL classes of its host (the host, each directory,
// the file-name template), each class counts the pages fetched in it and
// the sum of their labels (score's page score; failed pages 0), and the
// queue orders URLs by
//
//	priority = (1−Weight)·prior + Weight·ĥ(class)
//
// where prior is the link priority score gave and ĥ the class's smoothed
// harvest: ĥ(c) = (mass(c) + Pseudo·ĥ(parent(c))) / (fetched(c) + Pseudo),
// ĥ(parent of the host class) = Prior. Before any page of a host is
// fetched every class of it has ĥ = Prior, so the order is the prior's.
// Queued URLs of a class are ranked again when its ĥ moves by more than
// Epsilon. docs/frontier.md ("Learning from the crawl") has the details.
type Learning struct {
	Weight  float64 `json:"weight"`
	Prior   float64 `json:"prior"`
	Pseudo  float64 `json:"pseudo"`
	Epsilon float64 `json:"epsilon"`
}

// DefaultLearning is the configuration score's learned strategies ask for
// unless told otherwise.
func DefaultLearning() Learning {
	return Learning{Weight: 0.5, Prior: 0.3, Pseudo: 4, Epsilon: 0.01}
}

// Validate reports a configuration outside its ranges.
func (l *Learning) Validate() error {
	switch {
	case !(l.Weight >= 0 && l.Weight <= 1):
		return fmt.Errorf("learning weight %v: want a number in [0,1]", l.Weight)
	case !(l.Prior >= 0 && l.Prior <= 1):
		return fmt.Errorf("learning prior %v: want a number in [0,1]", l.Prior)
	case !(l.Pseudo > 0) || math.IsInf(l.Pseudo, 0):
		return fmt.Errorf("learning pseudo-count %v: want a positive number", l.Pseudo)
	case !(l.Epsilon >= 0 && l.Epsilon < 1):
		return fmt.Errorf("learning epsilon %v: want a number in [0,1)", l.Epsilon)
	}
	return nil
}

// blend is the queue priority of a URL with link priority prior in a class
// whose harvest estimate is est.
func (l *Learning) blend(prior, est float64) float64 {
	return (1-l.Weight)*prior + l.Weight*est
}

// urlClass is one class as the frontier keeps it.
type urlClass struct {
	id       int64
	key      string
	parent   *urlClass
	fetched  int64
	relevant int64
	mass     float64
	// applied is the estimate the class's queued URLs carry in their
	// priority; valid tells whether it was ever set.
	applied float64
	valid   bool
	dirty   bool
	// est is the estimate computed in this transaction; estDone tells
	// whether it is.
	est     float64
	estDone bool
}

// estimate is ĥ of the class, memoised for the transaction.
func (c *urlClass) estimate(l *Learning) float64 {
	if c.estDone {
		return c.est
	}
	prior := l.Prior
	if c.parent != nil {
		prior = c.parent.estimate(l)
	}
	c.est = (c.mass + l.Pseudo*prior) / (float64(c.fetched) + l.Pseudo)
	c.estDone = true
	return c.est
}
