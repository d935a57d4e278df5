// Package scorestore adapts the SQLite frontier to scoring.Store, the view
// of the frontier that score --db reads (page scores of crawled pages and
// the link graph). It is a package of its own so that the seed command,
// which uses the frontier, does not link the scoring code.
package scorestore

import (
	"context"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
)

// Store is a frontier seen as a scoring.Store.
type Store struct {
	F *frontier.SQLiteStore
}

var _ scoring.Store = Store{}

// Open opens the frontier database at path for score.
func Open(path string) (Store, error) {
	f, err := frontier.OpenSQLite(path)
	if err != nil {
		return Store{}, err
	}
	return Store{F: f}, nil
}

// Close closes the frontier.
func (s Store) Close() error { return s.F.Close() }

// PageScores returns the scores of the crawled pages among urls.
func (s Store) PageScores(ctx context.Context, urls []string) (map[string]float64, error) {
	return s.F.PageScores(ctx, urls)
}

// Edges walks the link graph crawled so far.
func (s Store) Edges(ctx context.Context, fn func(scoring.Edge) error) error {
	return s.F.WalkEdges(ctx, func(e frontier.Edge) error {
		return fn(scoring.Edge{From: e.From, To: e.To, Anchor: e.Anchor, Context: e.Context})
	})
}
