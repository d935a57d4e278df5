package frontier

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// GuardMaxPerHost is the refusal counted when a host already holds
// Batch.MaxPerHost URLs.
const GuardMaxPerHost = "max-per-host"

// counterExpired counts leases that ran out and were queued again.
const counterExpired = "lease.expired"

// counterRequeued counts outcomes put back in the queue (parked, waiting
// for a retry, or cancelled): leased, but not fetched.
const counterRequeued = "requeued"

// counterRefused prefixes the counters of refusals by guard.
const counterRefused = "refused."

// counterRedirected counts the URLs recorded done as where another URL's
// fetch ended (a redirect), and counterRedirectedRelevant those of them
// judged relevant: one fetch, one page, though two URLs are done, so the
// crawl's page figures (Stats.Fetched, Progress, the --budget) take them
// off.
const (
	counterRedirected         = "redirect.targets"
	counterRedirectedRelevant = "redirect.targets.relevant"
)

// applyTx is one Apply call's transaction and its prepared statements.
type applyTx struct {
	s   *SQLiteStore
	ctx context.Context
	tx  *sql.Tx
	now int64

	hosts map[string]hostInfo // hosts touched in this transaction
	ids   map[string]int64    // URL ids resolved in this transaction

	// host state (sqlite_hosts.go)
	states        map[int64]*hostState
	requeued      int64            // outcomes put back in the queue
	redirected    [2]int64         // URLs done as redirect targets, and the relevant ones
	robotsRefused int64            // queued URLs refused by learned rules
	guards        map[string]int64 // new URLs refused by host state

	insertURL, raiseURL, lookupURL, doneURL, insertDone, hostFigures *sql.Stmt
	stmts                                                            map[string]*sql.Stmt // prepared on first use

	cls *classTx // the URL classes, when the frontier learns (sqlite_classes.go)
}

// Apply records outcomes, queues entries, stores edges and counts
// refusals, all in one transaction.
func (s *SQLiteStore) Apply(ctx context.Context, b Batch) (Applied, error) {
	var res Applied
	if s.db == nil {
		return res, ErrClosed
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("frontier: begin: %w", err)
	}
	defer tx.Rollback()
	a := &applyTx{s: s, ctx: ctx, tx: tx, now: time.Now().UnixMilli(),
		hosts: map[string]hostInfo{}, ids: map[string]int64{}, guards: map[string]int64{}}
	if err := a.prepare(); err != nil {
		return res, err
	}
	defer a.closeStmts()
	if err := a.startLearning(); err != nil {
		return res, err
	}

	policy := DefaultRetryPolicy()
	if b.Retry != nil {
		policy = *b.Retry
	}
	for i := range b.Done {
		back, err := a.outcome(&b.Done[i], policy)
		if err != nil {
			return res, err
		}
		if !back {
			res.Done++
		}
	}
	if err := a.rerankClasses(); err != nil {
		return res, err
	}
	for i := range b.Queue {
		r, err := a.queue(&b.Queue[i], b.MaxPerHost)
		if err != nil {
			return res, err
		}
		switch r {
		case queuedNew:
			res.Queued++
		case queuedRaised:
			res.Raised++
		case queuedKnown:
			res.Known++
		case queuedRefused:
			res.Refused++
		}
	}
	if res.Refused > 0 {
		if b.Refused == nil {
			b.Refused = map[string]int64{}
		}
		b.Refused[GuardMaxPerHost] += int64(res.Refused)
	}
	if err := a.edges(b.Edges); err != nil {
		return res, err
	}
	res.Requeued = int(a.requeued)
	if a.robotsRefused > 0 {
		a.guards[GuardRobots] += a.robotsRefused
	}
	res.Guards = a.guards
	if err := a.count(counterRequeued, a.requeued); err != nil {
		return res, err
	}
	if err := a.count(counterRedirected, a.redirected[0]); err != nil {
		return res, err
	}
	if err := a.count(counterRedirectedRelevant, a.redirected[1]); err != nil {
		return res, err
	}
	for guard, n := range a.guards {
		if err := a.count(counterRefused+guard, n); err != nil {
			return res, err
		}
	}
	for guard, n := range b.Refused {
		if err := a.count(counterRefused+guard, n); err != nil {
			return res, err
		}
	}
	if err := a.flushHosts(); err != nil {
		return res, err
	}
	if err := tx.Commit(); err != nil {
		return res, fmt.Errorf("frontier: commit: %w", err)
	}
	s.mu.Lock()
	for h, hi := range a.hosts {
		s.hosts[h] = hostInfo{id: hi.id, urls: hi.urls}
	}
	s.mu.Unlock()
	return res, nil
}

func (a *applyTx) prepare() error {
	var err error
	prep := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		st, err = a.tx.PrepareContext(a.ctx, q)
		return st
	}
	a.insertURL = prep(`INSERT INTO urls (h, url, host_id, state, priority, depth, parent_id, anchor, inherited, meta, added_at)
		VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (h) DO NOTHING`)
	a.raiseURL = prep(`UPDATE urls SET
		  depth     = min(depth, ?2),
		  priority  = CASE WHEN ?1 > priority THEN ?1 ELSE priority END,
		  parent_id = CASE WHEN ?1 > priority THEN ?3 ELSE parent_id END,
		  anchor    = CASE WHEN ?1 > priority THEN ?4 ELSE anchor END,
		  inherited = CASE WHEN ?1 > priority THEN ?5 ELSE inherited END
		WHERE id = ?6 AND state IN (0, 1) AND (?1 > priority OR ?2 < depth)`)
	a.lookupURL = prep(`SELECT id, url, state FROM urls WHERE h = ?`)
	a.doneURL = prep(`UPDATE urls SET state = ?2, leased_at = NULL, lease_until = NULL, lease_owner = NULL,
		  fetched_at = ?3, status = ?4, score = ?5, relevant = ?6, error = ?7
		WHERE id = ?1 RETURNING host_id`)
	a.insertDone = prep(`INSERT INTO urls (h, url, host_id, state, depth, added_at, fetched_at, status, score, relevant, error)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	a.hostFigures = prep(`UPDATE hosts SET fetched = fetched + 1, relevant = relevant + ? WHERE id = ?`)
	if err != nil {
		a.closeStmts()
		return fmt.Errorf("frontier: prepare: %w", err)
	}
	return nil
}

// stmt prepares query once per transaction.
func (a *applyTx) stmt(query string) (*sql.Stmt, error) {
	if st, ok := a.stmts[query]; ok {
		return st, nil
	}
	st, err := a.tx.PrepareContext(a.ctx, query)
	if err != nil {
		return nil, fmt.Errorf("frontier: prepare: %w", err)
	}
	if a.stmts == nil {
		a.stmts = map[string]*sql.Stmt{}
	}
	a.stmts[query] = st
	return st, nil
}

func (a *applyTx) closeStmts() {
	for _, st := range a.stmts {
		st.Close()
	}
	for _, st := range []*sql.Stmt{a.insertURL, a.raiseURL, a.lookupURL, a.doneURL, a.insertDone, a.hostFigures} {
		if st != nil {
			st.Close()
		}
	}
	if a.cls != nil {
		a.cls.close()
	}
}

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
	var meta any
	if len(e.Meta) > 0 && string(e.Meta) != "null" {
		meta = string(e.Meta)
	}
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
	return a.insertURL.ExecContext(a.ctx, h, e.URL, hostID, e.Priority, e.Depth, parent, anchor, inherited, meta, a.now)
}

func (a *applyTx) raise(e *Entry, id, hostID int64, parent, anchor, inherited any) (queueResult, error) {
	var r sql.Result
	var err error
	if a.cls != nil {
		r, err = a.raiseLearned(e, id, hostID, parent, anchor, inherited)
	} else {
		r, err = a.raiseURL.ExecContext(a.ctx, e.Priority, e.Depth, parent, anchor, inherited, id)
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
		if fresh {
			a.redirected[0]++
			if o.Scored && o.Relevant {
				a.redirected[1]++
			}
		}
		return err
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

func (a *applyTx) count(name string, n int64) error {
	if n == 0 {
		return nil
	}
	_, err := a.tx.ExecContext(a.ctx, `INSERT INTO counters (name, n) VALUES (?, ?)
		ON CONFLICT (name) DO UPDATE SET n = n + excluded.n`, name, n)
	if err != nil {
		return fmt.Errorf("frontier: count %s: %w", name, err)
	}
	return nil
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullFloat(f float64) any {
	if f == 0 {
		return nil
	}
	return f
}

func nullInt(i int) any {
	if i == 0 {
		return nil
	}
	return i
}
