package frontier

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// scanFactor bounds how far down the queue Lease looks for URLs of other
// hosts when the best ones crowd on a few hosts: N*scanFactor+scanExtra
// rows at most per call.
const (
	scanFactor = 50
	scanExtra  = 1000
)

type leaseRow struct {
	id, hostID int64
	url        string
	priority   float64
	depth      int
	parentID   sql.NullInt64
	anchor     sql.NullString
	inherited  sql.NullFloat64
	meta       sql.NullString
	reserve    bool
}

// Lease hands out up to r.N of the best queued URLs, at most r.PerHost per
// host, best priority first (then lowest depth, then oldest), and marks
// them leased until now+r.For. Leases that have run out are queued again
// first. URLs of the reserve go out only with r.Reserve, when nothing
// else is queued and no lease of anything else runs.
func (s *SQLiteStore) Lease(ctx context.Context, r LeaseRequest) ([]record.URL, error) {
	if s.db == nil {
		return nil, ErrClosed
	}
	if none, err := r.check(); none || err != nil {
		return nil, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("frontier: lease: %w", err)
	}
	defer tx.Rollback()
	now := time.Now()
	if err := reclaim(ctx, tx, now); err != nil {
		return nil, err
	}
	if err := wake(ctx, tx, now); err != nil {
		return nil, err
	}
	picked, err := pick(ctx, tx, r, now)
	if err != nil {
		return nil, err
	}
	if len(picked) == 0 {
		return nil, tx.Commit()
	}
	until := now.Add(r.For).UnixMilli()
	// One statement for the whole chunk: the ids go in as a JSON array.
	ids := make([]byte, 0, len(picked)*20)
	ids = append(ids, '[')
	for i, p := range picked {
		if i > 0 {
			ids = append(ids, ',')
		}
		ids = strconv.AppendInt(ids, p.id, 10)
	}
	ids = append(ids, ']')
	if _, err := tx.ExecContext(ctx, sq(`UPDATE urls SET state = {leased}, leased_at = ?, lease_until = ?, lease_owner = ?
		WHERE id IN (SELECT value FROM json_each(?))`), now.UnixMilli(), until, r.Owner, string(ids)); err != nil {
		return nil, fmt.Errorf("frontier: lease: %w", err)
	}
	parent, err := tx.PrepareContext(ctx, `SELECT url FROM urls WHERE id = ?`)
	if err != nil {
		return nil, fmt.Errorf("frontier: lease: %w", err)
	}
	defer parent.Close()
	out := make([]record.URL, 0, len(picked))
	for _, p := range picked {
		u := record.URL{URL: p.url}
		u.Depth, u.Priority = p.depth, p.priority
		u.Anchor, u.Inherited = p.anchor.String, p.inherited.Float64
		if p.meta.Valid {
			u.Meta = json.RawMessage(p.meta.String)
		}
		if p.parentID.Valid {
			if err := parent.QueryRowContext(ctx, p.parentID.Int64).Scan(&u.Parent); err != nil && !errors.Is(err, sql.ErrNoRows) {
				return nil, fmt.Errorf("frontier: lease %s: parent: %w", p.url, err)
			}
		}
		if u.Site, err = s.siteOf(ctx, tx, p.hostID); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("frontier: lease: commit: %w", err)
	}
	return out, nil
}

// reclaim queues again the URLs whose lease ran out.
func reclaim(ctx context.Context, tx *sql.Tx, now time.Time) error {
	res, err := tx.ExecContext(ctx, `UPDATE urls SET state = `+parkedStateSQL+sq(`, leased_at = NULL, lease_until = NULL, lease_owner = NULL
		WHERE state = {leased} AND lease_until <= ?`), now.UnixMilli())
	if err != nil {
		return fmt.Errorf("frontier: reclaim leases: %w", err)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		if _, err := tx.ExecContext(ctx, `INSERT INTO counters (name, n) VALUES (?, ?)
			ON CONFLICT (name) DO UPDATE SET n = n + excluded.n`, counterExpired, n); err != nil {
			return fmt.Errorf("frontier: reclaim leases: %w", err)
		}
	}
	return nil
}

// pick walks the queue in priority order and takes what the request allows
// (LeaseRequest.Room, host by host). The queue index holds the reserve
// after every other queued URL: the walk reaches it only when nothing else
// is queued.
func pick(ctx context.Context, tx *sql.Tx, r LeaseRequest, now time.Time) ([]leaseRow, error) {
	// Rows of hosts that may not take more are skipped, so look further
	// down than N.
	limit := r.N*scanFactor + scanExtra
	rows, err := tx.QueryContext(ctx, sq(`SELECT id, host_id, url, priority, depth, parent_id, anchor, inherited, meta, reserve
		FROM urls WHERE state = {queued} ORDER BY reserve, priority DESC, depth, id LIMIT ?`), limit)
	if err != nil {
		return nil, fmt.Errorf("frontier: lease: %w", err)
	}
	defer rows.Close()
	loads, err := newHostLoads(ctx, tx, r, now)
	if err != nil {
		return nil, err
	}
	defer loads.close()
	ms := now.UnixMilli()
	var picked []leaseRow
	others, reserveOK := false, false // a URL outside the reserve was queued; the reserve may go out
	for rows.Next() && len(picked) < r.N {
		var p leaseRow
		if err := rows.Scan(&p.id, &p.hostID, &p.url, &p.priority, &p.depth, &p.parentID, &p.anchor, &p.inherited, &p.meta, &p.reserve); err != nil {
			return nil, fmt.Errorf("frontier: lease: %w", err)
		}
		if !p.reserve {
			others = true
		} else if others || !r.Reserve {
			break
		} else if !reserveOK {
			// The first row of the reserve: may it go out at all?
			out, err := runningOutsideReserve(ctx, tx)
			if err != nil || out {
				return nil, err
			}
			reserveOK = true
		}
		h, err := loads.of(p.hostID)
		if err != nil {
			return nil, err
		}
		if r.Room(*h, ms) == 0 {
			continue
		}
		loads.take(p.hostID)
		picked = append(picked, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("frontier: lease: %w", err)
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("frontier: lease: %w", err)
	}
	return picked, loads.leased(tx, r, ms)
}

// runningOutsideReserve tells whether a lease of a URL outside the reserve
// runs (through the partial index urls_lease: the in-flight URLs alone).
// Its page may bring links above the reserve, so the reserve waits.
func runningOutsideReserve(ctx context.Context, tx *sql.Tx) (bool, error) {
	var out bool
	err := tx.QueryRowContext(ctx, sq(`SELECT EXISTS (SELECT 1 FROM urls WHERE state = {leased} AND lease_until > ? AND reserve = 0)`),
		time.Now().UnixMilli()).Scan(&out)
	if err != nil {
		return false, fmt.Errorf("frontier: lease: running leases: %w", err)
	}
	return out, nil
}

// siteOf gives the site key of a host, from a cache.
func (s *SQLiteStore) siteOf(ctx context.Context, tx *sql.Tx, hostID int64) (string, error) {
	s.mu.Lock()
	site, ok := s.sites[hostID]
	s.mu.Unlock()
	if ok {
		return site, nil
	}
	if err := tx.QueryRowContext(ctx, `SELECT site FROM hosts WHERE id = ?`, hostID).Scan(&site); err != nil {
		return "", fmt.Errorf("frontier: host %d: %w", hostID, err)
	}
	s.mu.Lock()
	s.sites[hostID] = site
	s.mu.Unlock()
	return site, nil
}

// Renew extends to until the running leases of owner taken less than
// maxAge ago, so a live crawl loop's pages never expire in a slow pipe; a
// crashed loop stops renewing and its leases run out.
func (s *SQLiteStore) Renew(ctx context.Context, owner int64, until time.Time, maxAge time.Duration) (int, error) {
	if s.db == nil {
		return 0, ErrClosed
	}
	now := time.Now()
	res, err := s.db.ExecContext(ctx, sq(`UPDATE urls SET lease_until = ?
		WHERE state = {leased} AND lease_until > ? AND lease_owner = ? AND leased_at > ?`),
		until.UnixMilli(), now.UnixMilli(), owner, now.Add(-maxAge).UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("frontier: renew leases: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// Holding counts the running leases held by owner.
func (s *SQLiteStore) Holding(ctx context.Context, owner int64) (int, error) {
	if s.db == nil {
		return 0, ErrClosed
	}
	var n int
	err := s.db.QueryRowContext(ctx, sq(`SELECT count(*) FROM urls WHERE state = {leased} AND lease_until > ? AND lease_owner = ?`),
		time.Now().UnixMilli(), owner).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("frontier: count leases: %w", err)
	}
	return n, nil
}

// Release queues every leased URL again, expired or not, for a crawl that
// restarts knowing no other process still holds its leases.
func (s *SQLiteStore) Release(ctx context.Context) (int, error) {
	if s.db == nil {
		return 0, ErrClosed
	}
	res, err := s.db.ExecContext(ctx, `UPDATE urls SET state = `+parkedStateSQL+sq(`, leased_at = NULL, lease_until = NULL, lease_owner = NULL WHERE state = {leased}`))
	if err != nil {
		return 0, fmt.Errorf("frontier: release leases: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// Counts tells whether any URL is queued outside the reserve (or held by
// an expired lease, or waiting for a retry, or due as the probe of a
// parked host), whether any lease is still running and whether the
// reserve holds a URL, and reads the requeued counter. All use
// partial indexes, so polling is cheap whatever the size of the frontier.
func (s *SQLiteStore) Counts(ctx context.Context) (Counts, error) {
	var c Counts
	if s.db == nil {
		return c, ErrClosed
	}
	now := time.Now().UnixMilli()
	err := s.db.QueryRowContext(ctx, sq(`SELECT
		EXISTS (SELECT 1 FROM urls WHERE state = {queued} AND reserve = 0) OR EXISTS (SELECT 1 FROM urls WHERE state = {leased} AND lease_until <= ?1)
		  OR EXISTS (SELECT 1 FROM urls WHERE state = {waiting})
		  OR EXISTS (SELECT 1 FROM host_state h WHERE parked = {host-parked} AND retry_at <= ?1
		             AND EXISTS (SELECT 1 FROM urls u WHERE u.host_id = h.host_id AND u.state = {parked})),
		EXISTS (SELECT 1 FROM urls WHERE state = {leased} AND lease_until > ?1),
		coalesce((SELECT n FROM counters WHERE name = ?2), 0),
		EXISTS (SELECT 1 FROM urls WHERE state = {queued} AND reserve = 1)`), now, counterRequeued).Scan(&c.Queued, &c.Leased, &c.Requeued, &c.Reserve)
	if err != nil {
		return c, fmt.Errorf("frontier: counts: %w", err)
	}
	return c, nil
}

// Progress counts the URLs fetched (the hosts' figures, so it costs one
// row per host) and the running leases (through the partial index).
func (s *SQLiteStore) Progress(ctx context.Context) (Progress, error) {
	var p Progress
	if s.db == nil {
		return p, ErrClosed
	}
	// A redirect's target is done with its URL, in one fetch.
	err := s.db.QueryRowContext(ctx, sq(`SELECT (SELECT coalesce(sum(fetched), 0) FROM hosts)
		  - coalesce((SELECT n FROM counters WHERE name = ?2), 0),
		(SELECT count(*) FROM urls WHERE state = {leased} AND lease_until > ?1)`), time.Now().UnixMilli(), counterRedirected).Scan(&p.Fetched, &p.Running)
	if err != nil {
		return p, fmt.Errorf("frontier: progress: %w", err)
	}
	return p, nil
}
