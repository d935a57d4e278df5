package frontier

import (
	"fmt"
	"strings"
)

// Apply's recording of outcomes and edges.

// outcome records what became of a fetched URL, or puts it back in the
// queue when it failed in a way that another try, later, may mend
// (back: it is not recorded as fetched).
func (a *applyTx) outcome(o *Outcome, p RetryPolicy) (back bool, err error) {
	if o.Error == "" || strings.HasPrefix(ErrorKind(o.Error), "http ") {
		// The host answered.
		if err := a.hostUp(o); err != nil {
			return false, err
		}
	}
	if o.Error != "" {
		if back, err = a.failed(o, p); back || err != nil {
			return back, err
		}
	}
	return false, a.done(o)
}

func (a *applyTx) done(o *Outcome) error {
	if _, err := a.markDone(o.URL, o.Host, o); err != nil {
		return err
	}
	if o.FinalURL != "" && o.FinalURL != o.URL && o.FinalHost != "" {
		fresh, err := a.markDone(o.FinalURL, o.FinalHost, o)
		if err != nil || !fresh {
			return err
		}
		a.redirected.add(o)
		if _, err := a.tx.ExecContext(a.ctx, `UPDATE urls SET redirect = 1 WHERE id = ?`, a.ids[o.FinalURL]); err != nil {
			return fmt.Errorf("frontier: record %s: %w", o.FinalURL, err)
		}
	}
	return nil
}

// markDone records u done (or failed); fresh tells whether it was not
// done or failed before.
func (a *applyTx) markDone(u, host string, o *Outcome) (fresh bool, err error) {
	state := Done
	if o.Error != "" {
		state = Failed
	}
	fetched := o.FetchedAt.UnixMilli()
	if o.FetchedAt.IsZero() {
		fetched = a.now
	}
	var score, relevant any
	if o.Scored {
		score = o.Score
		relevant = 0
		if o.Relevant {
			relevant = 1
		}
	}
	status := nullInt(o.Status)
	errText := nullString(o.Error)

	var hostID int64
	// The state before tells whether the host's figures count it already.
	id, before, free, err := a.find(u)
	if err != nil {
		return false, err
	}
	if id == 0 {
		hi, err := a.host(host, o.Site)
		if err != nil {
			return false, err
		}
		r, err := a.insertDone.ExecContext(a.ctx, free, u, hi.id, state, o.Depth, a.now, fetched, status, score, relevant, errText)
		if err == nil {
			id, err = r.LastInsertId()
		}
		if err != nil {
			return false, fmt.Errorf("frontier: record %s: %w", u, err)
		}
		hi.urls++
		hi.added++
		a.hosts[host] = hi
		hostID = hi.id
		before = Queued
	} else if err := a.doneURL.QueryRowContext(a.ctx, id, state, fetched, status, score, relevant, errText).Scan(&hostID); err != nil {
		return false, fmt.Errorf("frontier: record %s: %w", u, err)
	}
	a.ids[u] = id
	if before == Done || before == Failed {
		return false, nil // seen again: the host's figures already count it
	}
	if err := a.learnOutcome(id, u, hostID, o); err != nil {
		return false, err
	}
	rel := 0
	if o.Scored && o.Relevant {
		rel = 1
	}
	if _, err := a.hostFigures.ExecContext(a.ctx, rel, hostID); err != nil {
		return false, fmt.Errorf("frontier: host figures: %w", err)
	}
	return true, nil
}

func (a *applyTx) edges(es []Edge) error {
	if len(es) == 0 {
		return nil
	}
	st, err := a.tx.PrepareContext(a.ctx, `INSERT INTO edges (src, dst, priority, anchor, context) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (src, dst) DO UPDATE SET priority = max(coalesce(priority, 0), excluded.priority),
		  anchor = coalesce(anchor, excluded.anchor), context = coalesce(context, excluded.context)`)
	if err != nil {
		return fmt.Errorf("frontier: prepare edges: %w", err)
	}
	defer st.Close()
	for _, e := range es {
		src, err := a.lookup(e.From)
		if err != nil {
			return err
		}
		dst, err := a.lookup(e.To)
		if err != nil {
			return err
		}
		if src == 0 || dst == 0 || src == dst {
			continue // an end the frontier refused: no edge to keep
		}
		if _, err := st.ExecContext(a.ctx, src, dst, e.Priority, nullString(e.Anchor), nullString(e.Context)); err != nil {
			return fmt.Errorf("frontier: edge %s -> %s: %w", e.From, e.To, err)
		}
	}
	return nil
}
