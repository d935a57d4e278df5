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

// hostLoads gives a lease call what it knows of each host (HostLoad),
// read only as far as the request's bounds need: the running leases by
// host and worker (through the partial index urls_lease: the in-flight
// URLs alone) for HostLimit and FirstContact, whether a page came back
// for FirstContact, the last lease for HostGap.
type hostLoads struct {
	ctx              context.Context
	hosts            map[int64]*HostLoad
	answered, latest *sql.Stmt
	read             map[int64]bool // hosts whose own rows were read
	taken            []int64        // hosts with URLs taken, in order
}

func newHostLoads(ctx context.Context, tx *sql.Tx, r LeaseRequest, now time.Time) (*hostLoads, error) {
	l := &hostLoads{ctx: ctx, hosts: map[int64]*HostLoad{}, read: map[int64]bool{}}
	fail := func(err error) (*hostLoads, error) {
		l.close()
		return nil, fmt.Errorf("frontier: lease: host loads: %w", err)
	}
	if r.HostLimit > 0 || r.OwnHostLimit > 0 || r.FirstContact || r.HostGap > 0 {
		rows, err := tx.QueryContext(ctx, sq(`SELECT host_id, coalesce(lease_owner, 0), count(*) FROM urls
			WHERE state = {leased} AND lease_until > ? GROUP BY host_id, lease_owner`), now.UnixMilli())
		if err != nil {
			return fail(err)
		}
		for rows.Next() {
			var host, owner int64
			var n int
			if err := rows.Scan(&host, &owner, &n); err != nil {
				rows.Close()
				return fail(err)
			}
			h := l.load(host)
			h.Running += n
			h.Workers++
			if owner == r.Owner {
				h.Mine += n
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fail(err)
		}
	}
	var err error
	if r.FirstContact {
		if l.answered, err = tx.PrepareContext(ctx, `SELECT fetched > 0 FROM hosts WHERE id = ?`); err != nil {
			return fail(err)
		}
	}
	if r.HostGap > 0 {
		if l.latest, err = tx.PrepareContext(ctx, `SELECT owner, at FROM host_lease WHERE host_id = ?`); err != nil {
			return fail(err)
		}
	}
	return l, nil
}

func (l *hostLoads) load(host int64) *HostLoad {
	h := l.hosts[host]
	if h == nil {
		h = &HostLoad{}
		l.hosts[host] = h
	}
	return h
}

// of gives the load of a host, reading what the request needs the first
// time the host is met.
func (l *hostLoads) of(host int64) (*HostLoad, error) {
	h := l.load(host)
	if l.read[host] {
		return h, nil
	}
	l.read[host] = true
	if l.answered != nil {
		if err := l.answered.QueryRowContext(l.ctx, host).Scan(&h.Answered); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("frontier: lease: %w", err)
		}
	}
	if l.latest != nil {
		if err := l.latest.QueryRowContext(l.ctx, host).Scan(&h.LastOwner, &h.LastLease); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("frontier: lease: %w", err)
		}
	}
	return h, nil
}

// take counts a URL of the host taken by this call.
func (l *hostLoads) take(host int64) {
	h := l.load(host)
	if h.Taken == 0 {
		l.taken = append(l.taken, host)
	}
	h.Taken++
}

// leased records, for a request with a HostGap, which worker leased each
// host taken and when.
func (l *hostLoads) leased(tx *sql.Tx, r LeaseRequest, now int64) error {
	if r.HostGap <= 0 || len(l.taken) == 0 {
		return nil
	}
	st, err := tx.PrepareContext(l.ctx, `INSERT INTO host_lease (host_id, owner, at) VALUES (?1, ?2, ?3)
		ON CONFLICT (host_id) DO UPDATE SET owner = ?2, at = ?3`)
	if err != nil {
		return fmt.Errorf("frontier: lease: %w", err)
	}
	defer st.Close()
	for _, host := range l.taken {
		if _, err := st.ExecContext(l.ctx, host, r.Owner, now); err != nil {
			return fmt.Errorf("frontier: lease: %w", err)
		}
	}
	return nil
}

func (l *hostLoads) close() {
	for _, st := range []*sql.Stmt{l.answered, l.latest} {
		if st != nil {
			st.Close()
		}
	}
}
