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

// failed handles an outcome with an error. It reports whether the URL was
// put back (parked, waiting or queued again) rather than recorded.
func (a *applyTx) failed(o *Outcome, p RetryPolicy) (bool, error) {
	kind := classify(o.Error)
	switch kind {
	case failPermanent, failNone:
		return false, nil
	case failDisallow:
		return false, a.learnRobots(o)
	}
	id, state, _, err := a.find(o.URL)
	if err != nil || id == 0 || state == Done || state == Failed {
		return false, err // unknown, or recorded already: record as it comes
	}
	var hostID int64
	if err := a.tx.QueryRowContext(a.ctx, `SELECT host_id FROM urls WHERE id = ?`, id).Scan(&hostID); err != nil {
		return false, fmt.Errorf("frontier: %s: %w", o.URL, err)
	}
	if kind == failCanceled {
		return true, a.putBack(id, Queued, 0, 0, "")
	}
	down := outcomeHost(o)
	downHI, err := a.host(down, o.Site)
	if err != nil {
		return false, err
	}
	hs, err := a.hostState(downHI.id)
	if err != nil {
		return false, err
	}
	if kind == failTimeout {
		hs.timeouts++
		if p.ParkAfterTimeouts > 0 && hs.timeouts >= p.ParkAfterTimeouts {
			kind = failHostDown
		} else {
			if err := a.saveHost(downHI.id, hs); err != nil {
				return false, err
			}
			kind = failTransient
		}
	}
	if kind == failTransient {
		return a.retry(id, o, p)
	}
	// The host is down.
	switch hs.parked {
	case 0:
		hs.parked, hs.reason, hs.tries, hs.timeouts, hs.probeID = 1, o.Error, 0, 0, 0
		hs.waitMS = wait(p.HostBackoff, p.HostMaxBackoff, 0).Milliseconds()
		hs.retryAt = a.now + hs.waitMS
		if err := a.saveHost(downHI.id, hs); err != nil {
			return false, err
		}
		if err := a.exec(`UPDATE urls SET state = 4 WHERE host_id = ? AND state IN (0, 5)`, downHI.id); err != nil {
			return false, err
		}
	case 1:
		if id == hs.probeID {
			// The probe failed: wait twice as long, or give the host up.
			hs.tries++
			hs.reason, hs.probeID = o.Error, 0
			if p.HostTries > 0 && hs.tries >= p.HostTries {
				return true, a.giveUp(downHI.id, hs, id)
			}
			hs.waitMS = wait(p.HostBackoff, p.HostMaxBackoff, hs.tries).Milliseconds()
			hs.retryAt = a.now + hs.waitMS
			if err := a.saveHost(downHI.id, hs); err != nil {
				return false, err
			}
		}
	case 2:
		return false, nil // given up: the URL fails with its error
	}
	if hostID != downHI.id {
		// A redirect into a host that is down: the URL's own host is up.
		return a.retry(id, o, p)
	}
	return true, a.putBack(id, Parked, 0, 0, o.Error)
}

// retry puts a URL in the waiting state for its next try, or fails it
// when it has had its retries.
func (a *applyTx) retry(id int64, o *Outcome, p RetryPolicy) (bool, error) {
	var tries int
	if err := a.tx.QueryRowContext(a.ctx, `SELECT tries FROM urls WHERE id = ?`, id).Scan(&tries); err != nil {
		return false, fmt.Errorf("frontier: %s: %w", o.URL, err)
	}
	if tries >= p.Retries {
		return false, nil
	}
	at := a.now + wait(p.Backoff, p.MaxBackoff, tries).Milliseconds()
	return true, a.putBack(id, Waiting, at, 1, o.Error)
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

// giveUp fails every held URL of a host that stayed down through its
// tries. They count as failed, not as fetched: no request was made.
func (a *applyTx) giveUp(hostID int64, hs *hostState, probe int64) error {
	hs.parked, hs.retryAt, hs.probeID = 2, 0, 0
	if err := a.saveHost(hostID, hs); err != nil {
		return err
	}
	msg := fmt.Sprintf("%s (host given up after %d tries)", hs.reason, hs.tries)
	if err := a.exec(`UPDATE urls SET state = 3, leased_at = NULL, lease_until = NULL, lease_owner = NULL,
		retry_at = NULL, fetched_at = NULL, error = ? WHERE host_id = ? AND (state IN (0, 4, 5) OR id = ?)`, msg, hostID, probe); err != nil {
		return err
	}
	a.requeued++ // the probe does not count as fetched
	return nil
}

// hostUp clears the failure state of a host that answered.
func (a *applyTx) hostUp(o *Outcome) error {
	hi, err := a.host(outcomeHost(o), o.Site)
	if err != nil {
		return err
	}
	hs, err := a.hostState(hi.id)
	if err != nil || !hs.known || (hs.parked == 0 && hs.timeouts == 0) {
		return err
	}
	wasParked := hs.parked != 0
	hs.parked, hs.reason, hs.retryAt, hs.waitMS, hs.tries, hs.timeouts, hs.probeID = 0, "", 0, 0, 0, 0, 0
	if err := a.saveHost(hi.id, hs); err != nil {
		return err
	}
	if wasParked {
		return a.exec(`UPDATE urls SET state = 0 WHERE host_id = ? AND state = 4`, hi.id)
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
	rows, err := a.tx.QueryContext(a.ctx, `SELECT id, url FROM urls WHERE host_id = ? AND state IN (0, 4, 5)`, hi.id)
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
		if err := a.exec(`UPDATE urls SET state = 3, retry_at = NULL, error = ? WHERE id = ?`, KindRobotsDisallow, id); err != nil {
			return err
		}
	}
	a.robotsRefused += int64(len(refused))
	return nil
}
