package frontier

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/focuscrawl/focuscrawl/internal/sqlitedb"
)

// OpenSQLiteReadOnly opens the existing frontier database at path for
// commands that only read it (seed stats, peek, report): nothing is
// created or written, so it works on a read-only file or directory and
// beside a crawl that holds the write lock. Writes fail.
func OpenSQLiteReadOnly(path string) (*SQLiteStore, error) {
	if path == "" {
		return nil, errors.New("open frontier: no database file given")
	}
	db, err := sqlitedb.OpenReadOnly(path, sqlitedb.Frontier)
	if err != nil {
		return nil, fmt.Errorf("open frontier %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	var v string
	err = db.QueryRow(`SELECT value FROM info WHERE key = 'schema_version'`).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		err = errors.New("no schema version: not a frontier made by seed add")
	case err == nil && v != SchemaVersion:
		err = fmt.Errorf("schema version %s, this program reads %s (open it once with seed add to upgrade it)", v, SchemaVersion)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open frontier %s: %w", path, err)
	}
	return &SQLiteStore{db: db, path: path, hosts: map[string]hostInfo{}, sites: map[int64]string{}}, nil
}
