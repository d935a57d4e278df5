package frontier

import (
	"database/sql"
	"errors"
	"fmt"
)

// Apply's queueing of new entries: host rows and URL inserts or raises.

// host returns the id and URL count of host, creating its row if needed.
func (a *applyTx) host(host, site string) (hostInfo, error) {
	if hi, ok := a.hosts[host]; ok {
		return hi, nil
	}
	a.s.mu.Lock()
	hi, ok := a.s.hosts[host]
	a.s.mu.Unlock()
	if ok {
		a.hosts[host] = hi
		return hi, nil
	}
	st, err := a.stmt(`SELECT id, urls FROM hosts WHERE host = ?`)
	if err == nil {
		err = st.QueryRowContext(a.ctx, host).Scan(&hi.id, &hi.urls)
	}
	if errors.Is(err, sql.ErrNoRows) {
		st, err = a.stmt(`INSERT INTO hosts (host, site) VALUES (?, ?) RETURNING id`)
		if err == nil {
			err = st.QueryRowContext(a.ctx, host, site).Scan(&hi.id)
		}
		hi.urls = 0
	}
	if err != nil {
		return hi, fmt.Errorf("frontier: host %s: %w", host, err)
	}
	a.hosts[host] = hi
	return hi, nil
}

// flushHosts writes the URL counts of the hosts this transaction added to.
func (a *applyTx) flushHosts() error {
	st, err := a.stmt(`UPDATE hosts SET urls = urls + ? WHERE id = ?`)
	if err != nil {
		return err
	}
	for _, hi := range a.hosts {
		if hi.added == 0 {
			continue
		}
		if _, err := st.ExecContext(a.ctx, hi.added, hi.id); err != nil {
			return fmt.Errorf("frontier: host counts: %w", err)
		}
	}
	return nil
}

type queueResult int

const (
	queuedNew queueResult = iota
	queuedRaised
	queuedKnown
	queuedRefused
	queuedGuarded // refused by the host's state (robots rules, given up)
)

func (a *applyTx) queue(e *Entry, maxPerHost int64) (queueResult, error) {
	hi, err := a.host(e.Host, e.Site)
	if err != nil {
		return 0, err
	}
	var parent any
	if e.Parent != "" {
		id, err := a.lookup(e.Parent)
		if err != nil {
			return 0, err
		}
		if id != 0 {
			parent = id
		}
	}
	anchor := nullString(e.Anchor)
	inherited := nullFloat(e.Inherited)
	state, guard, err := a.admit(hi.id, e.URL)
	if err != nil {
		return 0, err
	}
	if guard != "" {
		if id, _, _, err := a.find(e.URL); err != nil || id != 0 {
			return queuedKnown, err
		}
		a.guards[guard]++
		return queuedGuarded, nil
	}
	if maxPerHost > 0 && hi.urls >= maxPerHost {
		// The host is full: only a URL already known may be improved.
		id, _, _, err := a.find(e.URL)
		if err != nil || id == 0 {
			return queuedRefused, err
		}
		return a.raise(e, id, hi.id, parent, anchor, inherited)
	}
	meta := nullString(entryMeta(e))
	// One statement inserts a URL not stored yet, the common case.
	r, err := a.insert(urlHash(e.URL), e, hi.id, parent, anchor, inherited, meta)
	if err != nil {
		return 0, fmt.Errorf("frontier: queue %s: %w", e.URL, err)
	}
	if n, _ := r.RowsAffected(); n == 0 {
		// Its hash is taken: by the URL itself, or by another (a collision).
		id, _, free, err := a.find(e.URL)
		if err != nil {
			return 0, err
		}
		if id != 0 {
			return a.raise(e, id, hi.id, parent, anchor, inherited)
		}
		if r, err = a.insert(free, e, hi.id, parent, anchor, inherited, meta); err != nil {
			return 0, fmt.Errorf("frontier: queue %s: %w", e.URL, err)
		}
	}
	id, err := r.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("frontier: queue %s: %w", e.URL, err)
	}
	if state != Queued {
		if err := a.exec(`UPDATE urls SET state = ? WHERE id = ?`, state, id); err != nil {
			return 0, err
		}
	}
	return a.inserted(e, hi, id), nil
}

func (a *applyTx) inserted(e *Entry, hi hostInfo, id int64) queueResult {
	if e.Reserve {
		a.reserved++
	}
	hi.urls++
	hi.added++
	a.hosts[e.Host] = hi
	a.ids[e.URL] = id
	return queuedNew
}

// insert queues a URL not stored yet under hash value h.
func (a *applyTx) insert(h int64, e *Entry, hostID int64, parent, anchor, inherited, meta any) (sql.Result, error) {
	if a.cls != nil {
		return a.insertLearned(h, e, hostID, parent, anchor, inherited, meta)
	}
	return a.insertURL.ExecContext(a.ctx, h, e.URL, hostID, e.Priority, e.Depth, parent, anchor, inherited, meta, a.now, e.Reserve)
}

func (a *applyTx) raise(e *Entry, id, hostID int64, parent, anchor, inherited any) (queueResult, error) {
	var r sql.Result
	var err error
	if a.cls != nil {
		r, err = a.raiseLearned(e, id, hostID, parent, anchor, inherited)
	} else {
		r, err = a.raiseURL.ExecContext(a.ctx, e.Priority, e.Depth, parent, anchor, inherited, id, e.Reserve)
	}
	if err != nil {
		return 0, fmt.Errorf("frontier: requeue %s: %w", e.URL, err)
	}
	if n, _ := r.RowsAffected(); n == 1 {
		return queuedRaised, nil
	}
	return queuedKnown, nil
}

// lookup gives the id of a known URL, or 0.
func (a *applyTx) lookup(u string) (int64, error) {
	if id, ok := a.ids[u]; ok {
		return id, nil
	}
	id, _, _, err := a.find(u)
	if err != nil {
		return 0, err
	}
	if id != 0 {
		a.ids[u] = id
	}
	return id, nil
}

// find returns the id and state of u, or id 0 and the hash value to store
// it under.
func (a *applyTx) find(u string) (id int64, state State, free int64, err error) {
	return findURL(a.ctx, a.lookupURL, u)
}
