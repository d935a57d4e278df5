package frontier

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
)

// ErrNoFrontier is returned by OpenExisting for a SQLite file that does
// not exist.
var ErrNoFrontier = errors.New("no such frontier")

// serverStores are the stores a URL names, by its scheme; anything else
// names a SQLite file. Open, OpenExisting and OpenReading all route
// through this table, so a new store is added here once.
var serverStores = []struct {
	schemes []string
	open    func(ctx context.Context, db string) (Store, error)
}{
	{[]string{"redis", "rediss", "unix"}, func(ctx context.Context, db string) (Store, error) { return OpenRedis(ctx, db) }},
	{[]string{"postgres", "postgresql"}, func(ctx context.Context, db string) (Store, error) { return OpenPostgres(ctx, db) }},
}

// serverStore gives the opener of the store db names by its scheme, or
// nil for a SQLite file.
func serverStore(db string) func(ctx context.Context, db string) (Store, error) {
	scheme, _, ok := strings.Cut(db, "://")
	if !ok {
		return nil
	}
	for _, s := range serverStores {
		for _, name := range s.schemes {
			if scheme == name {
				return s.open
			}
		}
	}
	return nil
}

// Open opens the frontier named by db: a Redis URL
// (redis://HOST:PORT/DB?prefix=NAME), a PostgreSQL URL
// (postgres://HOST:PORT/DATABASE?schema=NAME) or a SQLite file, created
// if missing.
func Open(ctx context.Context, db string) (Store, error) {
	if open := serverStore(db); open != nil {
		return open(ctx, db)
	}
	return OpenSQLite(db)
}

// OpenExisting opens a frontier that must exist already, for commands
// that read one (seed next, seed stats): a missing SQLite file is a
// mistake, not an empty frontier to create. (A Redis or PostgreSQL crawl
// with nothing in it yet is simply empty.)
func OpenExisting(ctx context.Context, db string) (Store, error) {
	if open := serverStore(db); open != nil {
		return open(ctx, db)
	}
	if err := mustExist(db); err != nil {
		return nil, err
	}
	return OpenSQLite(db)
}

// OpenReading opens a frontier that must exist, for commands that only
// read it (seed stats, peek, report): a SQLite file is opened read-only
// (OpenSQLiteReadOnly).
func OpenReading(ctx context.Context, db string) (Store, error) {
	if open := serverStore(db); open != nil {
		return open(ctx, db)
	}
	if err := mustExist(db); err != nil {
		return nil, err
	}
	return OpenSQLiteReadOnly(db)
}

func mustExist(db string) error {
	if _, err := os.Stat(db); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%s: %w", db, ErrNoFrontier)
		}
		return fmt.Errorf("open frontier %s: %w", db, err)
	}
	return nil
}
