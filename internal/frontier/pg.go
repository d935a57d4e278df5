package frontier

import (
	"context"
	"crypto/md5"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// PostgresStore is the frontier in a PostgreSQL database: on disk,
// durable, and shared by the seed next, fetch, …, seed add pipes of any
// number of machines. One crawl is one PostgreSQL schema (?schema=NAME);
// the tables are those of the SQLite store (docs/frontier.md).
//
// Concurrency (docs/frontier.md, "PostgreSQL"):
//   - Lease runs under a transaction-level advisory lock of the crawl, so
//     lease calls follow one another, as on SQLite: each sees the running
//     leases of every worker, so the per-host rule (LeaseRequest.Room),
//     the host limit, gaps and first contact hold over all workers, and
//     its UPDATE … WHERE state = queued never hands one URL out twice.
//   - Apply runs beside leases and other Applies, at READ COMMITTED: the
//     hosts whose state its outcomes change are locked first, in one
//     order (SELECT … FOR UPDATE on their host_state rows), so two
//     workers' outcomes of one host are stepped one after the other
//     (hostpolicy.go) and neither is lost. A deadlock or serialization
//     failure the server reports runs the transaction again.
type PostgresStore struct {
	pool    *pgxpool.Pool
	schema  string
	lockKey int64 // the crawl's advisory lock (Lease)

	outage *outageWatch // rides out the server's outages (?outage_wait=)
	// bulkFresh: the last bulk insert of new URLs found none known, so
	// the next is tried as all new (pgBulkInsertNew).
	bulkFresh atomic.Bool

	mu    sync.Mutex
	hosts map[string]hostInfo // cache of the hosts table
	sites map[int64]string    // host id -> site key

	// deadlocks counts the transactions PostgreSQL broke as deadlocked
	// (and inTx ran again), for the tests.
	deadlocks atomic.Int64

	// afterHostLock, in tests, runs once in Apply after it locked its
	// hosts' state, as another worker's Apply could be waiting then.
	afterHostLock func()
	// redirect tells whether urls has the redirect column: a crawl made
	// before it is read and written without (its redirect targets are
	// not marked), as its DDL would lock tables running workers write.
	redirect bool
}

var _ Store = (*PostgresStore)(nil)
var _ HostAdmin = (*PostgresStore)(nil)

// DefaultPostgresSchema names the crawl when the URL gives no ?schema=.
const DefaultPostgresSchema = "focuscrawl"

// pgSchemaVersion is the layout of pgSchema, kept in info.schema_version:
// 2 added the URL classes (pgClassSchema), which init adds to a crawl of
// layout 1.
const pgSchemaVersion = "2"

// IsPostgresURL tells whether a --db value names a PostgreSQL frontier.
func IsPostgresURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

var pgSchemaName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// OpenPostgres connects to the frontier named by a URL of the form
// postgres://[USER[:PASSWORD]@]HOST[:PORT]/DATABASE?schema=NAME. NAME (a
// lower-case SQL name; default "focuscrawl") tells crawls in one database
// apart: each is a schema of its own, created with its tables on first
// use. ?outage_wait= (default 30s) is how long an operation waits for a
// server that went away (pg_outage.go). Other query parameters are pgx's
// (sslmode, pool_max_conns, …).
func OpenPostgres(ctx context.Context, dsn string) (*PostgresStore, error) {
	return openPostgres(ctx, dsn, true)
}

// openPostgres opens a PostgreSQL frontier; without create, a schema
// that holds no crawl (mistyped, or never seeded) is ErrNoFrontier
// instead of an empty frontier made on the spot.
func openPostgres(ctx context.Context, dsn string, create bool) (*PostgresStore, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, fmt.Errorf("open frontier %s: %w", redactDSN(dsn), err)
	}
	q := u.Query()
	name := q.Get("schema")
	wait, err := parseOutageWait(q.Get("outage_wait"), DefaultPostgresOutageWait)
	if err != nil {
		return nil, fmt.Errorf("open frontier %s: %w", redactDSN(dsn), err)
	}
	q.Del("schema")
	q.Del("outage_wait")
	u.RawQuery = q.Encode()
	if name == "" {
		name = DefaultPostgresSchema
	}
	if !pgSchemaName.MatchString(name) {
		return nil, fmt.Errorf("open frontier %s: schema %q: lower-case letters, digits and _ only", redactDSN(dsn), name)
	}
	cfg, err := pgxpool.ParseConfig(u.String())
	if err != nil {
		return nil, fmt.Errorf("open frontier %s: %w", redactDSN(dsn), err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = name
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open frontier %s: %w", redactDSN(dsn), err)
	}
	s := &PostgresStore{pool: pool, schema: name, lockKey: int64(xxhash.Sum64String("focuscrawl lease " + name)),
		hosts: map[string]hostInfo{}, sites: map[int64]string{}, outage: newPgOutage(u.Host, wait)}
	if err := s.init(ctx, create); err != nil {
		pool.Close()
		if errors.Is(err, ErrNoFrontier) {
			return nil, fmt.Errorf("%s: %w", redactDSN(dsn), err)
		}
		return nil, fmt.Errorf("open frontier %s: %w", redactDSN(dsn), err)
	}
	if err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM information_schema.columns
		WHERE table_schema = $1 AND table_name = 'urls' AND column_name = 'redirect')`, name).Scan(&s.redirect); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open frontier %s: %w", redactDSN(dsn), err)
	}
	return s, nil
}

// pgSchema is the crawl's tables, as in the SQLite store (sqlite.go,
// sqlite_hosts.go), with two changes: a URL is found by k, the MD5 of its
// text as a uuid (16 bytes, unique: no probing for collisions), and the
// queue index carries host_id, so a lease walks it alone.
var pgSchema = sq(`
CREATE TABLE IF NOT EXISTS info (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS hosts (
  id       bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  host     text NOT NULL UNIQUE,
  site     text NOT NULL DEFAULT '',
  urls     bigint NOT NULL DEFAULT 0,
  fetched  bigint NOT NULL DEFAULT 0,
  relevant bigint NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS urls (
  id          bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  k           uuid NOT NULL UNIQUE,
  url         text NOT NULL,
  host_id     bigint NOT NULL,
  state       smallint NOT NULL DEFAULT {queued},
  priority    double precision NOT NULL DEFAULT 0,
  depth       integer NOT NULL DEFAULT 0,
  parent_id   bigint,
  anchor      text,
  inherited   double precision,
  meta        text,
  added_at    bigint NOT NULL,
  leased_at   bigint,
  lease_until bigint,
  lease_owner bigint,
  fetched_at  bigint,
  status      integer,
  score       double precision,
  relevant    boolean,
  error       text,
  tries       integer NOT NULL DEFAULT 0,
  retry_at    bigint,
  reserve     boolean NOT NULL DEFAULT false,
  prior       double precision,
  class_id    bigint,
  redirect    boolean NOT NULL DEFAULT false -- done as where another URL's fetch ended
);
CREATE INDEX IF NOT EXISTS urls_queue ON urls (reserve, priority DESC, depth, id) INCLUDE (host_id) WHERE state = {queued};
CREATE INDEX IF NOT EXISTS urls_lease ON urls (lease_until) WHERE state = {leased};
CREATE INDEX IF NOT EXISTS urls_retry ON urls (retry_at) WHERE state = {waiting};
CREATE INDEX IF NOT EXISTS urls_host ON urls (host_id, state);
CREATE TABLE IF NOT EXISTS edges (
  src      bigint NOT NULL,
  dst      bigint NOT NULL,
  priority double precision,
  anchor   text,
  context  text,
  PRIMARY KEY (src, dst)
);
CREATE INDEX IF NOT EXISTS edges_dst ON edges (dst, src);
CREATE TABLE IF NOT EXISTS counters (name text PRIMARY KEY, n bigint NOT NULL);
CREATE TABLE IF NOT EXISTS host_state (
  host_id  bigint PRIMARY KEY,
  parked   smallint NOT NULL DEFAULT {host-up},
  reason   text,
  since    bigint,
  retry_at bigint,
  wait_ms  bigint NOT NULL DEFAULT 0,
  tries    integer NOT NULL DEFAULT 0,
  timeouts integer NOT NULL DEFAULT 0,
  probe_id bigint,
  robots   text,
  robots_agent text
);
CREATE INDEX IF NOT EXISTS host_state_parked ON host_state (retry_at) WHERE parked = {host-parked};
CREATE TABLE IF NOT EXISTS host_lease (host_id bigint PRIMARY KEY, owner bigint NOT NULL, at bigint NOT NULL);
` + pgClassSchema)

// init creates the schema and its tables once (under an advisory lock,
// so that two workers starting together do not race), and checks the
// layout version. A crawl made already is only checked: its DDL would
// lock tables that running workers write (CREATE INDEX IF NOT EXISTS
// takes a share lock before it looks), and deadlock with them. A crawl of
// an older layout is brought up to date once; without create, a schema
// with no crawl in it is ErrNoFrontier.
func (s *PostgresStore) init(ctx context.Context, create bool) error {
	var v string
	err := s.outage.run(ctx, func() error {
		var err error
		v, err = s.version(ctx, s.pool)
		return err
	})
	if err != nil || v == pgSchemaVersion {
		return err
	}
	if v == "" && !create {
		return fmt.Errorf("%w: no crawl in schema %q of this database (it has no focuscrawl tables): "+
			"a mistyped schema, or a crawl never seeded", ErrNoFrontier, s.schema)
	}
	return s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(xxhash.Sum64String("focuscrawl schema "+s.schema))); err != nil {
			return err
		}
		v, err := s.version(ctx, tx)
		switch {
		case err != nil || v == pgSchemaVersion:
			return err // made by another worker meanwhile
		case v == "1":
			if _, err := tx.Exec(ctx, pgClassMigration); err != nil {
				return fmt.Errorf("add the URL classes: %w", err)
			}
			_, err := tx.Exec(ctx, `UPDATE info SET value = $1 WHERE key = 'schema_version'`, pgSchemaVersion)
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{s.schema}.Sanitize()); err != nil {
			return fmt.Errorf("create schema: %w", err)
		}
		if _, err := tx.Exec(ctx, pgSchema); err != nil {
			return fmt.Errorf("create tables: %w", err)
		}
		_, err = tx.Exec(ctx, `INSERT INTO info (key, value) VALUES ('schema_version', $1)`, pgSchemaVersion)
		return err
	})
}

// version reads the layout version of the crawl ("" when it has no
// tables yet), and refuses one this program does not read.
func (s *PostgresStore) version(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}) (string, error) {
	var exists bool
	if err := q.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, pgx.Identifier{s.schema, "info"}.Sanitize()).Scan(&exists); err != nil || !exists {
		return "", err
	}
	var v *string
	err := q.QueryRow(ctx, `SELECT (SELECT value FROM info WHERE key = 'schema_version')`).Scan(&v)
	switch {
	case err != nil:
		return "", err
	case v == nil:
		return "", nil
	case *v != pgSchemaVersion && *v != "1":
		return "", fmt.Errorf("schema version %s, this program reads %s", *v, pgSchemaVersion)
	}
	return *v, nil
}

// Schema is the PostgreSQL schema that holds the crawl.
func (s *PostgresStore) Schema() string { return s.schema }

// Pool gives the connection pool, for tests and tools.
func (s *PostgresStore) Pool() *pgxpool.Pool { return s.pool }

// Close closes the connections.
func (s *PostgresStore) Close() error {
	if s.pool == nil {
		return ErrClosed
	}
	s.pool.Close()
	s.pool = nil
	return nil
}

// Drop deletes the crawl: its schema and every table in it (tests, and
// starting a crawl over).
func (s *PostgresStore) Drop(ctx context.Context) error {
	if s.pool == nil {
		return ErrClosed
	}
	if _, err := s.exec(ctx, `DROP SCHEMA IF EXISTS `+pgx.Identifier{s.schema}.Sanitize()+` CASCADE`); err != nil {
		return fmt.Errorf("frontier: drop: %w", err)
	}
	return nil
}

// pgKey is the key a URL is found by (urls.k).
func pgKey(u string) [16]byte { return md5.Sum([]byte(u)) }

// pgUpdateURLs is an UPDATE of the urls rows that match where (sq names
// allowed; the table is named urls, unaliased) that takes their locks
// first, in id order. Every statement of this store that writes many URL
// rows is one of these, or writes rows locked so already
// (pgApply.lockURLs): two such statements that want the same rows take
// them in one order, so one waits for the other, never each for the
// other. Left to its plan, an UPDATE locks its rows in the order it meets
// them (their place in the table, or in the index it walks): a host
// parked while another worker leased or raised its URLs held rows the
// other wanted, each waiting until PostgreSQL's deadlock check broke one
// (a second later; the transaction ran again). The order holds within a
// statement: a transaction that locks URLs in two statements (a lease's
// reclaim, then its mark) can still meet another in a cycle (inTx runs
// it again).
func pgUpdateURLs(set, where string) string {
	return sq(`WITH l AS (SELECT id FROM urls WHERE (` + where + `) ORDER BY id FOR UPDATE)
		UPDATE urls SET ` + set + ` FROM l WHERE urls.id = l.id`)
}

// inTx runs fn in a transaction, again (up to 8 times, after a short
// random wait) when the server aborts it for a deadlock or a
// serialization failure, and again through an outage (?outage_wait=)
// when the connection is lost: fn must start from scratch each time. A
// transaction whose COMMIT was sent just before the connection broke may
// have committed: the store's transactions are safe to run twice (a
// lease run twice leaves its URLs leased until the lease ends; outcomes
// applied twice change nothing more).
func (s *PostgresStore) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	if s.pool == nil {
		return ErrClosed
	}
	return s.outage.run(ctx, func() error {
		for attempt := 0; ; attempt++ {
			err := pgx.BeginFunc(ctx, s.pool, fn)
			var pe *pgconn.PgError
			if err == nil || attempt >= 8 || !errors.As(err, &pe) || (pe.Code != "40P01" && pe.Code != "40001") {
				return err
			}
			if pe.Code == "40P01" {
				s.deadlocks.Add(1)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Duration(1+rand.IntN(10<<attempt)) * time.Millisecond):
			}
		}
	})
}

// Capabilities: on disk, shared by workers on many machines, re-ranks
// URL classes.
func (s *PostgresStore) Capabilities() Capabilities {
	return Capabilities{Kind: "postgres", ClassRanking: true, Shared: true, Durable: true}
}
