package siteverify

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// Site is one site to verify: its key and its input URLs, best-ranked
// first (URLs[0] is p0).
type Site struct {
	Key  string
	URLs []record.URL

	ranks []rankOf // parallel to URLs until the site is dispatched

	mu       sync.Mutex
	started  bool
	finished bool
	late     []record.URL
}

// rankOf is what orders the input URLs of a site.
type rankOf struct {
	priority float64
	rank     float64 // meta.rank; +Inf when absent
	order    int     // input order
}

// NewSite makes a site from URLs already in rank order, for callers that
// do their own grouping.
func NewSite(key string, urls ...record.URL) *Site {
	return &Site{Key: key, URLs: urls}
}

// Meta is the meta of the best-ranked URL: the verdict carries it.
func (s *Site) Meta() record.Meta {
	if len(s.URLs) == 0 {
		return nil
	}
	return s.URLs[0].Meta
}

// addLate hands an input URL to a site whose run has started; it reports
// false when the run is over.
func (s *Site) addLate(u record.URL) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.finished {
		return false
	}
	s.late = append(s.late, u)
	return true
}

func (s *Site) takeLate() []record.URL {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.late
	s.late = nil
	return l
}

// finish marks the run over and lets go of the URLs: the Grouper keeps
// every site it has seen (each is verified once), not their URLs.
func (s *Site) finish() {
	s.mu.Lock()
	s.finished = true
	s.late = nil
	s.URLs = nil
	s.mu.Unlock()
}

// sortURLs puts the URLs in rank order: highest priority, then lowest
// meta.rank, then input order.
func (s *Site) sortURLs() {
	if len(s.ranks) != len(s.URLs) {
		return
	}
	idx := make([]int, len(s.URLs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := s.ranks[idx[a]], s.ranks[idx[b]]
		if x.priority != y.priority {
			return x.priority > y.priority
		}
		if x.rank != y.rank {
			return x.rank < y.rank
		}
		return x.order < y.order
	})
	urls := make([]record.URL, len(idx))
	for i, j := range idx {
		urls[i] = s.URLs[j]
	}
	s.URLs, s.ranks = urls, nil
}

// metaRank reads meta.rank (seed search's best rank of the URL).
func metaRank(m record.Meta) float64 {
	if len(m) == 0 {
		return math.Inf(1)
	}
	var v struct {
		Rank *float64 `json:"rank"`
	}
	if json.Unmarshal(m, &v) != nil || v.Rank == nil {
		return math.Inf(1)
	}
	return *v.Rank
}

// Grouper groups a stream of url records by site. A site is handed out
// (Next) once no more of its URLs are likely to come: when the input has
// ended, when Lookahead more URLs were read after its first one, or when
// the input has been idle for Idle (a pipe whose producer writes in
// bursts). URLs of a site already handed out join its run while it lasts
// and are counted as Late afterwards; each site is verified once.
type Grouper struct {
	scope     string
	lookahead int
	idle      time.Duration

	mu       sync.Mutex
	changed  chan struct{}
	sites    map[string]*Site // every site seen
	pending  []*Site          // not handed out, in order of first sight
	first    map[*Site]int    // input count at a pending site's first URL
	n        int              // URLs added
	last     time.Time        // when the last URL came
	ended    bool
	late     int
	lateDone int
}

// ErrNoHost is returned by Add for a URL without a host.
var ErrNoHost = errors.New("not an http(s) URL with a host")

// NewGrouper returns a Grouper keyed by scope (ScopeSite or ScopeHost).
// lookahead ≤ 0 and idle ≤ 0 wait for the end of the input.
func NewGrouper(scope string, lookahead int, idle time.Duration) *Grouper {
	return &Grouper{scope: scope, lookahead: lookahead, idle: idle, changed: make(chan struct{}),
		sites: map[string]*Site{}, first: map[*Site]int{}, last: time.Now()}
}

// Add files one input URL under its site.
func (g *Grouper) Add(u record.URL) error {
	key := SiteKey(u.URL, g.scope)
	if key == "" {
		return ErrNoHost
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n++
	g.last = time.Now()
	defer g.signal()
	s := g.sites[key]
	if s == nil {
		s = &Site{Key: key}
		g.sites[key] = s
		g.pending = append(g.pending, s)
		g.first[s] = g.n
	}
	if s.started {
		if s.addLate(u) {
			g.late++
		} else {
			g.lateDone++
		}
		return nil
	}
	s.URLs = append(s.URLs, u)
	s.ranks = append(s.ranks, rankOf{priority: u.Priority, rank: metaRank(u.Meta), order: g.n})
	return nil
}

// End says the input is over.
func (g *Grouper) End() {
	g.mu.Lock()
	g.ended = true
	g.signal()
	g.mu.Unlock()
}

func (g *Grouper) signal() {
	close(g.changed)
	g.changed = make(chan struct{})
}

// Next returns the next site to verify, in order of first sight; it
// blocks until one is ready. ok is false when the input has ended and
// every site was handed out, or when ctx ends.
func (g *Grouper) Next(ctx context.Context) (s *Site, ok bool) {
	for {
		g.mu.Lock()
		wait := time.Duration(-1)
		if len(g.pending) > 0 {
			head := g.pending[0]
			since := time.Since(g.last)
			ready := g.ended || (g.lookahead > 0 && g.n-g.first[head] >= g.lookahead) || (g.idle > 0 && since >= g.idle)
			if ready {
				g.pending = g.pending[1:]
				delete(g.first, head)
				head.started = true
				head.sortURLs()
				g.mu.Unlock()
				return head, true
			}
			if g.idle > 0 {
				wait = g.idle - since
			}
		} else if g.ended {
			g.mu.Unlock()
			return nil, false
		}
		changed := g.changed
		g.mu.Unlock()
		var t *time.Timer
		var timer <-chan time.Time
		if wait >= 0 {
			t = time.NewTimer(wait)
			timer = t.C
		}
		select {
		case <-changed:
		case <-timer:
		case <-ctx.Done():
		}
		if t != nil {
			t.Stop()
		}
		if ctx.Err() != nil {
			return nil, false
		}
	}
}

// Counts reports the sites seen, the URLs that joined a run in progress,
// and the URLs that came after their site's verdict (ignored).
func (g *Grouper) Counts() (sites, late, ignored int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.sites), g.late, g.lateDone
}
