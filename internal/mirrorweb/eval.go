package mirrorweb

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Fetch is one fetch of a crawl: the URL leased and, after redirects,
// the URL whose page came back.
type Fetch struct {
	URL      string
	FinalURL string
	// Error is the record's error, if any: a fetch refused before it
	// reached the host (an invalid URL) is a slot, not a host probe.
	Error string
	// Verdict is the crawler's own judgement of the page (a scored doc's
	// relevant), nil when the record carries none.
	Verdict *bool
}

// Result measures a crawl of a mirror against its truth for one topic.
type Result struct {
	Topic string `json:"topic"`
	// Pages is the number of fetch slots judged (failures count: each
	// took a slot of the budget); Relevant how many gave a relevant page.
	// The first fetch of each host that cannot be reached (unknown or
	// down) is not a slot but the crawler's contact with the host: no
	// page was requested (robots.txt failed first) and the frontier puts
	// the URL back without counting it against the page budget
	// (docs/frontier.md, first contact). HostProbes counts those; every
	// later fetch of such a host is a slot, and unfetchable.
	Pages      int             `json:"pages"`
	HostProbes int             `json:"host_probes"`
	Relevant   int             `json:"relevant"`
	Harvest    float64         `json:"harvest"`
	HarvestAt  map[int]float64 `json:"harvest_at,omitempty"`
	// Found is the number of distinct relevant pages fetched (dir/ and
	// dir/index.html are one page). RelevantExist counts the relevant
	// pages of the mirror, Reachable those the portal leads to by links
	// (obeying robots.txt); Recall is the share of Reachable found, and
	// RecallAt the same after the first N fetches.
	Found         int             `json:"found"`
	RelevantExist int             `json:"relevant_exist"`
	Reachable     int             `json:"reachable_relevant"`
	Recall        float64         `json:"recall"`
	RecallAt      map[int]float64 `json:"recall_at,omitempty"`
	// FetchesFor is, for recall levels 0.5, 0.9 and 1, the fetch by which
	// the crawl had reached it (absent: never).
	FetchesFor map[string]int `json:"fetches_for_recall,omitempty"`
	// Unfetchable counts fetches of URLs that could never be fetched
	// (their host unknown or down, or robots.txt forbids them), by
	// reason; UnfetchableShare is their share of Pages, and
	// UnfetchableAt the share within the first N fetches.
	Unfetchable      int             `json:"unfetchable"`
	UnfetchableShare float64         `json:"unfetchable_share"`
	UnfetchableBy    map[string]int  `json:"unfetchable_by,omitempty"`
	UnfetchableAt    map[int]float64 `json:"unfetchable_at,omitempty"`
	// Unknown counts URLs the truth does not have (links the truth's
	// extractor did not see).
	Unknown int `json:"unknown,omitempty"`
	// Upper is what a crawler that knows the truth reaches from the
	// portal through the same links.
	Upper Upper `json:"upper_bound"`
	// Verdicts judge the crawl's own verdicts, when its records carry
	// them (scored docs), against the truth.
	Verdicts *Verdicts `json:"verdicts,omitempty"`
}

// Upper is the harvest of the oracle crawl (UpperBound).
type Upper struct {
	HarvestAt map[int]float64 `json:"harvest_at"`
	// AllFoundAt is the fetch at which the oracle had fetched every
	// reachable relevant URL (0 when it had not within its budget).
	AllFoundAt int `json:"all_found_at"`
}

// Evaluate judges a crawl, its fetches in order, for a topic; harvest,
// recall and budget figures are also given after each checkpoint.
func (g *Graph) Evaluate(topic string, fetches []Fetch, checkpoints []int) (Result, error) {
	if !slices.Contains(g.Topics, topic) {
		return Result{}, fmt.Errorf("topic %q is not in the truth (it has %v)", topic, g.Topics)
	}
	checkpoints = slices.Clone(checkpoints)
	sort.Ints(checkpoints)
	r := Result{Topic: topic, HarvestAt: map[int]float64{}, RecallAt: map[int]float64{},
		UnfetchableBy: map[string]int{}, UnfetchableAt: map[int]float64{}, FetchesFor: map[string]int{}}
	reachable := map[string]bool{}
	all := map[string]bool{}
	for _, n := range g.Nodes {
		if slices.Contains(n.Relevant, topic) {
			all[key(n)] = true
			if n.Reachable() {
				reachable[key(n)] = true
			}
		}
	}
	r.RelevantExist, r.Reachable = len(all), len(reachable)
	served := g.servedHosts()
	found := map[string]bool{}
	foundReachable := 0
	contacted := map[string]bool{} // unreachable hosts fetched once
	var verdicts verdictCounter
	verdictsAt := map[int]VerdictFigures{}
	i := -1 // the slot
	for _, f := range fetches {
		n := g.Node(f.URL)
		if h := hostOf(f.URL); unreachable(n, served[h]) && !contacted[h] && contactError(f.Error) {
			contacted[h] = true
			r.HostProbes++
			continue
		}
		i++
		r.Pages++
		switch {
		case n == nil && !served[hostOf(f.URL)]:
			r.Unfetchable++
			r.UnfetchableBy["dns"]++
		case n == nil:
			r.Unknown++
		case n.Unfetchable != "":
			r.Unfetchable++
			r.UnfetchableBy[n.Unfetchable]++
		}
		final := g.final(n, f.FinalURL)
		isRelevant := final != nil && slices.Contains(final.Relevant, topic)
		verdicts.add(f.Verdict, f.Error != "", isRelevant)
		if isRelevant {
			r.Relevant++
			if k := key(final); !found[k] {
				found[k] = true
				if reachable[k] {
					foundReachable++
					for _, level := range recallLevels {
						if _, ok := r.FetchesFor[level.name]; !ok && float64(foundReachable) >= level.share*float64(r.Reachable) {
							r.FetchesFor[level.name] = i + 1
						}
					}
				}
			}
		}
		for _, c := range checkpoints {
			if c == i+1 {
				r.HarvestAt[c] = float64(r.Relevant) / float64(c)
				r.UnfetchableAt[c] = float64(r.Unfetchable) / float64(c)
				if r.Reachable > 0 {
					r.RecallAt[c] = float64(foundReachable) / float64(r.Reachable)
				}
				verdictsAt[c] = verdicts.figures()
			}
		}
	}
	r.Found = len(found)
	if verdicts.any {
		r.Verdicts = &Verdicts{VerdictFigures: verdicts.figures(), At: verdictsAt}
	}
	if r.Pages > 0 {
		r.Harvest = float64(r.Relevant) / float64(r.Pages)
		r.UnfetchableShare = float64(r.Unfetchable) / float64(r.Pages)
	}
	if r.Reachable > 0 {
		r.Recall = float64(foundReachable) / float64(r.Reachable)
	}
	budget := r.Pages
	if len(checkpoints) > 0 && checkpoints[len(checkpoints)-1] > budget {
		budget = checkpoints[len(checkpoints)-1]
	}
	r.Upper = g.UpperBound(topic, budget, checkpoints)
	return r, nil
}

// unreachable tells whether a URL's host cannot be reached at all (a host
// the mirror does not have, or one declared down), as opposed to a URL
// robots.txt forbids on a host that answers.
func unreachable(n *Node, served bool) bool {
	if n == nil {
		return !served
	}
	switch n.Unfetchable {
	case "dns", "refused", "timeout":
		return true
	}
	return false
}

// contactError tells whether a record's error (none: a URL line) can be
// the failure of a contact with the host: a name not found, a connection
// refused or timed out, robots.txt unreachable — the kinds the frontier
// parks a host for (docs/records.md, error kinds).
func contactError(e string) bool {
	kind, _, _ := strings.Cut(e, ":")
	switch kind {
	case "", "dns", "connect", "timeout", "robots-unreachable":
		return true
	}
	return false
}

// recallLevels are the recall levels FetchesFor reports.
var recallLevels = []struct {
	name  string
	share float64
}{{"0.5", 0.5}, {"0.9", 0.9}, {"1", 1}}

// final is the node whose page a fetch got: the record's final URL when
// it has one, else the end of the node's redirects.
func (g *Graph) final(n *Node, finalURL string) *Node {
	if finalURL != "" {
		if f := g.Node(finalURL); f != nil {
			return f
		}
	}
	for hops := 0; n != nil && n.Location != nil && hops < 20; hops++ {
		n = g.Nodes[*n.Location]
	}
	return n
}

// servedHosts are the hosts the mirror answers for.
func (g *Graph) servedHosts() map[string]bool {
	out := map[string]bool{}
	for _, n := range g.Nodes {
		if n.Status > 0 {
			out[n.Host] = true
		}
	}
	return out
}

// key identifies a node's page: its resource, or its URL.
func key(n *Node) string {
	if n.Resource != "" {
		return n.Resource
	}
	return n.URL
}

// UpperBound simulates the crawl of an oracle that knows the truth and
// the link graph, from the portals, for budget fetches: it fetches only
// URLs it has seen links to, never one that cannot be fetched; a relevant
// URL when one is in its frontier, else the frontier URL nearest (in
// links) to a relevant URL not yet fetched. Like the harvest rate, it
// counts URLs: a page under two URLs is two relevant fetches, since a
// crawler cannot know they are one before fetching both. It reports the
// harvest after each checkpoint.
func (g *Graph) UpperBound(topic string, budget int, checkpoints []int) Upper {
	up := Upper{HarvestAt: map[int]float64{}}
	relevant := make([]bool, len(g.Nodes))
	reverse := make([][]int, len(g.Nodes))
	left := 0 // relevant URLs not yet fetched
	for _, n := range g.Nodes {
		if slices.Contains(n.Relevant, topic) && n.Reachable() && n.Unfetchable == "" {
			relevant[n.ID] = true
			left++
		}
		if n.Unfetchable != "" {
			continue
		}
		for _, l := range n.Links {
			reverse[l] = append(reverse[l], n.ID)
		}
	}
	fetched := make([]bool, len(g.Nodes))
	inFrontier := make([]bool, len(g.Nodes))
	var frontier []int
	push := func(id int) {
		if !inFrontier[id] && !fetched[id] && g.Nodes[id].Unfetchable == "" {
			inFrontier[id] = true
			frontier = append(frontier, id)
		}
	}
	for _, p := range g.Portals {
		if n := g.Node(p); n != nil {
			push(n.ID)
		}
	}
	var dist []int
	stale := true
	harvested, step := 0, 0
	for step < budget && left > 0 && len(frontier) > 0 {
		pick := -1
		for _, id := range frontier {
			if relevant[id] && (pick < 0 || id < pick) {
				pick = id
			}
		}
		if pick < 0 {
			if stale {
				dist = g.distances(reverse, relevant, fetched)
				stale = false
			}
			for _, id := range frontier {
				if dist[id] >= 0 && (pick < 0 || dist[id] < dist[pick] || dist[id] == dist[pick] && id < pick) {
					pick = id
				}
			}
		}
		if pick < 0 {
			break // the relevant URLs left are behind unfetchable ones
		}
		step++
		fetched[pick] = true
		inFrontier[pick] = false
		frontier = slices.DeleteFunc(frontier, func(id int) bool { return id == pick })
		if relevant[pick] {
			harvested++
			left--
			stale = true
			if left == 0 {
				up.AllFoundAt = step
			}
		}
		for _, l := range g.Nodes[pick].Links {
			push(l)
		}
		for _, c := range checkpoints {
			if c == step {
				up.HarvestAt[c] = float64(harvested) / float64(c)
			}
		}
	}
	for _, c := range checkpoints {
		if _, ok := up.HarvestAt[c]; !ok && c > step {
			// The oracle has nothing relevant left to fetch: the rest of
			// the budget goes to irrelevant pages.
			up.HarvestAt[c] = float64(harvested) / float64(c)
		}
	}
	return up
}

// distances is, for every node, the number of fetches from it to a
// relevant URL not yet fetched, through fetchable nodes (-1: none).
func (g *Graph) distances(reverse [][]int, relevant, fetched []bool) []int {
	dist := make([]int, len(g.Nodes))
	for i := range dist {
		dist[i] = -1
	}
	var queue []int
	for id := range g.Nodes {
		if relevant[id] && !fetched[id] {
			dist[id] = 0
			queue = append(queue, id)
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, u := range reverse[v] {
			if dist[u] < 0 {
				dist[u] = dist[v] + 1
				queue = append(queue, u)
			}
		}
	}
	return dist
}
