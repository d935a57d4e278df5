package frontier

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// The PostgreSQL store's small operations: lease upkeep and the counts a
// follower polls. Each is one statement.

// Renew extends to until the running leases of owner taken less than
// maxAge ago.
func (s *PostgresStore) Renew(ctx context.Context, owner int64, until time.Time, maxAge time.Duration) (int, error) {
	if s.pool == nil {
		return 0, ErrClosed
	}
	now := time.Now()
	n, err := s.execTx(ctx, pgUpdateURLs(`lease_until = $1`, `state = {leased} AND lease_until > $2 AND lease_owner = $3 AND leased_at > $4`),
		until.UnixMilli(), now.UnixMilli(), owner, now.Add(-maxAge).UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("frontier: renew leases: %w", err)
	}
	return n, nil
}

// execTx runs one statement that updates many rows in a transaction of
// its own, run again after a deadlock. Its rows are locked in id order
// (pgUpdateURLs), as every other statement's are, so none is expected;
// another transaction that took URL rows in two statements can still
// meet it in one.
func (s *PostgresStore) execTx(ctx context.Context, query string, args ...any) (int, error) {
	var n int
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, query, args...)
		n = int(tag.RowsAffected())
		return err
	})
	return n, err
}

// Holding counts the running leases held by owner.
func (s *PostgresStore) Holding(ctx context.Context, owner int64) (int, error) {
	if s.pool == nil {
		return 0, ErrClosed
	}
	var n int
	err := s.queryRow(ctx, sq(`SELECT count(*) FROM urls WHERE state = {leased} AND lease_until > $1 AND lease_owner = $2`),
		time.Now().UnixMilli(), owner).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("frontier: count leases: %w", err)
	}
	return n, nil
}

// Release queues every leased URL again, expired or not.
func (s *PostgresStore) Release(ctx context.Context) (int, error) {
	if s.pool == nil {
		return 0, ErrClosed
	}
	n, err := s.execTx(ctx, pgUpdateURLs(`state = `+pgParkedState+`, leased_at = NULL, lease_until = NULL, lease_owner = NULL`,
		`state = {leased}`))
	if err != nil {
		return 0, fmt.Errorf("frontier: release leases: %w", err)
	}
	return n, nil
}

// Counts tells whether any URL is queued outside the reserve (or held by
// an expired lease, waiting for a retry, or due as a probe), whether a
// lease runs and whether the reserve holds a URL, through the partial
// indexes; and reads the requeued counter.
func (s *PostgresStore) Counts(ctx context.Context) (Counts, error) {
	var c Counts
	if s.pool == nil {
		return c, ErrClosed
	}
	err := s.queryRow(ctx, sq(`SELECT
		EXISTS (SELECT 1 FROM urls WHERE state = {queued} AND NOT reserve) OR EXISTS (SELECT 1 FROM urls WHERE state = {leased} AND lease_until <= $1)
		  OR EXISTS (SELECT 1 FROM urls WHERE state = {waiting})
		  OR EXISTS (SELECT 1 FROM host_state h WHERE parked = {host-parked} AND retry_at <= $1
		             AND EXISTS (SELECT 1 FROM urls u WHERE u.host_id = h.host_id AND u.state = {parked})),
		EXISTS (SELECT 1 FROM urls WHERE state = {leased} AND lease_until > $1),
		coalesce((SELECT n FROM counters WHERE name = $2), 0),
		EXISTS (SELECT 1 FROM urls WHERE state = {queued} AND reserve)`), time.Now().UnixMilli(), counterRequeued).
		Scan(&c.Queued, &c.Leased, &c.Requeued, &c.Reserve)
	if err != nil {
		return c, fmt.Errorf("frontier: counts: %w", err)
	}
	return c, nil
}

// Progress counts the URLs fetched (the hosts' figures) and the running
// leases.
func (s *PostgresStore) Progress(ctx context.Context) (Progress, error) {
	var p Progress
	if s.pool == nil {
		return p, ErrClosed
	}
	err := s.queryRow(ctx, sq(`SELECT (SELECT coalesce(sum(fetched), 0) FROM hosts)::bigint
		  - coalesce((SELECT n FROM counters WHERE name = $2), 0),
		(SELECT count(*) FROM urls WHERE state = {leased} AND lease_until > $1)`), time.Now().UnixMilli(), counterRedirected).
		Scan(&p.Fetched, &p.Running)
	if err != nil {
		return p, fmt.Errorf("frontier: progress: %w", err)
	}
	return p, nil
}
