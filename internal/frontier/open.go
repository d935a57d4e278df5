package frontier

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
)

// ErrNoFrontier is returned by OpenExisting and OpenReading for a
// frontier that was never made: a SQLite file that does not exist, a
// Redis prefix without the crawl marker, a PostgreSQL schema without the
// crawl's tables.
var ErrNoFrontier = errors.New("no such frontier")

// serverStores are the stores a URL names, by its scheme; anything else
// names a SQLite file. Open, OpenExisting and OpenReading all route
// through this table, so a new store is added here once.
var serverStores = []struct {
	schemes []string
	open    serverOpener
}{
	{[]string{"redis", "rediss", "unix"}, func(ctx context.Context, db string, create bool) (Store, error) {
		return openRedis(ctx, db, create)
	}},
	{[]string{"postgres", "postgresql"}, func(ctx context.Context, db string, create bool) (Store, error) {
		return openPostgres(ctx, db, create)
	}},
}

// serverOpener opens a server's frontier; create makes it (and marks it
// begun) when missing, else a missing one is ErrNoFrontier.
type serverOpener func(ctx context.Context, db string, create bool) (Store, error)

// serverStore gives the opener of the store db names by its scheme, or
// nil for a SQLite file.
func serverStore(db string) serverOpener {
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

// IsServerURL tells whether db names a frontier on a server (Redis,
// PostgreSQL) rather than a SQLite file.
func IsServerURL(db string) bool { return serverStore(db) != nil }

// Open opens the frontier named by db: a Redis URL
// (redis://HOST:PORT/DB?prefix=NAME), a PostgreSQL URL
// (postgres://HOST:PORT/DATABASE?schema=NAME) or a SQLite file, created
// if missing. Opening a server's frontier this way marks it begun (the
// crawl marker that OpenExisting looks for).
func Open(ctx context.Context, db string) (Store, error) {
	if open := serverStore(db); open != nil {
		return open(ctx, db, true)
	}
	return OpenSQLite(db)
}

// OpenExisting opens a frontier that must exist already, for commands
// that read one (seed next, seed stats): a missing SQLite file, a Redis
// prefix that no one began a crawl under (no crawl marker) or a
// PostgreSQL schema without the crawl's tables is a mistake (a typo, a
// server that lost its data), not an empty frontier to "resume".
func OpenExisting(ctx context.Context, db string) (Store, error) {
	if open := serverStore(db); open != nil {
		return open(ctx, db, false)
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
		return open(ctx, db, false)
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
