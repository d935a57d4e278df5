package frontier

import (
	"fmt"
	"math"
)

// Learning configures the frontier's feedback from the crawl. Every URL
// belongs to a chain of URL classes of its host (urlx.ClassChain: the host,
// each directory, the file-name template). When a page comes back, each
// class of its URL counts it and adds its residual: the page's label
// (score's page score; 0 for a failed page) minus the link priority its
// URL was queued with. The queue orders URLs by
//
//	priority = clamp(prior + Weight·r̂(class), 0, 1)
//
// where prior is the link priority score gave and r̂ the class's smoothed
// mean residual, shrunk towards its parent's:
// r̂(c) = (Σ residuals(c) + Pseudo·r̂(parent(c))) / (fetched(c) + Pseudo),
// the parent of a host's class being the crawl's class, whose parent has
// r̂ = 0. Before any page comes back r̂ = 0 everywhere and the order is the
// link priorities'; where the link strategy predicted well the residuals
// stay near the crawl's mean, which moves every class alike. Queued URLs of
// a class are ranked again when its r̂ moves by more than Epsilon.
// docs/frontier.md ("Learning from the crawl") has the details.
type Learning struct {
	Weight  float64 `json:"weight"`
	Pseudo  float64 `json:"pseudo"`
	Epsilon float64 `json:"epsilon"`
}

// DefaultLearning is the configuration score's learned strategies ask for
// unless told otherwise.
func DefaultLearning() Learning {
	return Learning{Weight: 1, Pseudo: 4, Epsilon: 0.01}
}

// Validate reports a configuration outside its ranges.
func (l *Learning) Validate() error {
	switch {
	case !(l.Weight >= 0 && l.Weight <= 2):
		return fmt.Errorf("learning weight %v: want a number in [0,2]", l.Weight)
	case !(l.Pseudo > 0) || math.IsInf(l.Pseudo, 0):
		return fmt.Errorf("learning pseudo-count %v: want a positive number", l.Pseudo)
	case !(l.Epsilon >= 0 && l.Epsilon < 1):
		return fmt.Errorf("learning epsilon %v: want a number in [0,1)", l.Epsilon)
	}
	return nil
}

// blend is the queue priority of a URL with link priority prior in a class
// whose residual estimate is est.
func (l *Learning) blend(prior, est float64) float64 {
	return clampUnit(prior + l.Weight*est)
}

// urlClass is one class as the frontier keeps it.
type urlClass struct {
	id       int64
	key      string
	parent   *urlClass
	fetched  int64
	relevant int64
	residual float64 // Σ (label − prior) of its fetched pages
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

// estimate is r̂ of the class, memoised for the transaction.
func (c *urlClass) estimate(l *Learning) float64 {
	if c.estDone {
		return c.est
	}
	prior := 0.0
	if c.parent != nil {
		prior = c.parent.estimate(l)
	}
	c.est = (c.residual + l.Pseudo*prior) / (float64(c.fetched) + l.Pseudo)
	c.estDone = true
	return c.est
}
