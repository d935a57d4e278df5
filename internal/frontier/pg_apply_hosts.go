package frontier

import (
	"errors"
	"fmt"
	"slices"

	"github.com/focuscrawl/focuscrawl/internal/robotsrules"
	"github.com/jackc/pgx/v5"
)

// What an outcome does to its host in Apply on PostgreSQL: the host
// policy (hostpolicy.go) computes each step; this file loads its inputs
// under row locks and writes its result, as the SQLite store does
// (sqlite_host_outcomes.go).

const pgHostColumns = `parked, coalesce(reason, ''), coalesce(since, 0), coalesce(retry_at, 0), wait_ms, tries, timeouts,
	coalesce(probe_id, 0), coalesce(robots, ''), coalesce(robots_agent, '')`

func scanHostState(row pgx.Row, hs *hostState) error {
	var robots, agent string
	if err := row.Scan(&hs.Mode, &hs.Reason, &hs.Since, &hs.RetryAt, &hs.Wait, &hs.Tries, &hs.Timeouts, &hs.probeID, &robots, &agent); err != nil {
		return err
	}
	hs.known = true
	if robots != "" {
		// Rules that no longer parse are no rules: fetch still obeys them.
		hs.rules, _ = robotsrules.New(agent, robots)
	}
	return nil
}

// lockHosts locks the state of every host the outcomes speak for, in the
// order of their ids, before any is read: a second worker's Apply with
// outcomes of one of them waits here until this one commits, then reads
// what it wrote. The rows are made first when missing, so that there is
// a row to lock.
func (a *pgApply) lockHosts(outs []Outcome) error {
	var ids []int64
	for i := range outs {
		hi, err := a.host(outcomeHost(&outs[i]), outs[i].Site)
		if err != nil {
			return err
		}
		ids = append(ids, hi.id)
	}
	if len(ids) == 0 {
		return nil
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if _, err := a.tx.Exec(a.ctx, `INSERT INTO host_state (host_id) SELECT x FROM unnest($1::bigint[]) AS x ORDER BY x
		ON CONFLICT (host_id) DO NOTHING`, ids); err != nil {
		return fmt.Errorf("frontier: lock hosts: %w", err)
	}
	rows, err := a.tx.Query(a.ctx, `SELECT host_id, `+pgHostColumns+` FROM host_state WHERE host_id = ANY($1) ORDER BY host_id FOR UPDATE`, ids)
	if err != nil {
		return fmt.Errorf("frontier: lock hosts: %w", err)
	}
	for rows.Next() {
		var id int64
		hs := &hostState{}
		var robots, agent string
		if err := rows.Scan(&id, &hs.Mode, &hs.Reason, &hs.Since, &hs.RetryAt, &hs.Wait, &hs.Tries, &hs.Timeouts, &hs.probeID, &robots, &agent); err != nil {
			rows.Close()
			return fmt.Errorf("frontier: lock hosts: %w", err)
		}
		hs.known = true
		if robots != "" {
			hs.rules, _ = robotsrules.New(agent, robots)
		}
		a.states[id] = hs
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("frontier: lock hosts: %w", err)
	}
	if f := a.s.afterHostLock; f != nil {
		a.s.afterHostLock = nil
		f()
	}
	return nil
}

// hostState loads the state of a host once per transaction (locked when
// an outcome speaks for it: lockHosts).
func (a *pgApply) hostState(hostID int64) (*hostState, error) {
	if hs, ok := a.states[hostID]; ok {
		return hs, nil
	}
	hs := &hostState{}
	err := scanHostState(a.tx.QueryRow(a.ctx, `SELECT `+pgHostColumns+` FROM host_state WHERE host_id = $1`, hostID), hs)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("frontier: host state: %w", err)
	}
	a.states[hostID] = hs
	return hs, nil
}

// saveHost writes a host's state.
func (a *pgApply) saveHost(hostID int64, hs *hostState) error {
	_, err := a.tx.Exec(a.ctx, `INSERT INTO host_state (host_id, parked, reason, since, retry_at, wait_ms, tries, timeouts, probe_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (host_id) DO UPDATE SET parked = $2, reason = $3, since = $4, retry_at = $5,
		  wait_ms = $6, tries = $7, timeouts = $8, probe_id = $9`,
		hostID, hs.Mode, nullString(hs.Reason), nullInt64(hs.Since), nullInt64(hs.RetryAt), hs.Wait, hs.Tries, hs.Timeouts, nullInt64(hs.probeID))
	if err != nil {
		return fmt.Errorf("frontier: host state: %w", err)
	}
	hs.known = true
	return nil
}

// admit tells what becomes of a new URL of a host (applyTx.admit).
func (a *pgApply) admit(hostID int64, u string) (state State, guard string, err error) {
	hs, err := a.hostState(hostID)
	if err != nil || !hs.known {
		return Queued, "", err
	}
	if hs.rules != nil && !hs.rules.Allows(RobotsPath(u)) {
		return 0, GuardRobots, nil
	}
	switch hs.Mode {
	case HostParked:
		return Parked, "", nil
	case HostGivenUp:
		return 0, GuardHostGivenUp, nil
	}
	return Queued, "", nil
}

// outcome records what became of a fetched URL, or puts it back in the
// queue (back: not recorded as fetched).
func (a *pgApply) outcome(o *Outcome, p RetryPolicy) (back bool, err error) {
	if HostAnswered(o.Error) {
		if err := a.hostUp(o); err != nil {
			return false, err
		}
	}
	if o.Error != "" {
		if back, err = a.failed(o, p); back || err != nil {
			return back, err
		}
	}
	if _, err := a.markDone(o.URL, o.Host, o); err != nil {
		return false, err
	}
	if o.FinalURL != "" && o.FinalURL != o.URL && o.FinalHost != "" {
		fresh, err := a.markDone(o.FinalURL, o.FinalHost, o)
		if err != nil || !fresh {
			return false, err
		}
		a.redirected.add(o)
		if a.s.redirect {
			if _, err := a.tx.Exec(a.ctx, `UPDATE urls SET redirect = true WHERE k = $1`, pgKey(o.FinalURL)); err != nil {
				return false, fmt.Errorf("frontier: record %s: %w", o.FinalURL, err)
			}
		}
		return false, nil
	}
	return false, nil
}

// failed handles an outcome with an error as OutcomeStep says.
func (a *pgApply) failed(o *Outcome, p RetryPolicy) (bool, error) {
	switch classify(o.Error) {
	case failPermanent, failNone:
		return false, nil
	case failDisallow:
		return false, a.learnRobots(o)
	}
	var id, hostID int64
	var u URLFacts
	err := a.tx.QueryRow(a.ctx, `SELECT id, state, host_id, tries FROM urls WHERE k = $1 FOR UPDATE`, pgKey(o.URL)).
		Scan(&id, &u.State, &hostID, &u.Tries)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return false, fmt.Errorf("frontier: %s: %w", o.URL, err)
	}
	return applyFailure(a, o, u, id, hostID, p, a.now)
}

// settledByHost counts a URL failed with its host given up: not fetched.
func (a *pgApply) settledByHost() { a.requeued++ }

// applyHost writes what a step does to a host: its status, and its held
// URLs when it was parked or given up just now.
func (a *pgApply) applyHost(hostID int64, hs *hostState, step Step, probe int64) error {
	if step.HostChange == HostKept {
		return nil
	}
	hs.HostStatus = step.Host
	if step.ClearProbe {
		hs.probeID = 0
	}
	if err := a.saveHost(hostID, hs); err != nil {
		return err
	}
	var err error
	switch step.HostChange {
	case HostParkedNow:
		_, err = a.tx.Exec(a.ctx, pgUpdateURLs(`state = {parked}`, `host_id = $1 AND state IN ({queued}, {waiting})`), hostID)
	case HostGaveUpNow:
		// They count as failed, not as fetched: no request was made.
		_, err = a.tx.Exec(a.ctx, pgUpdateURLs(`state = {failed}, leased_at = NULL, lease_until = NULL, lease_owner = NULL,
			retry_at = NULL, fetched_at = NULL, error = $2`, `host_id = $1 AND (state IN ({queued}, {parked}, {waiting}) OR id = $3)`),
			hostID, step.GiveUpError, probe)
	}
	if err != nil {
		return fmt.Errorf("frontier: host state: %w", err)
	}
	return nil
}

// putBack returns a URL that came back without a page to the queue, in
// state: queued, parked or waiting until retryAt.
func (a *pgApply) putBack(id int64, state State, retryAt int64, tries int, msg string) error {
	if _, err := a.tx.Exec(a.ctx, `UPDATE urls SET state = $2, leased_at = NULL, lease_until = NULL, lease_owner = NULL,
		retry_at = $3, tries = tries + $4, error = $5 WHERE id = $1`, id, state, nullInt64(retryAt), tries, nullString(msg)); err != nil {
		return fmt.Errorf("frontier: put back: %w", err)
	}
	a.requeued++
	return nil
}

// hostUp clears the failure state of a host that answered.
func (a *pgApply) hostUp(o *Outcome) error {
	hi, err := a.host(outcomeHost(o), o.Site)
	if err != nil {
		return err
	}
	hs, err := a.hostState(hi.id)
	if err != nil || !hs.known {
		return err
	}
	next, changed, unpark := Answered(hs.HostStatus)
	if !changed {
		return nil
	}
	hs.HostStatus, hs.probeID = next, 0
	if err := a.saveHost(hi.id, hs); err != nil {
		return err
	}
	if unpark {
		if _, err := a.tx.Exec(a.ctx, pgUpdateURLs(`state = {queued}`, `host_id = $1 AND state = {parked}`), hi.id); err != nil {
			return fmt.Errorf("frontier: unpark: %w", err)
		}
	}
	return nil
}

// learnRobots stores the robots.txt rules a robots-disallow outcome
// carries for its host, and refuses the host's queued URLs they forbid.
func (a *pgApply) learnRobots(o *Outcome) error {
	rules, err := robotsrules.Parse(o.Error)
	if err != nil {
		return nil // the bare kind: nothing to learn
	}
	hi, err := a.host(outcomeHost(o), o.Site)
	if err != nil {
		return err
	}
	hs, err := a.hostState(hi.id)
	if err != nil {
		return err
	}
	if hs.rules != nil && hs.rules.Text() == rules.Text() && hs.rules.Agent() == rules.Agent() {
		return nil
	}
	if !hs.known {
		if err := a.saveHost(hi.id, hs); err != nil {
			return err
		}
	}
	if _, err := a.tx.Exec(a.ctx, `UPDATE host_state SET robots = $2, robots_agent = $3 WHERE host_id = $1`, hi.id, rules.Text(), rules.Agent()); err != nil {
		return fmt.Errorf("frontier: robots rules: %w", err)
	}
	hs.rules = rules
	rows, err := a.tx.Query(a.ctx, sq(`SELECT id, url FROM urls WHERE host_id = $1 AND state IN ({queued}, {parked}, {waiting})`), hi.id)
	if err != nil {
		return fmt.Errorf("frontier: robots rules: %w", err)
	}
	var refused []int64
	for rows.Next() {
		var id int64
		var u string
		if err := rows.Scan(&id, &u); err != nil {
			rows.Close()
			return fmt.Errorf("frontier: robots rules: %w", err)
		}
		if !rules.Allows(RobotsPath(u)) {
			refused = append(refused, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("frontier: robots rules: %w", err)
	}
	if len(refused) == 0 {
		return nil
	}
	// Read without locks: a URL leased meanwhile is left to its lease.
	tag, err := a.tx.Exec(a.ctx, pgUpdateURLs(`state = {failed}, retry_at = NULL, error = $2`,
		`id = ANY($1) AND state IN ({queued}, {parked}, {waiting})`), refused, KindRobotsDisallow)
	if err != nil {
		return fmt.Errorf("frontier: robots rules: %w", err)
	}
	a.robotsRefused += tag.RowsAffected()
	return nil
}
