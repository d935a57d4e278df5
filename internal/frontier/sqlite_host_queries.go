package frontier

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Queries and requeues over parked hosts and the queue.

// parkedHosts lists the parked and given-up hosts, parked first, then by
// the URLs they hold.
func (s *SQLiteStore) parkedHosts(ctx context.Context) ([]ParkedHost, error) {
	rows, err := s.db.QueryContext(ctx, sq(`SELECT h.host, coalesce(st.reason, ''), coalesce(st.since, 0), coalesce(st.retry_at, 0),
		  st.tries, st.parked,
		  (SELECT count(*) FROM urls u WHERE u.host_id = st.host_id AND u.state = CASE st.parked WHEN {host-parked} THEN {parked} ELSE {failed} END)
		FROM host_state st JOIN hosts h ON h.id = st.host_id
		WHERE st.parked IN ({host-parked}, {host-given-up}) ORDER BY st.parked, 7 DESC, h.host`))
	if err != nil {
		return nil, fmt.Errorf("frontier: stats: parked hosts: %w", err)
	}
	defer rows.Close()
	out := []ParkedHost{}
	for rows.Next() {
		var p ParkedHost
		var since, retry int64
		var parked HostMode
		if err := rows.Scan(&p.Host, &p.Reason, &since, &retry, &p.Tries, &parked, &p.URLs); err != nil {
			return nil, fmt.Errorf("frontier: stats: parked hosts: %w", err)
		}
		if since > 0 {
			p.Since = time.UnixMilli(since).UTC()
		}
		p.GivenUp = parked == HostGivenUp
		if !p.GivenUp && retry > 0 {
			p.NextRetry = time.UnixMilli(retry).UTC()
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("frontier: stats: parked hosts: %w", err)
	}
	return out, nil
}

// Peek lists the next n URLs in lease order (the reserve last; priority,
// depth, age) without leasing them: the queued ones, expired leases and
// retries that are due included; per-host bounds left aside.
func (s *SQLiteStore) Peek(ctx context.Context, n int) ([]QueuedURL, error) {
	if s.db == nil {
		return nil, ErrClosed
	}
	now := time.Now().UnixMilli()
	rows, err := s.db.QueryContext(ctx, sq(`SELECT u.url, h.host, u.priority, u.depth, u.tries,
		  EXISTS (SELECT 1 FROM host_state st WHERE st.host_id = u.host_id AND st.parked = {host-parked}), u.reserve
		FROM urls u JOIN hosts h ON h.id = u.host_id
		WHERE u.id IN (
		  SELECT id FROM (SELECT id FROM urls WHERE state = {queued} ORDER BY reserve, priority DESC, depth, id LIMIT ?1)
		  UNION ALL SELECT id FROM urls WHERE state = {leased} AND lease_until <= ?2
		  UNION ALL SELECT id FROM urls WHERE state = {waiting} AND retry_at <= ?2)
		ORDER BY u.reserve, u.priority DESC, u.depth, u.id LIMIT ?1`), n, now)
	if err != nil {
		return nil, fmt.Errorf("frontier: peek: %w", err)
	}
	defer rows.Close()
	var out []QueuedURL
	for rows.Next() {
		var q QueuedURL
		if err := rows.Scan(&q.URL, &q.Host, &q.Priority, &q.Depth, &q.Tries, &q.Parked, &q.Reserve); err != nil {
			return nil, fmt.Errorf("frontier: peek: %w", err)
		}
		out = append(out, q)
	}
	return out, rows.Err()
}

// Requeue puts back in the queue the failed URLs that match f, and
// releases the parked or given-up hosts that match it (their reason of
// kind f.Kind, their name f.Host): their held URLs are queued again at
// once. A requeued URL starts afresh: no error, no tries, and it leaves
// the fetched figures.
func (s *SQLiteStore) Requeue(ctx context.Context, f RequeueFilter) (Requeued, error) {
	var res Requeued
	if s.db == nil {
		return res, ErrClosed
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("frontier: requeue: %w", err)
	}
	defer tx.Rollback()
	var hostID int64
	if f.Host != "" {
		err := tx.QueryRowContext(ctx, `SELECT id FROM hosts WHERE host = ?`, f.Host).Scan(&hostID)
		if errors.Is(err, sql.ErrNoRows) {
			return res, nil
		}
		if err != nil {
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
	}
	// Hosts first, so that their URLs failed on give-up are requeued
	// into a host that is up again.
	rows, err := tx.QueryContext(ctx, sq(`SELECT host_id, coalesce(reason, '') FROM host_state WHERE parked IN ({host-parked}, {host-given-up}) AND (?1 = 0 OR host_id = ?1)`), hostID)
	if err != nil {
		return res, fmt.Errorf("frontier: requeue: %w", err)
	}
	var hosts []int64
	for rows.Next() {
		var id int64
		var reason string
		if err := rows.Scan(&id, &reason); err != nil {
			rows.Close()
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
		if f.Kind == "" || MatchKind(reason, f.Kind) {
			hosts = append(hosts, id)
		}
	}
	rows.Close()
	for _, id := range hosts {
		if _, err := tx.ExecContext(ctx, sq(`UPDATE host_state SET parked = {host-up}, reason = NULL, since = NULL, retry_at = NULL,
			wait_ms = 0, tries = 0, timeouts = 0, probe_id = NULL WHERE host_id = ?`), id); err != nil {
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
		r, err := tx.ExecContext(ctx, sq(`UPDATE urls SET state = {queued}, retry_at = NULL, tries = 0 WHERE host_id = ? AND state = {parked}`), id)
		if err != nil {
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
		n, _ := r.RowsAffected()
		res.Held += int(n)
		res.Hosts++
	}
	rows, err = tx.QueryContext(ctx, sq(`SELECT u.id, u.host_id, h.host, coalesce(u.error, ''), u.fetched_at IS NOT NULL
		FROM urls u JOIN hosts h ON h.id = u.host_id
		WHERE u.state = {failed} AND (?1 = 0 OR u.host_id = ?1)`), hostID)
	if err != nil {
		return res, fmt.Errorf("frontier: requeue: %w", err)
	}
	type back struct {
		id, host int64
		fetched  bool
	}
	var urls []back
	erased := map[string]int64{} // the error history this requeue takes off, by counter
	for rows.Next() {
		var b back
		var host, msg string
		if err := rows.Scan(&b.id, &b.host, &host, &msg, &b.fetched); err != nil {
			rows.Close()
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
		if f.Kind == "" || MatchKind(msg, f.Kind) {
			urls = append(urls, b)
			erased[requeuedErrorCounter(host, msg)]++
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("frontier: requeue: %w", err)
	}
	up, err := tx.PrepareContext(ctx, `UPDATE urls SET state = `+parkedStateSQL+`, error = NULL, status = NULL, fetched_at = NULL,
		score = NULL, relevant = NULL, tries = 0, retry_at = NULL, redirect = 0 WHERE id = ?`)
	if err != nil {
		return res, fmt.Errorf("frontier: requeue: %w", err)
	}
	defer up.Close()
	unfetch, err := tx.PrepareContext(ctx, `UPDATE hosts SET fetched = max(fetched - 1, 0) WHERE id = ?`)
	if err != nil {
		return res, fmt.Errorf("frontier: requeue: %w", err)
	}
	defer unfetch.Close()
	for _, b := range urls {
		if _, err := up.ExecContext(ctx, b.id); err != nil {
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
		if b.fetched {
			if _, err := unfetch.ExecContext(ctx, b.host); err != nil {
				return res, fmt.Errorf("frontier: requeue: %w", err)
			}
		}
	}
	for name, n := range erased {
		if _, err := tx.ExecContext(ctx, `INSERT INTO counters (name, n) VALUES (?, ?)
			ON CONFLICT (name) DO UPDATE SET n = n + excluded.n`, name, n); err != nil {
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
	}
	res.URLs = len(urls)
	if err := tx.Commit(); err != nil {
		return res, fmt.Errorf("frontier: requeue: commit: %w", err)
	}
	return res, nil
}

// ParkedSummary counts the parked hosts, the URLs they hold and the time
// of the next probe (zero when none is parked).
func (s *SQLiteStore) ParkedSummary(ctx context.Context) (hosts, urls int64, next time.Time, err error) {
	if s.db == nil {
		return 0, 0, next, ErrClosed
	}
	var at int64
	err = s.db.QueryRowContext(ctx, sq(`SELECT count(*), coalesce(min(retry_at), 0),
		  coalesce((SELECT count(*) FROM urls WHERE state = {parked}), 0)
		FROM host_state WHERE parked = {host-parked}`)).Scan(&hosts, &at, &urls)
	if err != nil {
		return 0, 0, next, fmt.Errorf("frontier: parked hosts: %w", err)
	}
	if at > 0 {
		next = time.UnixMilli(at)
	}
	return hosts, urls, next, nil
}
