package frontier

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// Replay calls fn for every page crawled and judged (scored, or failed),
// in the order they were fetched, with the link that led to it: its
// parent, anchor and context, and the parent's score. score's learned
// strategy trains on them when a crawl resumes.
func (s *SQLiteStore) Replay(ctx context.Context, fn func(record.Replay) error) error {
	if s.db == nil {
		return ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, sq(`SELECT u.url, p.url, u.anchor, e.context, p.score, u.score, u.state
		FROM urls u
		LEFT JOIN urls p ON p.id = u.parent_id
		LEFT JOIN edges e ON e.src = u.parent_id AND e.dst = u.id
		WHERE u.state IN ({done}, {failed}) AND (u.score IS NOT NULL OR u.state = {failed})
		ORDER BY u.fetched_at, u.id`))
	if err != nil {
		return fmt.Errorf("frontier: replay: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r record.Replay
		var parent, anchor, context sql.NullString
		var parentScore, score sql.NullFloat64
		var state State
		if err := rows.Scan(&r.URL, &parent, &anchor, &context, &parentScore, &score, &state); err != nil {
			return fmt.Errorf("frontier: replay: %w", err)
		}
		r.Parent, r.Anchor, r.Context = parent.String, anchor.String, context.String
		r.ParentScore, r.Score, r.Failed = parentScore.Float64, score.Float64, state == Failed
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("frontier: replay: %w", err)
	}
	return rows.Close()
}
