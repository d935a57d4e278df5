package frontier

import (
	"context"
	"errors"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// DefaultPostgresOutageWait is how long an operation waits for an
// unreachable PostgreSQL server to come back before it fails
// (?outage_wait= changes it).
const DefaultPostgresOutageWait = 30 * time.Second

// ErrPostgresOutage marks an operation that failed because the PostgreSQL
// server stayed unreachable for the whole outage wait.
var ErrPostgresOutage = errors.New("postgres unreachable")

// newPgOutage watches the outages of the server at addr.
func newPgOutage(addr string, wait time.Duration) *outageWatch {
	return &outageWatch{server: "postgres at " + addr, wait: wait, log: os.Stderr, lost: pgConnectionLost, gaveUp: ErrPostgresOutage}
}

// pgConnectionLost tells a failure of the connection to the server (it
// refused or dropped it, or is shutting down or starting up) from one of
// the statement.
func pgConnectionLost(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// Class 08: connection exception; 57P01-03: the server shutting
		// down, crashed, or not accepting connections yet.
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	return connectionError(err) || strings.Contains(err.Error(), "conn closed")
}

// The store's statements outside a transaction, run again through an
// outage (reads, and writes that are the same run twice). A query whose
// rows are being read when the connection breaks fails: its caller has
// seen some of them.

func (s *PostgresStore) query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	var rows pgx.Rows
	err := s.outage.run(ctx, func() error {
		var err error
		rows, err = s.pool.Query(ctx, sql, args...)
		return err
	})
	return rows, err
}

func (s *PostgresStore) exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	var tag pgconn.CommandTag
	err := s.outage.run(ctx, func() error {
		var err error
		tag, err = s.pool.Exec(ctx, sql, args...)
		return err
	})
	return tag, err
}

func (s *PostgresStore) queryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return pgRetryRow{s: s, ctx: ctx, sql: sql, args: args}
}

// pgRetryRow is a row read again through an outage when scanned.
type pgRetryRow struct {
	s    *PostgresStore
	ctx  context.Context
	sql  string
	args []any
}

func (r pgRetryRow) Scan(dest ...any) error {
	return r.s.outage.run(r.ctx, func() error { return r.s.pool.QueryRow(r.ctx, r.sql, r.args...).Scan(dest...) })
}
