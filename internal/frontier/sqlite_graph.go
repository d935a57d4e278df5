package frontier

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// PageScores returns the page score of each of urls that was fetched
// (done or failed; a failed or unscored page counts 0). URLs not fetched
// yet are absent from the map.
func (s *SQLiteStore) PageScores(ctx context.Context, urls []string) (map[string]float64, error) {
	if s.db == nil {
		return nil, ErrClosed
	}
	stmt, err := s.db.PrepareContext(ctx, `SELECT id, url, state FROM urls WHERE h = ?`)
	if err != nil {
		return nil, fmt.Errorf("frontier: page scores: %w", err)
	}
	defer stmt.Close()
	out := make(map[string]float64, len(urls))
	score, err := s.db.PrepareContext(ctx, `SELECT coalesce(score, 0) FROM urls WHERE id = ?`)
	if err != nil {
		return nil, fmt.Errorf("frontier: page scores: %w", err)
	}
	defer score.Close()
	for _, u := range urls {
		id, state, _, err := findURL(ctx, stmt, u)
		if err != nil {
			return nil, err
		}
		if id == 0 || (state != Done && state != Failed) {
			continue
		}
		var v float64
		if err := score.QueryRowContext(ctx, id).Scan(&v); err != nil {
			return nil, fmt.Errorf("frontier: page scores: %w", err)
		}
		out[u] = v
	}
	return out, nil
}

// WalkEdges calls fn for every link kept from a fetched page (seed add
// keeps the links it queued or found already known, not those its policy
// refused), in no particular order. An error from fn stops the walk.
func (s *SQLiteStore) WalkEdges(ctx context.Context, fn func(e Edge) error) error {
	if s.db == nil {
		return ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, `SELECT f.url, t.url, coalesce(e.priority, 0), coalesce(e.anchor, ''), coalesce(e.context, '')
		FROM edges e JOIN urls f ON f.id = e.src JOIN urls t ON t.id = e.dst`)
	if err != nil {
		return fmt.Errorf("frontier: edges: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e Edge
		if err := rows.Scan(&e.From, &e.To, &e.Priority, &e.Anchor, &e.Context); err != nil {
			return fmt.Errorf("frontier: edges: %w", err)
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil && err != sql.ErrNoRows {
		return fmt.Errorf("frontier: edges: %w", err)
	}
	return nil
}

// The view of the frontier that score --db reads.
// Edges walks the link graph for score (scoring.Store): WalkEdges with
// scoring's own edge type.
func (s *SQLiteStore) Edges(ctx context.Context, fn func(record.Edge) error) error {
	return s.WalkEdges(ctx, func(e Edge) error {
		return fn(record.Edge{From: e.From, To: e.To, Anchor: e.Anchor, Context: e.Context})
	})
}
