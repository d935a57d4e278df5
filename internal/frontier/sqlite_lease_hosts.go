package frontier

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Host state at lease time: waking waiting URLs and due probes, and
// holding a host never heard from to one URL out.

// wake queues again, at lease time, the waiting URLs whose retry time
// has come, and for each parked host whose retry time has come and that
// has no URL out, its best held URL as a probe.
func wake(ctx context.Context, tx *sql.Tx, now time.Time) error {
	ms := now.UnixMilli()
	if _, err := tx.ExecContext(ctx, sq(`UPDATE urls SET state = {queued}, retry_at = NULL WHERE state = {waiting} AND retry_at <= ?`), ms); err != nil {
		return fmt.Errorf("frontier: wake retries: %w", err)
	}
	rows, err := tx.QueryContext(ctx, sq(`SELECT host_id, wait_ms FROM host_state WHERE parked = {host-parked} AND retry_at <= ?`), ms)
	if err != nil {
		return fmt.Errorf("frontier: wake hosts: %w", err)
	}
	type due struct{ host, waitMS int64 }
	var hosts []due
	for rows.Next() {
		var d due
		if err := rows.Scan(&d.host, &d.waitMS); err != nil {
			rows.Close()
			return fmt.Errorf("frontier: wake hosts: %w", err)
		}
		hosts = append(hosts, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("frontier: wake hosts: %w", err)
	}
	for _, d := range hosts {
		var out int
		if err := tx.QueryRowContext(ctx, sq(`SELECT count(*) FROM urls WHERE host_id = ? AND state IN ({queued}, {leased})`), d.host).Scan(&out); err != nil {
			return fmt.Errorf("frontier: wake hosts: %w", err)
		}
		if out > 0 {
			continue // a probe is out already
		}
		var probe int64
		err := tx.QueryRowContext(ctx, sq(`SELECT id FROM urls WHERE host_id = ? AND state = {parked}
			ORDER BY priority DESC, depth, id LIMIT 1`), d.host).Scan(&probe)
		if errors.Is(err, sql.ErrNoRows) {
			continue // nothing held: the host waits for new URLs
		}
		if err != nil {
			return fmt.Errorf("frontier: wake hosts: %w", err)
		}
		if _, err := tx.ExecContext(ctx, sq(`UPDATE urls SET state = {queued} WHERE id = ?`), probe); err != nil {
			return fmt.Errorf("frontier: wake hosts: %w", err)
		}
		next := ProbeSent(HostStatus{Mode: HostParked, Wait: d.waitMS}, ms)
		if _, err := tx.ExecContext(ctx, `UPDATE host_state SET probe_id = ?, retry_at = ? WHERE host_id = ?`,
			probe, next.RetryAt, d.host); err != nil {
			return fmt.Errorf("frontier: wake hosts: %w", err)
		}
	}
	return nil
}

// parkedStateSQL is the state an expired or released lease goes back to:
// parked when its host is.
var parkedStateSQL = sq(`CASE WHEN host_id IN (SELECT host_id FROM host_state WHERE parked = {host-parked}) THEN {parked} ELSE {queued} END`)

// firstContact holds a host back to one URL out at a time until a page of
// it has come back: a host that turns out down (an unknown name, a dead
// server, robots.txt unreachable) then costs one lease before it is
// parked, not as many as the per-host bound and the in-flight window let
// out before the first failure returns.
type firstContact struct {
	ctx   context.Context
	st    *sql.Stmt
	err   error
	hosts map[int64]*contact
}

type contact struct {
	answered bool // a page of the host came back (done or failed)
	out      int  // URLs of the host out, when not answered
}

func newFirstContact(ctx context.Context, tx *sql.Tx, on bool) *firstContact {
	if !on {
		return &firstContact{}
	}
	st, err := tx.PrepareContext(ctx, sq(`SELECT fetched > 0, (SELECT count(*) FROM urls WHERE host_id = ?1 AND state = {leased})
		FROM hosts WHERE id = ?1`))
	return &firstContact{ctx: ctx, st: st, err: err, hosts: map[int64]*contact{}}
}

// admit tells whether one more URL of the host may go out.
func (f *firstContact) admit(hostID int64) (bool, error) {
	if f.hosts == nil {
		return true, nil
	}
	if f.err != nil {
		return false, fmt.Errorf("frontier: lease: %w", f.err)
	}
	c := f.hosts[hostID]
	if c == nil {
		c = &contact{}
		if err := f.st.QueryRowContext(f.ctx, hostID).Scan(&c.answered, &c.out); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return false, fmt.Errorf("frontier: lease: %w", err)
		}
		f.hosts[hostID] = c
	}
	if c.answered {
		return true, nil
	}
	if c.out > 0 {
		return false, nil
	}
	c.out++
	return true, nil
}

func (f *firstContact) close() {
	if f.st != nil {
		f.st.Close()
	}
}
