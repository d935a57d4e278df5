package frontier

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// Host admin on PostgreSQL: seed peek, seed requeue and the parked-host
// summary, as on SQLite (sqlite_host_queries.go).

// parkedHosts lists the parked and given-up hosts, parked first, then by
// the URLs they hold.
func (s *PostgresStore) parkedHosts(ctx context.Context) ([]ParkedHost, error) {
	rows, err := s.query(ctx, sq(`SELECT h.host, coalesce(st.reason, ''), coalesce(st.since, 0), coalesce(st.retry_at, 0),
		  st.tries, st.parked,
		  (SELECT count(*) FROM urls u WHERE u.host_id = st.host_id AND u.state = CASE st.parked WHEN {host-parked} THEN {parked} ELSE {failed} END) AS n
		FROM host_state st JOIN hosts h ON h.id = st.host_id
		WHERE st.parked IN ({host-parked}, {host-given-up}) ORDER BY st.parked, n DESC, h.host`))
	if err != nil {
		return nil, fmt.Errorf("frontier: stats: parked hosts: %w", err)
	}
	out := []ParkedHost{}
	var p ParkedHost
	var since, retry int64
	var parked HostMode
	_, err = pgx.ForEachRow(rows, []any{&p.Host, &p.Reason, &since, &retry, &p.Tries, &parked, &p.URLs}, func() error {
		q := p
		if since > 0 {
			q.Since = time.UnixMilli(since).UTC()
		}
		q.GivenUp = parked == HostGivenUp
		if !q.GivenUp && retry > 0 {
			q.NextRetry = time.UnixMilli(retry).UTC()
		}
		out = append(out, q)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("frontier: stats: parked hosts: %w", err)
	}
	return out, nil
}

// Peek lists the next n URLs in lease order without leasing them.
func (s *PostgresStore) Peek(ctx context.Context, n int) ([]QueuedURL, error) {
	if s.pool == nil {
		return nil, ErrClosed
	}
	rows, err := s.query(ctx, sq(`SELECT u.url, h.host, u.priority, u.depth, u.tries,
		  EXISTS (SELECT 1 FROM host_state st WHERE st.host_id = u.host_id AND st.parked = {host-parked}), u.reserve
		FROM urls u JOIN hosts h ON h.id = u.host_id
		WHERE u.id IN (
		  SELECT id FROM (SELECT id FROM urls WHERE state = {queued} ORDER BY reserve, priority DESC, depth, id LIMIT $1) q
		  UNION ALL SELECT id FROM urls WHERE state = {leased} AND lease_until <= $2
		  UNION ALL SELECT id FROM urls WHERE state = {waiting} AND retry_at <= $2)
		ORDER BY u.reserve, u.priority DESC, u.depth, u.id LIMIT $1`), n, time.Now().UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("frontier: peek: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (QueuedURL, error) {
		var q QueuedURL
		return q, row.Scan(&q.URL, &q.Host, &q.Priority, &q.Depth, &q.Tries, &q.Parked, &q.Reserve)
	})
	if err != nil {
		return nil, fmt.Errorf("frontier: peek: %w", err)
	}
	return out, nil
}

// Requeue puts back in the queue the failed URLs that match f, and
// releases the parked or given-up hosts that match it, as the SQLite
// store does. The hosts' state rows are locked, as Apply locks them.
func (s *PostgresStore) Requeue(ctx context.Context, f RequeueFilter) (Requeued, error) {
	var res Requeued
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		res = Requeued{}
		var hostID int64
		if f.Host != "" {
			err := tx.QueryRow(ctx, `SELECT id FROM hosts WHERE host = $1`, f.Host).Scan(&hostID)
			if errors.Is(err, pgx.ErrNoRows) {
				return nil
			}
			if err != nil {
				return err
			}
		}
		rows, err := tx.Query(ctx, sq(`SELECT host_id, coalesce(reason, '') FROM host_state
			WHERE parked IN ({host-parked}, {host-given-up}) AND ($1 = 0 OR host_id = $1) ORDER BY host_id FOR UPDATE`), hostID)
		if err != nil {
			return err
		}
		var hosts []int64
		var id int64
		var reason string
		if _, err := pgx.ForEachRow(rows, []any{&id, &reason}, func() error {
			if f.Kind == "" || MatchKind(reason, f.Kind) {
				hosts = append(hosts, id)
			}
			return nil
		}); err != nil {
			return err
		}
		for _, id := range hosts {
			if _, err := tx.Exec(ctx, sq(`UPDATE host_state SET parked = {host-up}, reason = NULL, since = NULL, retry_at = NULL,
				wait_ms = 0, tries = 0, timeouts = 0, probe_id = NULL WHERE host_id = $1`), id); err != nil {
				return err
			}
			tag, err := tx.Exec(ctx, pgUpdateURLs(`state = {queued}, retry_at = NULL, tries = 0`, `host_id = $1 AND state = {parked}`), id)
			if err != nil {
				return err
			}
			res.Held += int(tag.RowsAffected())
			res.Hosts++
		}
		rows, err = tx.Query(ctx, sq(`SELECT u.id, u.host_id, h.host, coalesce(u.error, ''), u.fetched_at IS NOT NULL
			FROM urls u JOIN hosts h ON h.id = u.host_id
			WHERE u.state = {failed} AND ($1 = 0 OR u.host_id = $1)`), hostID)
		if err != nil {
			return err
		}
		var ids, unfetch []int64
		var host int64
		var hostName, msg string
		var fetched bool
		erased := map[string]int64{} // the error history this requeue takes off, by counter
		if _, err := pgx.ForEachRow(rows, []any{&id, &host, &hostName, &msg, &fetched}, func() error {
			if f.Kind == "" || MatchKind(msg, f.Kind) {
				erased[requeuedErrorCounter(hostName, msg)]++
				ids = append(ids, id)
				if fetched {
					unfetch = append(unfetch, host)
				}
			}
			return nil
		}); err != nil {
			return err
		}
		if len(ids) == 0 {
			return nil
		}
		unmark := ""
		if s.redirect {
			unmark = ", redirect = false" // fetched again, it is a page of its own
		}
		if _, err := tx.Exec(ctx, pgUpdateURLs(`state = `+pgParkedState+`, error = NULL, status = NULL, fetched_at = NULL,
			score = NULL, relevant = NULL, tries = 0, retry_at = NULL`+unmark, `id = ANY($1)`), ids); err != nil {
			return err
		}
		// Host rows and counters in key order, as Apply writes them.
		if _, err := tx.Exec(ctx, `WITH l AS (SELECT id FROM hosts WHERE id = ANY($1) ORDER BY id FOR UPDATE)
			UPDATE hosts h SET fetched = greatest(h.fetched - n.c, 0)
			FROM (SELECT x, count(*) AS c FROM unnest($1::bigint[]) AS x GROUP BY x) n JOIN l ON l.id = n.x
			WHERE h.id = n.x`, unfetch); err != nil {
			return err
		}
		for _, name := range slices.Sorted(maps.Keys(erased)) {
			if _, err := tx.Exec(ctx, `INSERT INTO counters (name, n) VALUES ($1, $2)
				ON CONFLICT (name) DO UPDATE SET n = counters.n + excluded.n`, name, erased[name]); err != nil {
				return err
			}
		}
		res.URLs = len(ids)
		return nil
	})
	if err != nil {
		return Requeued{}, fmt.Errorf("frontier: requeue: %w", err)
	}
	return res, nil
}

// ParkedSummary counts the parked hosts, the URLs they hold and the time
// of the next probe (zero when none is parked).
func (s *PostgresStore) ParkedSummary(ctx context.Context) (hosts, urls int64, next time.Time, err error) {
	if s.pool == nil {
		return 0, 0, next, ErrClosed
	}
	var at int64
	err = s.queryRow(ctx, sq(`SELECT count(*), coalesce(min(retry_at), 0),
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
