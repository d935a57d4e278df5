package frontier

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/jackc/pgx/v5"
)

// pgParkedState is the state an expired or released lease goes back to:
// parked when its host is.
var pgParkedState = sq(`CASE WHEN EXISTS (SELECT 1 FROM host_state h WHERE h.host_id = urls.host_id AND h.parked = {host-parked})
	THEN {parked} ELSE {queued} END`)

// pgPicked is a queued URL a lease call chose.
type pgPicked struct {
	id, hostID int64
	reserve    bool
}

// Lease hands out up to r.N of the best queued URLs under the per-host
// rule (LeaseRequest.Room), as the SQLite store does. Lease calls of one
// crawl take its advisory lock, so they run one after another over every
// worker: each sees the leases the others took (the host limit, gaps and
// first contact hold across machines), and the UPDATE that marks the
// chosen URLs leased skips any an Apply moved meanwhile.
func (s *PostgresStore) Lease(ctx context.Context, r LeaseRequest) ([]record.URL, error) {
	if s.pool == nil {
		return nil, ErrClosed
	}
	if none, err := r.check(); none || err != nil {
		return nil, err
	}
	var out []record.URL
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		out = nil
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, s.lockKey); err != nil {
			return fmt.Errorf("frontier: lease: lock: %w", err)
		}
		now := time.Now()
		if err := pgReclaim(ctx, tx, now); err != nil {
			return err
		}
		if err := pgWake(ctx, tx, now); err != nil {
			return err
		}
		picked, taken, err := pgPick(ctx, tx, r, now)
		if err != nil || len(picked) == 0 {
			return err
		}
		out, err = pgMarkLeased(ctx, tx, picked, r, now)
		if err != nil {
			return err
		}
		if r.HostGap > 0 && len(taken) > 0 {
			if _, err := tx.Exec(ctx, `INSERT INTO host_lease (host_id, owner, at) SELECT x, $2, $3 FROM unnest($1::bigint[]) AS x
				ON CONFLICT (host_id) DO UPDATE SET owner = $2, at = $3`, taken, r.Owner, now.UnixMilli()); err != nil {
				return fmt.Errorf("frontier: lease: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// pgMarkLeased marks the picked URLs leased and gives them in the order
// picked.
func pgMarkLeased(ctx context.Context, tx pgx.Tx, picked []pgPicked, r LeaseRequest, now time.Time) ([]record.URL, error) {
	ids := make([]int64, len(picked))
	for i, p := range picked {
		ids[i] = p.id
	}
	rows, err := tx.Query(ctx, pgUpdateURLs(`state = {leased}, leased_at = $2, lease_until = $3, lease_owner = $4`,
		`id = ANY($1) AND state = {queued}`)+`
		RETURNING urls.id, urls.url, urls.priority, urls.depth, coalesce(urls.anchor, ''), coalesce(urls.inherited, 0), urls.meta,
		  coalesce((SELECT p.url FROM urls p WHERE p.id = urls.parent_id), ''), (SELECT h.site FROM hosts h WHERE h.id = urls.host_id)`,
		ids, now.UnixMilli(), now.Add(r.For).UnixMilli(), r.Owner)
	if err != nil {
		return nil, fmt.Errorf("frontier: lease: %w", err)
	}
	defer rows.Close()
	got := map[int64]record.URL{}
	for rows.Next() {
		var id int64
		var u record.URL
		var meta *string
		if err := rows.Scan(&id, &u.URL, &u.Priority, &u.Depth, &u.Anchor, &u.Inherited, &meta, &u.Parent, &u.Site); err != nil {
			return nil, fmt.Errorf("frontier: lease: %w", err)
		}
		if meta != nil {
			u.Meta = json.RawMessage(*meta)
		}
		got[id] = u
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("frontier: lease: %w", err)
	}
	out := make([]record.URL, 0, len(got))
	for _, p := range picked {
		if u, ok := got[p.id]; ok {
			out = append(out, u)
		}
	}
	return out, nil
}

// pgReclaim queues again the URLs whose lease ran out.
func pgReclaim(ctx context.Context, tx pgx.Tx, now time.Time) error {
	tag, err := tx.Exec(ctx, pgUpdateURLs(`state = `+pgParkedState+`, leased_at = NULL, lease_until = NULL, lease_owner = NULL`,
		`state = {leased} AND lease_until <= $1`), now.UnixMilli())
	if err != nil {
		return fmt.Errorf("frontier: reclaim leases: %w", err)
	}
	if n := tag.RowsAffected(); n > 0 {
		if _, err := tx.Exec(ctx, `INSERT INTO counters (name, n) VALUES ($1, $2)
			ON CONFLICT (name) DO UPDATE SET n = counters.n + excluded.n`, counterExpired, n); err != nil {
			return fmt.Errorf("frontier: reclaim leases: %w", err)
		}
	}
	return nil
}

// pgWake queues the waiting URLs whose retry time has come, and for each
// parked host whose retry time has come and that has no URL out, its best
// held URL as a probe (as wake does on SQLite). A host whose state an
// Apply holds locked is skipped: the next lease call probes it.
func pgWake(ctx context.Context, tx pgx.Tx, now time.Time) error {
	ms := now.UnixMilli()
	if _, err := tx.Exec(ctx, pgUpdateURLs(`state = {queued}, retry_at = NULL`, `state = {waiting} AND retry_at <= $1`), ms); err != nil {
		return fmt.Errorf("frontier: wake retries: %w", err)
	}
	rows, err := tx.Query(ctx, sq(`SELECT host_id, wait_ms FROM host_state WHERE parked = {host-parked} AND retry_at <= $1
		ORDER BY host_id FOR UPDATE SKIP LOCKED`), ms)
	if err != nil {
		return fmt.Errorf("frontier: wake hosts: %w", err)
	}
	type due struct{ host, waitMS int64 }
	hosts, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (due, error) {
		var d due
		return d, row.Scan(&d.host, &d.waitMS)
	})
	if err != nil {
		return fmt.Errorf("frontier: wake hosts: %w", err)
	}
	for _, d := range hosts {
		var probe int64
		err := tx.QueryRow(ctx, sq(`SELECT id FROM urls WHERE host_id = $1 AND state = {parked}
			AND NOT EXISTS (SELECT 1 FROM urls o WHERE o.host_id = $1 AND o.state IN ({queued}, {leased}))
			ORDER BY priority DESC, depth, id LIMIT 1`), d.host).Scan(&probe)
		if errors.Is(err, pgx.ErrNoRows) {
			continue // a probe is out already, or nothing is held
		}
		if err != nil {
			return fmt.Errorf("frontier: wake hosts: %w", err)
		}
		if _, err := tx.Exec(ctx, sq(`UPDATE urls SET state = {queued} WHERE id = $1`), probe); err != nil {
			return fmt.Errorf("frontier: wake hosts: %w", err)
		}
		next := ProbeSent(HostStatus{Mode: HostParked, Wait: d.waitMS}, ms)
		if _, err := tx.Exec(ctx, `UPDATE host_state SET probe_id = $2, retry_at = $3 WHERE host_id = $1`, d.host, probe, next.RetryAt); err != nil {
			return fmt.Errorf("frontier: wake hosts: %w", err)
		}
	}
	return nil
}

// pgPick walks the queue in priority order and takes what the request
// allows (LeaseRequest.Room, host by host), reading only ids and hosts
// from the queue index; taken lists the hosts it took URLs of.
func pgPick(ctx context.Context, tx pgx.Tx, r LeaseRequest, now time.Time) (picked []pgPicked, taken []int64, err error) {
	// Rows of hosts that may not take more are skipped, so look further
	// down than N; with no per-host bound every row is taken.
	limit := r.N*scanFactor + scanExtra
	if r.PerHost <= 0 && r.HostLimit <= 0 && r.OwnHostLimit <= 0 && r.HostGap <= 0 && !r.FirstContact {
		limit = r.N
	}
	rows, err := tx.Query(ctx, sq(`SELECT id, host_id, reserve FROM urls WHERE state = {queued}
		ORDER BY reserve, priority DESC, depth, id LIMIT $1`), limit)
	if err != nil {
		return nil, nil, fmt.Errorf("frontier: lease: %w", err)
	}
	queue, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (pgPicked, error) {
		var p pgPicked
		return p, row.Scan(&p.id, &p.hostID, &p.reserve)
	})
	if err != nil || len(queue) == 0 {
		return nil, nil, err
	}
	loads, err := pgHostLoads(ctx, tx, r, now, queue)
	if err != nil {
		return nil, nil, err
	}
	ms := now.UnixMilli()
	others, reserveOK := false, false // a URL outside the reserve was queued; the reserve may go out
	for _, p := range queue {
		if len(picked) >= r.N {
			break
		}
		if !p.reserve {
			others = true
		} else if others || !r.Reserve {
			break
		} else if !reserveOK {
			// The first row of the reserve: may it go out at all?
			var out bool
			if err := tx.QueryRow(ctx, sq(`SELECT EXISTS (SELECT 1 FROM urls WHERE state = {leased} AND lease_until > $1 AND NOT reserve)`),
				ms).Scan(&out); err != nil {
				return nil, nil, fmt.Errorf("frontier: lease: running leases: %w", err)
			}
			if out {
				break
			}
			reserveOK = true
		}
		h := loads[p.hostID]
		if h == nil {
			h = &HostLoad{}
			loads[p.hostID] = h
		}
		if r.Room(*h, ms) == 0 {
			continue
		}
		if h.Taken == 0 {
			taken = append(taken, p.hostID)
		}
		h.Taken++
		picked = append(picked, p)
	}
	return picked, taken, nil
}

// pgHostLoads reads what the request's bounds need to know of the hosts
// in the queue walked: the running leases by host and worker, whether a
// page of the host came back, the last lease.
func pgHostLoads(ctx context.Context, tx pgx.Tx, r LeaseRequest, now time.Time, queue []pgPicked) (map[int64]*HostLoad, error) {
	loads := map[int64]*HostLoad{}
	load := func(host int64) *HostLoad {
		h := loads[host]
		if h == nil {
			h = &HostLoad{}
			loads[host] = h
		}
		return h
	}
	fail := func(err error) (map[int64]*HostLoad, error) {
		return nil, fmt.Errorf("frontier: lease: host loads: %w", err)
	}
	if r.HostLimit > 0 || r.OwnHostLimit > 0 || r.FirstContact || r.HostGap > 0 {
		rows, err := tx.Query(ctx, sq(`SELECT host_id, coalesce(lease_owner, 0), count(*) FROM urls
			WHERE state = {leased} AND lease_until > $1 GROUP BY host_id, lease_owner`), now.UnixMilli())
		if err != nil {
			return fail(err)
		}
		var host, owner int64
		var n int
		_, err = pgx.ForEachRow(rows, []any{&host, &owner, &n}, func() error {
			h := load(host)
			h.Running += n
			h.Workers++
			if owner == r.Owner {
				h.Mine += n
			}
			return nil
		})
		if err != nil {
			return fail(err)
		}
	}
	if !r.FirstContact && r.HostGap <= 0 {
		return loads, nil
	}
	var ids []int64
	for _, p := range queue {
		ids = append(ids, p.hostID)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if r.FirstContact {
		rows, err := tx.Query(ctx, `SELECT id FROM hosts WHERE id = ANY($1) AND fetched > 0`, ids)
		if err != nil {
			return fail(err)
		}
		var host int64
		if _, err := pgx.ForEachRow(rows, []any{&host}, func() error {
			load(host).Answered = true
			return nil
		}); err != nil {
			return fail(err)
		}
	}
	if r.HostGap > 0 {
		rows, err := tx.Query(ctx, `SELECT host_id, owner, at FROM host_lease WHERE host_id = ANY($1)`, ids)
		if err != nil {
			return fail(err)
		}
		var host, owner, at int64
		if _, err := pgx.ForEachRow(rows, []any{&host, &owner, &at}, func() error {
			h := load(host)
			h.LastOwner, h.LastLease = owner, at
			return nil
		}); err != nil {
			return fail(err)
		}
	}
	return loads, nil
}
