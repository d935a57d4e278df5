// Package sqlitedb opens the project's SQLite files (the crawl frontier,
// the knowledge base) through the pure-Go driver with the settings both
// need to be shared by processes that run at once in one pipe: WAL, a busy
// timeout, NORMAL sync and IMMEDIATE write transactions.
package sqlitedb

import (
	"database/sql"
	"net/url"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver
)

// Open opens (creating if needed) the database file at path. Extra pragmas
// ("cache_size(-65536)") are applied after the shared ones.
func Open(path string, pragmas ...string) (*sql.DB, error) {
	q := url.Values{}
	for _, p := range append([]string{"busy_timeout(30000)", "journal_mode(WAL)", "synchronous(NORMAL)"}, pragmas...) {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	return sql.Open("sqlite", "file:"+path+"?"+q.Encode())
}
