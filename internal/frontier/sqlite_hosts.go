package frontier

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/robotsrules"
)

// hostSchema adds host state to the frontier: parked and given-up hosts,
// their timeouts in a row, and the robots.txt rules learned for them. It
// is applied to new and existing databases alike (migrateHosts).
const hostSchema = `
CREATE TABLE IF NOT EXISTS host_state (
  host_id  INTEGER PRIMARY KEY,
  parked   INTEGER NOT NULL DEFAULT 0, -- 0 up, 1 parked, 2 given up
  reason   TEXT,                       -- the error that parked it
  since    INTEGER,                    -- when it was parked
  retry_at INTEGER,                    -- when it is next probed
  wait_ms  INTEGER NOT NULL DEFAULT 0, -- the wait before that probe
  tries    INTEGER NOT NULL DEFAULT 0, -- failed probes since parked
  timeouts INTEGER NOT NULL DEFAULT 0, -- timeouts in a row
  probe_id INTEGER,                    -- the URL leased to probe it
  robots   TEXT,                       -- robots.txt rules (robotsrules form)
  robots_agent TEXT
);
CREATE INDEX IF NOT EXISTS host_state_parked ON host_state (retry_at) WHERE parked = 1;
CREATE INDEX IF NOT EXISTS urls_host ON urls (host_id, state);
`

// urlColumns are the columns of urls added after the first layout.
var urlColumns = []struct{ name, decl string }{
	{"tries", "INTEGER NOT NULL DEFAULT 0"}, // transient failures so far
	{"retry_at", "INTEGER"},                 // a waiting URL's retry time
}

const frontierView = `CREATE VIEW frontier AS
SELECT u.url, h.host, h.site,
       CASE u.state WHEN 0 THEN 'queued' WHEN 1 THEN 'leased' WHEN 2 THEN 'done' WHEN 3 THEN 'failed'
                    WHEN 4 THEN 'parked' WHEN 5 THEN 'waiting' END AS state,
       u.priority, u.depth, p.url AS parent, u.anchor, u.inherited, u.meta,
       datetime(u.added_at / 1000, 'unixepoch') AS added_at,
       datetime(u.leased_at / 1000, 'unixepoch') AS leased_at,
       datetime(u.lease_until / 1000, 'unixepoch') AS lease_until,
       datetime(u.fetched_at / 1000, 'unixepoch') AS fetched_at,
       u.status, u.score, u.relevant, u.error, u.tries,
       datetime(u.retry_at / 1000, 'unixepoch') AS retry_at
FROM urls u JOIN hosts h ON h.id = u.host_id LEFT JOIN urls p ON p.id = u.parent_id`

// migrateHosts brings a database of any earlier layout up to this one:
// new columns, tables and indexes, and the frontier view that names the
// new states. Each step is skipped when done already.
func migrateHosts(tx *sql.Tx) error {
	have := map[string]bool{}
	rows, err := tx.Query(`SELECT name FROM pragma_table_info('urls')`)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return fmt.Errorf("migrate: %w", err)
		}
		have[name] = true
	}
	rows.Close()
	for _, c := range urlColumns {
		if !have[c.name] {
			if _, err := tx.Exec(`ALTER TABLE urls ADD COLUMN ` + c.name + ` ` + c.decl); err != nil {
				return fmt.Errorf("migrate: add urls.%s: %w", c.name, err)
			}
		}
	}
	if _, err := tx.Exec(hostSchema + `CREATE INDEX IF NOT EXISTS urls_retry ON urls (retry_at) WHERE state = 5;`); err != nil {
		return fmt.Errorf("migrate: host state: %w", err)
	}
	var view string
	err = tx.QueryRow(`SELECT sql FROM sqlite_master WHERE type = 'view' AND name = 'frontier'`).Scan(&view)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("migrate: %w", err)
	}
	if !strings.Contains(view, "'waiting'") {
		if _, err := tx.Exec(`DROP VIEW IF EXISTS frontier; ` + frontierView); err != nil {
			return fmt.Errorf("migrate: frontier view: %w", err)
		}
	}
	return nil
}

// hostState is one host's row of host_state, as a transaction uses it.
type hostState struct {
	known    bool // the row exists
	parked   int
	reason   string
	retryAt  int64
	waitMS   int64
	tries    int
	timeouts int
	probeID  int64
	rules    *robotsrules.Rules
}

// hostState loads the state of a host once per transaction.
func (a *applyTx) hostState(hostID int64) (*hostState, error) {
	if hs, ok := a.states[hostID]; ok {
		return hs, nil
	}
	st, err := a.stmt(`SELECT parked, coalesce(reason, ''), coalesce(retry_at, 0), wait_ms, tries, timeouts,
		coalesce(probe_id, 0), coalesce(robots, ''), coalesce(robots_agent, '') FROM host_state WHERE host_id = ?`)
	if err != nil {
		return nil, err
	}
	hs := &hostState{}
	var robots, agent string
	err = st.QueryRowContext(a.ctx, hostID).Scan(&hs.parked, &hs.reason, &hs.retryAt, &hs.waitMS, &hs.tries, &hs.timeouts, &hs.probeID, &robots, &agent)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return nil, fmt.Errorf("frontier: host state: %w", err)
	default:
		hs.known = true
		if robots != "" {
			// Rules that no longer parse are no rules: fetch still obeys them.
			hs.rules, _ = robotsrules.New(agent, robots)
		}
	}
	if a.states == nil {
		a.states = map[int64]*hostState{}
	}
	a.states[hostID] = hs
	return hs, nil
}

// saveHost writes a host's state.
func (a *applyTx) saveHost(hostID int64, hs *hostState) error {
	st, err := a.stmt(`INSERT INTO host_state (host_id, parked, reason, since, retry_at, wait_ms, tries, timeouts, probe_id)
		VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
		ON CONFLICT (host_id) DO UPDATE SET parked = ?2, reason = ?3, since = coalesce(?4, since), retry_at = ?5,
		  wait_ms = ?6, tries = ?7, timeouts = ?8, probe_id = ?9`)
	if err != nil {
		return err
	}
	var since any
	if hs.parked == 1 && hs.tries == 0 {
		since = a.now
	}
	_, err = st.ExecContext(a.ctx, hostID, hs.parked, nullString(hs.reason), since, nullInt64(hs.retryAt),
		hs.waitMS, hs.tries, hs.timeouts, nullInt64(hs.probeID))
	if err != nil {
		return fmt.Errorf("frontier: host state: %w", err)
	}
	hs.known = true
	return nil
}

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

// admit tells what becomes of a new URL of a host: refused by the host's
// robots.txt rules or because the host was given up (guard), or queued in
// state (queued, or parked with its host).
func (a *applyTx) admit(hostID int64, u string) (state State, guard string, err error) {
	hs, err := a.hostState(hostID)
	if err != nil || !hs.known {
		return Queued, "", err
	}
	if hs.rules != nil && !hs.rules.Allows(RobotsPath(u)) {
		return 0, GuardRobots, nil
	}
	switch hs.parked {
	case 1:
		return Parked, "", nil
	case 2:
		return 0, GuardHostGivenUp, nil
	}
	return Queued, "", nil
}

// RobotsPath is the part of a URL robots.txt rules match: path and query.
func RobotsPath(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return "/"
	}
	rest := u[i+3:]
	j := strings.IndexAny(rest, "/?#")
	if j < 0 {
		return "/"
	}
	p, _, _ := strings.Cut(rest[j:], "#")
	if strings.HasPrefix(p, "?") {
		p = "/" + p
	}
	return p
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

func nullInt64(i int64) any {
	if i == 0 {
		return nil
	}
	return i
}

// wake queues again, at lease time, the waiting URLs whose retry time
// has come, and for each parked host whose retry time has come and that
// has no URL out, its best held URL as a probe.
func wake(ctx context.Context, tx *sql.Tx, now time.Time) error {
	ms := now.UnixMilli()
	if _, err := tx.ExecContext(ctx, `UPDATE urls SET state = 0, retry_at = NULL WHERE state = 5 AND retry_at <= ?`, ms); err != nil {
		return fmt.Errorf("frontier: wake retries: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT host_id, wait_ms FROM host_state WHERE parked = 1 AND retry_at <= ?`, ms)
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
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM urls WHERE host_id = ? AND state IN (0, 1)`, d.host).Scan(&out); err != nil {
			return fmt.Errorf("frontier: wake hosts: %w", err)
		}
		if out > 0 {
			continue // a probe is out already
		}
		var probe int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM urls WHERE host_id = ? AND state = 4
			ORDER BY priority DESC, depth, id LIMIT 1`, d.host).Scan(&probe)
		if errors.Is(err, sql.ErrNoRows) {
			continue // nothing held: the host waits for new URLs
		}
		if err != nil {
			return fmt.Errorf("frontier: wake hosts: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE urls SET state = 0 WHERE id = ?`, probe); err != nil {
			return fmt.Errorf("frontier: wake hosts: %w", err)
		}
		// Should the probe never come back, the next one goes out after
		// the same wait.
		if _, err := tx.ExecContext(ctx, `UPDATE host_state SET probe_id = ?, retry_at = ? WHERE host_id = ?`,
			probe, ms+max(d.waitMS, 1000), d.host); err != nil {
			return fmt.Errorf("frontier: wake hosts: %w", err)
		}
	}
	return nil
}

// parkedStateSQL is the state an expired or released lease goes back to:
// parked when its host is.
const parkedStateSQL = `CASE WHEN host_id IN (SELECT host_id FROM host_state WHERE parked = 1) THEN 4 ELSE 0 END`

// parkedHosts lists the parked and given-up hosts, parked first, then by
// the URLs they hold.
func (s *SQLiteStore) parkedHosts(ctx context.Context) ([]ParkedHost, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT h.host, coalesce(st.reason, ''), coalesce(st.since, 0), coalesce(st.retry_at, 0),
		  st.tries, st.parked,
		  (SELECT count(*) FROM urls u WHERE u.host_id = st.host_id AND u.state = CASE st.parked WHEN 1 THEN 4 ELSE 3 END)
		FROM host_state st JOIN hosts h ON h.id = st.host_id
		WHERE st.parked IN (1, 2) ORDER BY st.parked, 7 DESC, h.host`)
	if err != nil {
		return nil, fmt.Errorf("frontier: stats: parked hosts: %w", err)
	}
	defer rows.Close()
	out := []ParkedHost{}
	for rows.Next() {
		var p ParkedHost
		var since, retry int64
		var parked int
		if err := rows.Scan(&p.Host, &p.Reason, &since, &retry, &p.Tries, &parked, &p.URLs); err != nil {
			return nil, fmt.Errorf("frontier: stats: parked hosts: %w", err)
		}
		if since > 0 {
			p.Since = time.UnixMilli(since).UTC()
		}
		p.GivenUp = parked == 2
		if !p.GivenUp && retry > 0 {
			p.NextRetry = time.UnixMilli(retry).UTC()
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("frontier: stats: parked hosts: %w", err)
	}
	return out, nil
}

// Peek lists the next n URLs in lease order (priority, depth, age)
// without leasing them: the queued ones, expired leases and retries that
// are due included; per-host bounds left aside.
func (s *SQLiteStore) Peek(ctx context.Context, n int) ([]QueuedURL, error) {
	if s.db == nil {
		return nil, ErrClosed
	}
	now := time.Now().UnixMilli()
	rows, err := s.db.QueryContext(ctx, `SELECT u.url, h.host, u.priority, u.depth, u.tries,
		  EXISTS (SELECT 1 FROM host_state st WHERE st.host_id = u.host_id AND st.parked = 1)
		FROM urls u JOIN hosts h ON h.id = u.host_id
		WHERE u.id IN (
		  SELECT id FROM (SELECT id, priority, depth FROM urls WHERE state = 0 ORDER BY priority DESC, depth, id LIMIT ?1)
		  UNION ALL SELECT id FROM urls WHERE state = 1 AND lease_until <= ?2
		  UNION ALL SELECT id FROM urls WHERE state = 5 AND retry_at <= ?2)
		ORDER BY u.priority DESC, u.depth, u.id LIMIT ?1`, n, now)
	if err != nil {
		return nil, fmt.Errorf("frontier: peek: %w", err)
	}
	defer rows.Close()
	var out []QueuedURL
	for rows.Next() {
		var q QueuedURL
		if err := rows.Scan(&q.URL, &q.Host, &q.Priority, &q.Depth, &q.Tries, &q.Parked); err != nil {
			return nil, fmt.Errorf("frontier: peek: %w", err)
		}
		out = append(out, q)
	}
	return out, rows.Err()
}

// Requeue puts back in the queue the failed URLs that match f, and
// releases the parked or given-up hosts that match it (their reason of
// kind f.Kind, their name f.Host): their held URLs are queued again at
// once. A requeued URL starts afresh: no error, no tries, and it leaves
// the fetched figures.
func (s *SQLiteStore) Requeue(ctx context.Context, f RequeueFilter) (Requeued, error) {
	var res Requeued
	if s.db == nil {
		return res, ErrClosed
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("frontier: requeue: %w", err)
	}
	defer tx.Rollback()
	var hostID int64
	if f.Host != "" {
		err := tx.QueryRowContext(ctx, `SELECT id FROM hosts WHERE host = ?`, f.Host).Scan(&hostID)
		if errors.Is(err, sql.ErrNoRows) {
			return res, nil
		}
		if err != nil {
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
	}
	// Hosts first, so that their URLs failed on give-up are requeued
	// into a host that is up again.
	rows, err := tx.QueryContext(ctx, `SELECT host_id, coalesce(reason, '') FROM host_state WHERE parked IN (1, 2) AND (?1 = 0 OR host_id = ?1)`, hostID)
	if err != nil {
		return res, fmt.Errorf("frontier: requeue: %w", err)
	}
	var hosts []int64
	for rows.Next() {
		var id int64
		var reason string
		if err := rows.Scan(&id, &reason); err != nil {
			rows.Close()
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
		if f.Kind == "" || MatchKind(reason, f.Kind) {
			hosts = append(hosts, id)
		}
	}
	rows.Close()
	for _, id := range hosts {
		if _, err := tx.ExecContext(ctx, `UPDATE host_state SET parked = 0, reason = NULL, since = NULL, retry_at = NULL,
			wait_ms = 0, tries = 0, timeouts = 0, probe_id = NULL WHERE host_id = ?`, id); err != nil {
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
		r, err := tx.ExecContext(ctx, `UPDATE urls SET state = 0, retry_at = NULL, tries = 0 WHERE host_id = ? AND state = 4`, id)
		if err != nil {
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
		n, _ := r.RowsAffected()
		res.Held += int(n)
		res.Hosts++
	}
	rows, err = tx.QueryContext(ctx, `SELECT id, host_id, coalesce(error, ''), fetched_at IS NOT NULL FROM urls
		WHERE state = 3 AND (?1 = 0 OR host_id = ?1)`, hostID)
	if err != nil {
		return res, fmt.Errorf("frontier: requeue: %w", err)
	}
	type back struct {
		id, host int64
		fetched  bool
	}
	var urls []back
	for rows.Next() {
		var b back
		var msg string
		if err := rows.Scan(&b.id, &b.host, &msg, &b.fetched); err != nil {
			rows.Close()
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
		if f.Kind == "" || MatchKind(msg, f.Kind) {
			urls = append(urls, b)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("frontier: requeue: %w", err)
	}
	up, err := tx.PrepareContext(ctx, `UPDATE urls SET state = `+parkedStateSQL+`, error = NULL, status = NULL, fetched_at = NULL,
		score = NULL, relevant = NULL, tries = 0, retry_at = NULL WHERE id = ?`)
	if err != nil {
		return res, fmt.Errorf("frontier: requeue: %w", err)
	}
	defer up.Close()
	unfetch, err := tx.PrepareContext(ctx, `UPDATE hosts SET fetched = max(fetched - 1, 0) WHERE id = ?`)
	if err != nil {
		return res, fmt.Errorf("frontier: requeue: %w", err)
	}
	defer unfetch.Close()
	for _, b := range urls {
		if _, err := up.ExecContext(ctx, b.id); err != nil {
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
		if b.fetched {
			if _, err := unfetch.ExecContext(ctx, b.host); err != nil {
				return res, fmt.Errorf("frontier: requeue: %w", err)
			}
		}
	}
	res.URLs = len(urls)
	if err := tx.Commit(); err != nil {
		return res, fmt.Errorf("frontier: requeue: commit: %w", err)
	}
	return res, nil
}

// ParkedSummary counts the parked hosts, the URLs they hold and the time
// of the next probe (zero when none is parked).
func (s *SQLiteStore) ParkedSummary(ctx context.Context) (hosts, urls int64, next time.Time, err error) {
	if s.db == nil {
		return 0, 0, next, ErrClosed
	}
	var at int64
	err = s.db.QueryRowContext(ctx, `SELECT count(*), coalesce(min(retry_at), 0),
		  coalesce((SELECT count(*) FROM urls WHERE state = 4), 0)
		FROM host_state WHERE parked = 1`).Scan(&hosts, &at, &urls)
	if err != nil {
		return 0, 0, next, fmt.Errorf("frontier: parked hosts: %w", err)
	}
	if at > 0 {
		next = time.UnixMilli(at)
	}
	return hosts, urls, next, nil
}

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
	st, err := tx.PrepareContext(ctx, `SELECT fetched > 0, (SELECT count(*) FROM urls WHERE host_id = ?1 AND state = 1)
		FROM hosts WHERE id = ?1`)
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
