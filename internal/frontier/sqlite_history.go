package frontier

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Fetched is one URL that came back from a fetcher, as History lists it.
type Fetched struct {
	URL       string
	Host      string
	Depth     int
	Status    int // HTTP status (0: none recorded)
	FetchedAt time.Time
	// Scored tells whether Score and Relevant hold score's judgement; an
	// unscored page counts as not relevant, as in Stats.
	Scored   bool
	Score    float64
	Relevant bool
	Error    string // why it failed ("" for a page done)
	// Unfetched marks a failed URL that was never fetched (refused by
	// robots.txt rules learned after it was queued, or held by a host
	// given up): Stats leaves it out of Fetched, and so should a reader
	// of the history. (The Redis store does not tell them apart here.)
	Unfetched bool
	// Redirect marks a URL done as where another URL's fetch ended (a
	// redirect target): the same fetch as that URL's, which Stats counts
	// once, and so should a reader of the history. (A PostgreSQL crawl
	// made before the redirect column does not mark them.)
	Redirect bool
}

// Info keys the crawl commands record (SetInfo) for reports.
const (
	InfoTopic = "topic" // the topic profile's name
	InfoLinks = "links" // the link strategies used, in the order first used
	InfoPage  = "page"  // the page scoring methods used, in the same way
	// InfoThreshold is the page threshold of the last run (score's
	// thresholds.page, or the page model's), as text.
	InfoThreshold = "threshold"
	// InfoRuns lists the times the crawl's runs started (score --db
	// started), comma-separated, RFC 3339 in UTC: a crawl resumed has
	// more than one.
	InfoRuns = "runs"
)

// History calls fn for every URL fetched (done or failed), in the order
// they were fetched: by fetch time, then by the order they entered the
// frontier. An error from fn stops the walk and is returned.
func (s *SQLiteStore) History(ctx context.Context, fn func(Fetched) error) error {
	if s.db == nil {
		return ErrClosed
	}
	// A file made before the redirect column, opened read-only, has not
	// been migrated: its redirect targets are not marked.
	redirect := "0"
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('urls') WHERE name = 'redirect'`).Scan(&n); err != nil {
		return fmt.Errorf("frontier: history: %w", err)
	}
	if n > 0 {
		redirect = "u.redirect = 1"
	}
	rows, err := s.db.QueryContext(ctx, `SELECT u.url, h.host, u.depth, coalesce(u.status, 0), coalesce(u.fetched_at, u.added_at),
		u.score, u.relevant, coalesce(u.error, ''), u.fetched_at IS NULL AND u.state = ?, `+redirect+`
		FROM urls u JOIN hosts h ON h.id = u.host_id
		WHERE u.state IN (?, ?) ORDER BY coalesce(u.fetched_at, u.added_at), u.id`, Failed, Done, Failed)
	if err != nil {
		return fmt.Errorf("frontier: history: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var f Fetched
		var ms int64
		var score sql.NullFloat64
		var relevant sql.NullInt64
		if err := rows.Scan(&f.URL, &f.Host, &f.Depth, &f.Status, &ms, &score, &relevant, &f.Error, &f.Unfetched, &f.Redirect); err != nil {
			return fmt.Errorf("frontier: history: %w", err)
		}
		f.FetchedAt = time.UnixMilli(ms)
		f.Scored = score.Valid
		f.Score = score.Float64
		f.Relevant = relevant.Valid && relevant.Int64 == 1
		if err := fn(f); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("frontier: history: %w", err)
	}
	return nil
}

// AddedPerSecond counts the URLs of the frontier by the second (Unix
// time) they were added, for the queue over time of seed report.
func (s *SQLiteStore) AddedPerSecond(ctx context.Context) (map[int64]int64, error) {
	if s.db == nil {
		return nil, ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, `SELECT added_at / 1000, count(*) FROM urls GROUP BY 1`)
	if err != nil {
		return nil, fmt.Errorf("frontier: added: %w", err)
	}
	defer rows.Close()
	out := map[int64]int64{}
	for rows.Next() {
		var sec, n int64
		if err := rows.Scan(&sec, &n); err != nil {
			return nil, fmt.Errorf("frontier: added: %w", err)
		}
		out[sec] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("frontier: added: %w", err)
	}
	return out, nil
}

// Info returns what the crawl's commands recorded about it (InfoTopic,
// InfoLinks, …), with the schema version.
func (s *SQLiteStore) Info(ctx context.Context) (map[string]string, error) {
	if s.db == nil {
		return nil, ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, `SELECT key, value FROM info`)
	if err != nil {
		return nil, fmt.Errorf("frontier: info: %w", err)
	}
	defer rows.Close()
	info := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("frontier: info: %w", err)
		}
		info[k] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("frontier: info: %w", err)
	}
	return info, nil
}

// SetInfo records facts about the crawl (key → value) in one
// transaction, replacing earlier values of the same keys.
func (s *SQLiteStore) SetInfo(ctx context.Context, kv map[string]string) error {
	if s.db == nil {
		return ErrClosed
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("frontier: set info: %w", err)
	}
	defer tx.Rollback()
	for k, v := range kv {
		if k == "schema_version" {
			return fmt.Errorf("frontier: set info: %q is the store's own key", k)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO info(key, value) VALUES (?, ?)
			ON CONFLICT(key) DO UPDATE SET value = excluded.value`, k, v); err != nil {
			return fmt.Errorf("frontier: set info %s: %w", k, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("frontier: set info: %w", err)
	}
	return nil
}
