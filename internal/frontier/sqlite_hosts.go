package frontier

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/robotsrules"
)

// hostSchema adds host state to the frontier: parked and given-up hosts,
// their timeouts in a row, and the robots.txt rules learned for them. It
// is applied to new and existing databases alike (migrateHosts).
var hostSchema = sq(`
CREATE TABLE IF NOT EXISTS host_state (
  host_id  INTEGER PRIMARY KEY,
  parked   INTEGER NOT NULL DEFAULT {host-up}, -- HostMode
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
-- The worker that leased a host last, and when (lease requests with a
-- host gap keep it).
CREATE TABLE IF NOT EXISTS host_lease (
  host_id INTEGER PRIMARY KEY,
  owner   INTEGER NOT NULL,
  at      INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS host_state_parked ON host_state (retry_at) WHERE parked = {host-parked};
CREATE INDEX IF NOT EXISTS urls_host ON urls (host_id, state);
`)

// urlColumns are the columns of urls added after the first layout.
var urlColumns = []struct{ name, decl string }{
	{"tries", "INTEGER NOT NULL DEFAULT 0"},   // transient failures so far
	{"retry_at", "INTEGER"},                   // a waiting URL's retry time
	{"reserve", "INTEGER NOT NULL DEFAULT 0"}, // 1: in the reserve (reserve.go)
	// 1: done as where another URL's fetch ended (a redirect target), not
	// a page of its own (counterRedirected; History marks it).
	{"redirect", "INTEGER NOT NULL DEFAULT 0"},
}

// queueIndex is the queue: queued URLs, the reserve after the others, each
// tier best first. A file made before the reserve has the index without
// its first column; migrateHosts makes it again.
var queueIndex = sq(`CREATE INDEX urls_queue ON urls (reserve, priority DESC, depth, id) WHERE state = {queued}`)

var frontierView = sq(`CREATE VIEW frontier AS
SELECT u.url, h.host, h.site,
       CASE u.state WHEN {queued} THEN CASE u.reserve WHEN {leased} THEN 'reserve' ELSE 'queued' END
                    WHEN {leased} THEN 'leased' WHEN {done} THEN 'done' WHEN {failed} THEN 'failed'
                    WHEN {parked} THEN 'parked' WHEN {waiting} THEN 'waiting' END AS state,
       u.priority, u.depth, p.url AS parent, u.anchor, u.inherited, u.meta,
       datetime(u.added_at / 1000, 'unixepoch') AS added_at,
       datetime(u.leased_at / 1000, 'unixepoch') AS leased_at,
       datetime(u.lease_until / 1000, 'unixepoch') AS lease_until,
       datetime(u.fetched_at / 1000, 'unixepoch') AS fetched_at,
       u.status, u.score, u.relevant, u.error, u.tries,
       datetime(u.retry_at / 1000, 'unixepoch') AS retry_at, u.reserve
FROM urls u JOIN hosts h ON h.id = u.host_id LEFT JOIN urls p ON p.id = u.parent_id`)

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
	if _, err := tx.Exec(hostSchema + sq(`CREATE INDEX IF NOT EXISTS urls_retry ON urls (retry_at) WHERE state = {waiting};`)); err != nil {
		return fmt.Errorf("migrate: host state: %w", err)
	}
	var index string
	err = tx.QueryRow(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'urls_queue'`).Scan(&index)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("migrate: %w", err)
	}
	if !strings.Contains(index, "reserve") {
		if _, err := tx.Exec(`DROP INDEX IF EXISTS urls_queue; ` + queueIndex); err != nil {
			return fmt.Errorf("migrate: queue index: %w", err)
		}
	}
	var view string
	err = tx.QueryRow(`SELECT sql FROM sqlite_master WHERE type = 'view' AND name = 'frontier'`).Scan(&view)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("migrate: %w", err)
	}
	if !strings.Contains(view, "'reserve'") {
		if _, err := tx.Exec(`DROP VIEW IF EXISTS frontier; ` + frontierView); err != nil {
			return fmt.Errorf("migrate: frontier view: %w", err)
		}
	}
	return nil
}

// hostState is one host's row of host_state, as a transaction uses it.
type hostState struct {
	HostStatus
	known   bool  // the row exists
	probeID int64 // the URL leased to probe the parked host (0: none)
	rules   *robotsrules.Rules
}

// hostState loads the state of a host once per transaction.
func (a *applyTx) hostState(hostID int64) (*hostState, error) {
	if hs, ok := a.states[hostID]; ok {
		return hs, nil
	}
	st, err := a.stmt(`SELECT parked, coalesce(reason, ''), coalesce(since, 0), coalesce(retry_at, 0), wait_ms, tries, timeouts,
		coalesce(probe_id, 0), coalesce(robots, ''), coalesce(robots_agent, '') FROM host_state WHERE host_id = ?`)
	if err != nil {
		return nil, err
	}
	hs := &hostState{}
	var robots, agent string
	err = st.QueryRowContext(a.ctx, hostID).Scan(&hs.Mode, &hs.Reason, &hs.Since, &hs.RetryAt, &hs.Wait, &hs.Tries, &hs.Timeouts,
		&hs.probeID, &robots, &agent)
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
		ON CONFLICT (host_id) DO UPDATE SET parked = ?2, reason = ?3, since = ?4, retry_at = ?5,
		  wait_ms = ?6, tries = ?7, timeouts = ?8, probe_id = ?9`)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(a.ctx, hostID, hs.Mode, nullString(hs.Reason), nullInt64(hs.Since), nullInt64(hs.RetryAt),
		hs.Wait, hs.Tries, hs.Timeouts, nullInt64(hs.probeID))
	if err != nil {
		return fmt.Errorf("frontier: host state: %w", err)
	}
	hs.known = true
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
	switch hs.Mode {
	case HostParked:
		return Parked, "", nil
	case HostGivenUp:
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
