package frontier

import (
	"context"
	"database/sql"
	"fmt"
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

	// host state (sqlite_hosts.go, sqlite_host_outcomes.go)
	states        map[int64]*hostState
	requeued      int64            // outcomes put back in the queue
	redirected    pageCount        // URLs done as redirect targets, and the relevant ones
	robotsRefused int64            // queued URLs refused by learned rules
	reserved      int              // new URLs queued in the reserve
	guards        map[string]int64 // new URLs refused by host state

	insertURL, raiseURL, lookupURL, doneURL, insertDone, hostFigures *sql.Stmt
	stmts                                                            map[string]*sql.Stmt // prepared on first use

	cls    *classTx       // the URL classes, when the frontier learns (sql_classes.go)
	sqlCls *sqliteClasses // their statements (sqlite_classes.go)
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
	res.Reserved = a.reserved
	if a.robotsRefused > 0 {
		a.guards[GuardRobots] += a.robotsRefused
	}
	res.Guards = a.guards
	if err := a.count(counterRequeued, a.requeued); err != nil {
		return res, err
	}
	if err := a.count(counterRedirected, a.redirected.pages); err != nil {
		return res, err
	}
	if err := a.count(counterRedirectedRelevant, a.redirected.relevant); err != nil {
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
	a.insertURL = prep(`INSERT INTO urls (h, url, host_id, state, priority, depth, parent_id, anchor, inherited, meta, added_at, reserve)
		VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (h) DO NOTHING`)
	// A queued or leased URL takes a better priority or a lower depth; a
	// URL not yet fetched leaves the reserve when a kept link leads to it
	// (?7 = 0), also while parked or waiting.
	a.raiseURL = prep(sq(`UPDATE urls SET
		  depth     = CASE WHEN state IN ({queued}, {leased}) THEN min(depth, ?2) ELSE depth END,
		  priority  = CASE WHEN state IN ({queued}, {leased}) AND ?1 > priority THEN ?1 ELSE priority END,
		  parent_id = CASE WHEN state IN ({queued}, {leased}) AND ?1 > priority THEN ?3 ELSE parent_id END,
		  anchor    = CASE WHEN state IN ({queued}, {leased}) AND ?1 > priority THEN ?4 ELSE anchor END,
		  inherited = CASE WHEN state IN ({queued}, {leased}) AND ?1 > priority THEN ?5 ELSE inherited END,
		  reserve   = reserve AND ?7
		WHERE id = ?6 AND ((state IN ({queued}, {leased}) AND (?1 > priority OR ?2 < depth))
		  OR (reserve = 1 AND ?7 = 0 AND state IN ({queued}, {leased}, {parked}, {waiting})))`))
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
	if a.sqlCls != nil {
		a.sqlCls.close()
	}
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

func (a *applyTx) exec(query string, args ...any) error {
	st, err := a.stmt(query)
	if err != nil {
		return err
	}
	if _, err := st.ExecContext(a.ctx, args...); err != nil {
		return fmt.Errorf("frontier: %w", err)
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

func nullInt64(i int64) any {
	if i == 0 {
		return nil
	}
	return i
}
