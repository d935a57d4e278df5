package frontier

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/cespare/xxhash/v2"
)

// urlHash is the key URLs are looked up by: their 64-bit xxhash, indexed
// (urls_h) in place of the URL text, which would double the bytes of the
// database. Rows keep their insertion order, so adding URLs appends to
// the table. Two URLs with one hash (never seen in practice, but possible)
// are told apart by their text.
func urlHash(u string) int64 { return int64(xxhash.Sum64String(u)) }

// findURL looks u up with stmt, a query of id, url and state by h. It
// returns id 0 when u is not stored.
func findURL(ctx context.Context, stmt *sql.Stmt, u string) (id int64, state State, err error) {
	rows, err := stmt.QueryContext(ctx, urlHash(u))
	if err != nil {
		return 0, 0, fmt.Errorf("frontier: look up %s: %w", u, err)
	}
	defer rows.Close()
	for rows.Next() {
		var got string
		if err := rows.Scan(&id, &got, &state); err != nil {
			return 0, 0, fmt.Errorf("frontier: look up %s: %w", u, err)
		}
		if got == u {
			return id, state, nil
		}
	}
	if err := rows.Err(); err != nil {
		return 0, 0, fmt.Errorf("frontier: look up %s: %w", u, err)
	}
	return 0, 0, nil
}
