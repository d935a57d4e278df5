package simweb

import (
	"fmt"
	"sort"
	"strings"
)

// Eval measures a crawl against the truth: the papers' harvest rate,
// resource discovery rate and topic drift, for one topic.
type Eval struct {
	Topic string `json:"topic"`
	// Pages is the number of URLs judged (every fetch counts, failures too).
	Pages int `json:"pages"`
	// Relevant is how many of them were relevant to the topic.
	Relevant int `json:"relevant"`
	// Harvest is Relevant/Pages; HarvestAt the harvest rate of the first N
	// pages for each checkpoint N reached.
	Harvest   float64         `json:"harvest"`
	HarvestAt map[int]float64 `json:"harvest_at,omitempty"`
	// Drift is the topic drift rate: irrelevant pages / pages.
	Drift float64 `json:"drift"`
	// Found is the number of distinct relevant pages found (session-id
	// copies, print versions and redirects count once, as their page);
	// Exist the number of relevant pages of the web; Discovery = Found/Exist.
	Found     int     `json:"found"`
	Exist     int     `json:"exist"`
	Discovery float64 `json:"discovery"`
	// Sites is the number of sites relevant to the topic with at least
	// one relevant page found, of SitesExist; TopSites the sites with the
	// most relevant pages found.
	Sites      int        `json:"relevant_sites"`
	SitesExist int        `json:"relevant_sites_exist"`
	TopSites   []SiteHits `json:"top_sites,omitempty"`
	// Unknown counts URLs that are not pages of this web.
	Unknown int `json:"unknown,omitempty"`
	// Failed counts, of Pages, the fetches that failed (a record with an
	// error): they spend the budget and find nothing, relevant or not.
	Failed int `json:"failed,omitempty"`
}

// SiteHits is a site and the number of relevant pages found on it.
type SiteHits struct {
	Site string `json:"site"`
	Name string `json:"name"`
	Hits int    `json:"hits"`
}

// Evaluator accumulates an Eval URL by URL, in fetch order.
type Evaluator struct {
	w           *Web
	topic       int
	checkpoints []int
	e           Eval
	seen        map[string]bool
	hits        map[string]int
}

// NewEvaluator starts an evaluation for topic with harvest checkpoints
// (e.g. 500, 1000, 2000).
func (w *Web) NewEvaluator(topic string, checkpoints ...int) (*Evaluator, error) {
	t := TopicIndex(topic)
	if t < 0 {
		return nil, fmt.Errorf("unknown topic %q (known: %v)", topic, Topics)
	}
	sort.Ints(checkpoints)
	return &Evaluator{w: w, topic: t, checkpoints: checkpoints, e: Eval{Topic: topic, HarvestAt: map[int]float64{}},
		seen: map[string]bool{}, hits: map[string]int{}}, nil
}

// Add judges one fetched URL.
func (v *Evaluator) Add(url string) { v.add(url, false) }

// AddFailed counts one fetch of url that failed: a page of the budget,
// never a relevant one.
func (v *Evaluator) AddFailed(url string) { v.add(url, true) }

func (v *Evaluator) add(url string, failed bool) {
	v.e.Pages++
	pt, ok := v.w.Page(url)
	if failed {
		v.e.Failed++
	} else if !ok {
		v.e.Unknown++
	} else if pt.Relevant(Topics[v.topic]) {
		v.e.Relevant++
		key := pt.URL
		switch {
		case pt.FinalURL != "":
			key = pt.FinalURL
		case pt.Canonical != "":
			key = pt.Canonical
		}
		if !v.seen[key] {
			v.seen[key] = true
			v.hits[pt.Site]++
		}
	}
	for _, c := range v.checkpoints {
		if c == v.e.Pages {
			v.e.HarvestAt[c] = float64(v.e.Relevant) / float64(c)
		}
	}
}

// Result returns the evaluation so far.
func (v *Evaluator) Result() Eval {
	e := v.e
	if e.Pages > 0 {
		e.Harvest = float64(e.Relevant) / float64(e.Pages)
		e.Drift = 1 - e.Harvest
	}
	e.Found = len(v.seen)
	e.Exist = v.w.relevantPages(v.topic)
	for _, s := range v.w.sites {
		if rel := v.w.siteTruth(s).Relevance[Topics[v.topic]]; rel > 0 {
			e.SitesExist++
			if v.hits[s.key] > 0 {
				e.Sites++
			}
		}
	}
	if e.Exist > 0 {
		e.Discovery = float64(e.Found) / float64(e.Exist)
	}
	for site, n := range v.hits {
		name := site
		for _, s := range v.w.sites {
			if s.key == site {
				name = s.name
				break
			}
		}
		e.TopSites = append(e.TopSites, SiteHits{Site: site, Name: name, Hits: n})
	}
	sort.Slice(e.TopSites, func(i, j int) bool {
		if e.TopSites[i].Hits != e.TopSites[j].Hits {
			return e.TopSites[i].Hits > e.TopSites[j].Hits
		}
		return e.TopSites[i].Site < e.TopSites[j].Site
	})
	if len(e.TopSites) > 10 {
		e.TopSites = e.TopSites[:10]
	}
	if len(e.HarvestAt) == 0 {
		e.HarvestAt = nil
	}
	return e
}

// relevantPages counts the pages of the table relevant to topic t: on
// topic, and not on a dead host or a path that always fails.
func (w *Web) relevantPages(t int) int {
	n := 0
	for _, s := range w.sites {
		for _, p := range s.pages {
			if int(p.topic) != t || p.kind > pThread {
				continue
			}
			path, _, _ := strings.Cut(w.path(s, p), "?") // faults are keyed on the path alone
			if s.down || (s.errPct > 0 && w.staticFault(s, target{status: 200}, path) != 0) {
				continue
			}
			n++
		}
	}
	return n
}
