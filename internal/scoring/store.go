package scoring

import (
	"context"
	"sync"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// Store is what score needs from the crawl frontier (score --db FILE):
// the scores of pages already crawled, for block-shark's sibling scores
// and n′/n, and the link graph crawled so far, for ipagerank and
// linkmodel. internal/frontier implements it over its SQLite store; the
// methods are read-only and must be safe for concurrent use.
type Store interface {
	// PageScores returns the page score of each of urls that has been
	// crawled and scored. URLs not crawled yet (queued, leased, unknown)
	// are absent from the map; a URL crawled with an error may be present
	// with score 0.
	PageScores(ctx context.Context, urls []string) (map[string]float64, error)
	// Edges calls fn once for every link recorded from a crawled page
	// (From the page's URL, To the normalised target), in any order. An
	// error from fn stops the walk and is returned.
	Edges(ctx context.Context, fn func(record.Edge) error) error
}

// seenScores remembers the page scores of the docs scored so far in this
// run, up to a limit, so that block-shark has sibling scores without a
// store in a streaming run.
type seenScores struct {
	mu    sync.Mutex
	m     map[string]float64
	limit int
}

func newSeenScores(limit int) *seenScores {
	return &seenScores{m: map[string]float64{}, limit: limit}
}

func (s *seenScores) put(url string, score float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[url]; ok || len(s.m) < s.limit {
		s.m[url] = score
	}
}

// lookup adds to dst the remembered scores of urls.
func (s *seenScores) lookup(urls []string, dst map[string]float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range urls {
		if v, ok := s.m[u]; ok {
			dst[u] = v
		}
	}
}
