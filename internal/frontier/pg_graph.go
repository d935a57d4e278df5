package frontier

import (
	"context"
	"fmt"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/jackc/pgx/v5"
)

// The PostgreSQL store's side of score --db: page scores, the link graph
// and the replay of the crawl for the learned strategies (their URL
// classes: pg_classes.go).

// PageScores returns the page score of each of urls that was fetched
// (done or failed; a failed or unscored page counts 0).
func (s *PostgresStore) PageScores(ctx context.Context, urls []string) (map[string]float64, error) {
	if s.pool == nil {
		return nil, ErrClosed
	}
	out := make(map[string]float64, len(urls))
	const page = 1000
	for len(urls) > 0 {
		n := min(page, len(urls))
		keys := make([][16]byte, n)
		for i, u := range urls[:n] {
			keys[i] = pgKey(u)
		}
		urls = urls[n:]
		rows, err := s.query(ctx, sq(`SELECT url, coalesce(score, 0) FROM urls WHERE k = ANY($1) AND state IN ({done}, {failed})`), keys)
		if err != nil {
			return nil, fmt.Errorf("frontier: page scores: %w", err)
		}
		var u string
		var v float64
		if _, err := pgx.ForEachRow(rows, []any{&u, &v}, func() error {
			out[u] = v
			return nil
		}); err != nil {
			return nil, fmt.Errorf("frontier: page scores: %w", err)
		}
	}
	return out, nil
}

// WalkEdges calls fn for every link kept from a fetched page, in no
// particular order. An error from fn stops the walk.
func (s *PostgresStore) WalkEdges(ctx context.Context, fn func(e Edge) error) error {
	if s.pool == nil {
		return ErrClosed
	}
	rows, err := s.query(ctx, `SELECT f.url, t.url, coalesce(e.priority, 0), coalesce(e.anchor, ''), coalesce(e.context, '')
		FROM edges e JOIN urls f ON f.id = e.src JOIN urls t ON t.id = e.dst`)
	if err != nil {
		return fmt.Errorf("frontier: edges: %w", err)
	}
	var e Edge
	_, err = pgx.ForEachRow(rows, []any{&e.From, &e.To, &e.Priority, &e.Anchor, &e.Context}, func() error {
		if err := fn(e); err != nil {
			return fnError{err}
		}
		return nil
	})
	return wrapUnlessFn(err, "edges")
}

// Edges walks the link graph for score (scoring.Store).
func (s *PostgresStore) Edges(ctx context.Context, fn func(record.Edge) error) error {
	return s.WalkEdges(ctx, func(e Edge) error {
		return fn(record.Edge{From: e.From, To: e.To, Anchor: e.Anchor, Context: e.Context})
	})
}

// Replay calls fn for every page crawled and judged (scored, or failed),
// in the order they were fetched, with the link that led to it (as the
// SQLite store's Replay).
func (s *PostgresStore) Replay(ctx context.Context, fn func(record.Replay) error) error {
	if s.pool == nil {
		return ErrClosed
	}
	rows, err := s.query(ctx, sq(`SELECT u.url, coalesce(p.url, ''), coalesce(u.anchor, ''), coalesce(e.context, ''),
		  coalesce(p.score, 0), coalesce(u.score, 0), u.state = {failed}
		FROM urls u
		LEFT JOIN urls p ON p.id = u.parent_id
		LEFT JOIN edges e ON e.src = u.parent_id AND e.dst = u.id
		WHERE u.state IN ({done}, {failed}) AND (u.score IS NOT NULL OR u.state = {failed})
		ORDER BY u.fetched_at, u.id`))
	if err != nil {
		return fmt.Errorf("frontier: replay: %w", err)
	}
	var r record.Replay
	_, err = pgx.ForEachRow(rows, []any{&r.URL, &r.Parent, &r.Anchor, &r.Context, &r.ParentScore, &r.Score, &r.Failed}, func() error {
		if err := fn(r); err != nil {
			return fnError{err}
		}
		return nil
	})
	return wrapUnlessFn(err, "replay")
}
