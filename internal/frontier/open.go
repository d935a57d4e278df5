package frontier

import (
	"context"
	"errors"
	"fmt"
	"os"
)

// ErrNoFrontier is returned by OpenExisting for a SQLite file that does
// not exist.
var ErrNoFrontier = errors.New("no such frontier")

// Open opens the frontier named by db: a Redis URL
// (redis://HOST:PORT/DB?prefix=NAME), a PostgreSQL URL
// (postgres://HOST:PORT/DATABASE?schema=NAME) or a SQLite file, created
// if missing.
func Open(ctx context.Context, db string) (Store, error) {
	switch {
	case IsRedisURL(db):
		return OpenRedis(ctx, db)
	case IsPostgresURL(db):
		return OpenPostgres(ctx, db)
	}
	return OpenSQLite(db)
}

// OpenExisting opens a frontier that must exist already, for commands
// that read one (seed next, seed stats): a missing SQLite file is a
// mistake, not an empty frontier to create. (A Redis or PostgreSQL crawl
// with nothing in it yet is simply empty.)
func OpenExisting(ctx context.Context, db string) (Store, error) {
	if !IsRedisURL(db) && !IsPostgresURL(db) {
		if _, err := os.Stat(db); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("%s: %w", db, ErrNoFrontier)
			}
			return nil, fmt.Errorf("open frontier %s: %w", db, err)
		}
	}
	return Open(ctx, db)
}

// OpenReading opens a frontier that must exist, for commands that only
// read it (seed stats, peek, report): a SQLite file is opened read-only
// (OpenSQLiteReadOnly).
func OpenReading(ctx context.Context, db string) (Store, error) {
	if IsRedisURL(db) {
		return OpenRedis(ctx, db)
	}
	if _, err := os.Stat(db); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", db, ErrNoFrontier)
		}
		return nil, fmt.Errorf("open frontier %s: %w", db, err)
	}
	return OpenSQLiteReadOnly(db)
}
