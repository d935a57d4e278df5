package frontier

import (
	"fmt"

	"github.com/focuscrawl/focuscrawl/internal/robotsrules"
)

// What an outcome does to its host's state in Apply: a failure parks the
// host, waits for a retry or gives up; an answer clears the failures; a
// robots-disallow outcome stores the rules it brought.

// outcomeHost is the host an outcome's failure speaks for: the last hop
// of a redirect chain when there was one.
func outcomeHost(o *Outcome) string {
	if o.FinalHost != "" {
		return o.FinalHost
	}
	return o.Host
}

// failed handles an outcome with an error: the host policy
// (OutcomeStep) says what it does, and failed writes that. It reports
// whether the URL was put back (parked, waiting or queued again) rather
// than recorded.
func (a *applyTx) failed(o *Outcome, p RetryPolicy) (bool, error) {
	switch classify(o.Error) {
	case failPermanent, failNone:
		return false, nil
	case failDisallow:
		return false, a.learnRobots(o)
	}
	id, state, _, err := a.find(o.URL)
	if err != nil {
		return false, err
	}
	u := URLFacts{State: state}
	var hostID int64
	if id != 0 {
		if err := a.tx.QueryRowContext(a.ctx, `SELECT host_id, tries FROM urls WHERE id = ?`, id).Scan(&hostID, &u.Tries); err != nil {
			return false, fmt.Errorf("frontier: %s: %w", o.URL, err)
		}
	}
	return applyFailure(a, o, u, id, hostID, p, a.now)
}

// settledByHost counts a URL failed with its host given up: not fetched.
func (a *applyTx) settledByHost() { a.requeued++ }

// applyHost writes what a step does to a host: its status, and its held
// URLs when it was parked or given up just now.
func (a *applyTx) applyHost(hostID int64, hs *hostState, step Step, probe int64) error {
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
	switch step.HostChange {
	case HostParkedNow:
		return a.exec(`UPDATE urls SET state = ? WHERE host_id = ? AND state IN (?, ?)`, Parked, hostID, Queued, Waiting)
	case HostGaveUpNow:
		// They count as failed, not as fetched: no request was made.
		return a.exec(`UPDATE urls SET state = ?, leased_at = NULL, lease_until = NULL, lease_owner = NULL,
		retry_at = NULL, fetched_at = NULL, error = ? WHERE host_id = ? AND (state IN (?, ?, ?) OR id = ?)`,
			Failed, step.GiveUpError, hostID, Queued, Parked, Waiting, probe)
	}
	return nil
}

// putBack returns a URL that came back without a page to the queue, in
// state: queued, parked or waiting until retryAt. Its error is kept for
// seed peek and the frontier view.
func (a *applyTx) putBack(id int64, state State, retryAt int64, tries int, msg string) error {
	if err := a.exec(`UPDATE urls SET state = ?, leased_at = NULL, lease_until = NULL, lease_owner = NULL,
		retry_at = ?, tries = tries + ?, error = ? WHERE id = ?`, state, nullInt64(retryAt), tries, nullString(msg), id); err != nil {
		return err
	}
	a.requeued++
	return nil
}

// hostUp clears the failure state of a host that answered.
func (a *applyTx) hostUp(o *Outcome) error {
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
		return a.exec(`UPDATE urls SET state = ? WHERE host_id = ? AND state = ?`, Queued, hi.id, Parked)
	}
	return nil
}

// learnRobots stores the robots.txt rules a robots-disallow outcome
// carries for its host, and refuses the host's queued URLs they forbid.
func (a *applyTx) learnRobots(o *Outcome) error {
	rules, err := robotsrules.Parse(o.Error)
	if err != nil {
		return nil // the bare kind: nothing to learn
	}
	host := outcomeHost(o)
	hi, err := a.host(host, o.Site)
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
	if err := a.exec(`UPDATE host_state SET robots = ?, robots_agent = ? WHERE host_id = ?`, rules.Text(), rules.Agent(), hi.id); err != nil {
		return err
	}
	hs.rules = rules
	rows, err := a.tx.QueryContext(a.ctx, `SELECT id, url FROM urls WHERE host_id = ? AND state IN (?, ?, ?)`, hi.id, Queued, Parked, Waiting)
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
	for _, id := range refused {
		if err := a.exec(`UPDATE urls SET state = ?, retry_at = NULL, error = ? WHERE id = ?`, Failed, KindRobotsDisallow, id); err != nil {
			return err
		}
	}
	a.robotsRefused += int64(len(refused))
	return nil
}
