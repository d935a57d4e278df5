package frontier

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/cespare/xxhash/v2"
)

// urlHash is the key URLs are looked up by: their 64-bit xxhash, kept in
// the unique column h (index urls_h) in place of an index on the URL text,
// which would double the bytes of the database. Rows keep their insertion
// order, so adding URLs appends to the table. When two URLs share a hash
// (never seen in practice, but possible) the second takes the next free
// value, h+1, h+2 …, and lookups probe those in turn.
func urlHash(u string) int64 { return int64(xxhash.Sum64String(u)) }

// maxProbe bounds a chain of hash collisions, which is never longer than a
// few values.
const maxProbe = 64

// findURL looks u up with stmt, a query of id, url and state by h. It
// returns the URL's id and state, or id 0 and the h value it would be
// stored under.
func findURL(ctx context.Context, stmt *sql.Stmt, u string) (id int64, state State, free int64, err error) {
	h := urlHash(u)
	for i := 0; i < maxProbe; i, h = i+1, h+1 {
		var got string
		err := stmt.QueryRowContext(ctx, h).Scan(&id, &got, &state)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return 0, 0, h, nil
		case err != nil:
			return 0, 0, 0, fmt.Errorf("frontier: look up %s: %w", u, err)
		case got == u:
			return id, state, h, nil
		}
	}
	return 0, 0, 0, fmt.Errorf("frontier: look up %s: %d hash values in a row taken", u, maxProbe)
}
