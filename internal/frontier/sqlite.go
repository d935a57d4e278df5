package frontier

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/focuscrawl/focuscrawl/internal/sqlitedb"
)

// SchemaVersion is the version of the database layout, kept in the info
// table; docs/frontier.md describes it.
const SchemaVersion = "1"

var _ Store = (*SQLiteStore)(nil)

// schema creates the tables on first use. Times are Unix milliseconds.
// The partial indexes keep only the rows a query needs: the queue index
// (urls_queue, made by migrateHosts once the reserve column exists) holds
// queued URLs alone, so done URLs cost nothing there.
var schema = sq(`
CREATE TABLE IF NOT EXISTS info (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS hosts (
  id       INTEGER PRIMARY KEY,
  host     TEXT NOT NULL UNIQUE,
  site     TEXT NOT NULL DEFAULT '',
  urls     INTEGER NOT NULL DEFAULT 0,
  fetched  INTEGER NOT NULL DEFAULT 0,
  relevant INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS urls (
  id          INTEGER PRIMARY KEY,
  h           INTEGER NOT NULL UNIQUE, -- xxhash64 of url (next free value on a collision)
  url         TEXT NOT NULL,
  host_id     INTEGER NOT NULL,
  state       INTEGER NOT NULL DEFAULT 0,
  priority    REAL NOT NULL DEFAULT 0,
  depth       INTEGER NOT NULL DEFAULT 0,
  parent_id   INTEGER,
  anchor      TEXT,
  inherited   REAL,
  meta        TEXT,
  added_at    INTEGER NOT NULL,
  leased_at   INTEGER,
  lease_until INTEGER,
  lease_owner INTEGER,
  fetched_at  INTEGER,
  status      INTEGER,
  score       REAL,
  relevant    INTEGER,
  error       TEXT
);
CREATE INDEX IF NOT EXISTS urls_lease ON urls (lease_until) WHERE state = {leased};
CREATE TABLE IF NOT EXISTS edges (
  src      INTEGER NOT NULL,
  dst      INTEGER NOT NULL,
  priority REAL,
  anchor   TEXT,
  context  TEXT,
  PRIMARY KEY (src, dst)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS edges_dst ON edges (dst, src);
CREATE TABLE IF NOT EXISTS counters (
  name TEXT PRIMARY KEY,
  n    INTEGER NOT NULL
) WITHOUT ROWID;
CREATE VIEW IF NOT EXISTS frontier AS
SELECT u.url, h.host, h.site,
       CASE u.state WHEN {queued} THEN 'queued' WHEN {leased} THEN 'leased' WHEN {done} THEN 'done' WHEN {failed} THEN 'failed' END AS state,
       u.priority, u.depth, p.url AS parent, u.anchor, u.inherited, u.meta,
       datetime(u.added_at / 1000, 'unixepoch') AS added_at,
       datetime(u.leased_at / 1000, 'unixepoch') AS leased_at,
       datetime(u.lease_until / 1000, 'unixepoch') AS lease_until,
       datetime(u.fetched_at / 1000, 'unixepoch') AS fetched_at,
       u.status, u.score, u.relevant, u.error
FROM urls u JOIN hosts h ON h.id = u.host_id LEFT JOIN urls p ON p.id = u.parent_id;
`)

// SQLiteStore is the frontier in one SQLite file (WAL mode). Several
// processes may open the same file; each write is one short IMMEDIATE
// transaction and a busy database is waited for.
type SQLiteStore struct {
	db   *sql.DB
	path string

	mu    sync.Mutex
	hosts map[string]hostInfo // cache of the hosts table
	sites map[int64]string    // host id -> site key
}

type hostInfo struct {
	id    int64
	urls  int64 // URLs of the host, as far as this process knows
	added int64 // URLs added by the transaction under way
}

// OpenSQLite opens (creating if needed) the frontier database at path.
func OpenSQLite(path string) (*SQLiteStore, error) {
	if path == "" {
		return nil, errors.New("open frontier: no database file given")
	}
	if err := sqlitedb.ReadOnlyFile(path, "seed stats, seed peek or seed report"); err != nil {
		return nil, fmt.Errorf("open frontier: %w", err)
	}
	db, err := sqlitedb.OpenAs(path, sqlitedb.Frontier, "cache_size(-65536)", "temp_store(MEMORY)", "wal_autocheckpoint(16384)")
	if err != nil {
		return nil, fmt.Errorf("open frontier %s: %w", path, sqlitedb.CantOpenHint(path, err))
	}
	// Few connections: writes serialise anyway, and a reader walking the
	// link graph must not block a caller that asks for page scores.
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	s := &SQLiteStore{db: db, path: path, hosts: map[string]hostInfo{}, sites: map[int64]string{}}
	if err := s.init(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open frontier %s: %w", path, sqlitedb.CantOpenHint(path, err))
	}
	return s, nil
}

func (s *SQLiteStore) init() error {
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(schema); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	if err := migrateClasses(tx); err != nil {
		return err
	}
	if err := migrateHosts(tx); err != nil {
		return err
	}
	var v string
	err = tx.QueryRow(`SELECT value FROM info WHERE key = 'schema_version'`).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.Exec(`INSERT INTO info(key, value) VALUES ('schema_version', ?)`, SchemaVersion); err != nil {
			return err
		}
	case err != nil:
		return err
	case v != SchemaVersion:
		return fmt.Errorf("schema version %s, this program reads %s", v, SchemaVersion)
	}
	return tx.Commit()
}

// Path is the database file.
func (s *SQLiteStore) Path() string { return s.path }

// DB gives the database handle, for readers of the link graph and for
// tests. Writers should go through Apply.
func (s *SQLiteStore) DB() *sql.DB { return s.db }

// Close checkpoints and closes the database.
func (s *SQLiteStore) Close() error {
	if s.db == nil {
		return ErrClosed
	}
	_, _ = s.db.Exec(`PRAGMA wal_checkpoint(PASSIVE)`)
	err := s.db.Close()
	s.db = nil
	return err
}

// Capabilities: one file on one machine, with URL-class re-ranking.
func (s *SQLiteStore) Capabilities() Capabilities {
	return Capabilities{Kind: "sqlite", ClassRanking: true, Durable: true}
}
