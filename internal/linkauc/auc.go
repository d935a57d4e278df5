// Package linkauc measures how well a crawl's link priorities rank the
// links to relevant pages above the links to irrelevant ones: the area
// under the ROC curve of the priority as a classifier of the target's
// relevance (the Mann–Whitney statistic). 0.5 is a priority that says
// nothing; 1, every relevant target above every irrelevant one.
package linkauc

import (
	"encoding/json"
	"sort"
)

// Result is the link-priority evaluation of a crawl.
type Result struct {
	// AUC is P(priority of a link to a relevant page > priority of a link
	// to an irrelevant page), ties counting one half; 0 when either class
	// is empty.
	AUC float64 `json:"auc"`
	// Relevant and Irrelevant count the links judged (every link of every
	// fetched page whose target the truth knows, pruned links too);
	// Unknown the links whose target the truth does not know.
	Relevant   int `json:"relevant_links"`
	Irrelevant int `json:"irrelevant_links"`
	Unknown    int `json:"unknown_links,omitempty"`
	// MeanRelevant and MeanIrrelevant are the mean priorities of the two
	// classes: how far apart the strategy puts them on the frontier's
	// scale (thresholds.link compares against that scale).
	MeanRelevant   float64 `json:"mean_relevant"`
	MeanIrrelevant float64 `json:"mean_irrelevant"`
}

// Counter accumulates judged links.
type Counter struct {
	pos, neg []float64
	unknown  int
}

// Add records one link: its priority and whether its target is relevant;
// known false when the truth does not know the target.
func (c *Counter) Add(priority float64, relevant, known bool) {
	switch {
	case !known:
		c.unknown++
	case relevant:
		c.pos = append(c.pos, priority)
	default:
		c.neg = append(c.neg, priority)
	}
}

// Empty tells whether no link was added.
func (c *Counter) Empty() bool { return len(c.pos)+len(c.neg)+c.unknown == 0 }

// Result computes the AUC by ranks: with the priorities of both classes
// sorted together and tied values given their mean rank, AUC =
// (Σ ranks of relevant − P(P+1)/2) / (P·N).
func (c *Counter) Result() Result {
	r := Result{Relevant: len(c.pos), Irrelevant: len(c.neg), Unknown: c.unknown,
		MeanRelevant: mean(c.pos), MeanIrrelevant: mean(c.neg)}
	if len(c.pos) == 0 || len(c.neg) == 0 {
		return r
	}
	type item struct {
		p   float64
		pos bool
	}
	all := make([]item, 0, len(c.pos)+len(c.neg))
	for _, p := range c.pos {
		all = append(all, item{p, true})
	}
	for _, p := range c.neg {
		all = append(all, item{p, false})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].p < all[j].p })
	rankSum := 0.0
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].p == all[i].p {
			j++
		}
		rank := float64(i+j+1) / 2 // ranks i+1 … j, their mean
		for k := i; k < j; k++ {
			if all[k].pos {
				rankSum += rank
			}
		}
		i = j
	}
	p, n := float64(len(c.pos)), float64(len(c.neg))
	r.AUC = (rankSum - p*(p+1)/2) / (p * n)
	return r
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// Link is a scored link as score writes it.
type Link struct {
	URL      string  `json:"url"`
	Priority float64 `json:"priority"`
}

// Links decodes the links of a scored doc (a JSON object with "links":
// [{"url","priority"},…]); a record without links has none. Other fields
// are skipped.
func Links(line []byte) ([]Link, error) {
	var rec struct {
		Links []Link `json:"links"`
	}
	if err := json.Unmarshal(line, &rec); err != nil {
		return nil, err
	}
	return rec.Links, nil
}
