package frontier

import (
	"database/sql"
	"errors"
	"fmt"
	"math"

	"github.com/cespare/xxhash/v2"
)

// urlID is the slot a URL is stored in: its 64-bit xxhash folded to a
// positive rowid. Keying the table on the hash spares an index on the URL
// text (half the bytes of the database); the rare collision is resolved by
// probing the next slots, so no URL is ever mistaken for another.
func urlID(u string) int64 {
	id := int64(xxhash.Sum64String(u) & math.MaxInt64)
	if id == 0 {
		id = 1
	}
	return id
}

// maxProbe bounds the probing of a chain of collisions, which with 63-bit
// hashes is never longer than a few slots.
const maxProbe = 64

// findURL probes the slots of u with read, which returns the URL and state
// stored in a slot or sql.ErrNoRows. It returns the URL's id and state, or
// id 0 and the first free slot.
func findURL(read func(slot int64) (string, State, error), u string) (id, free int64, state State, err error) {
	slot := urlID(u)
	for i := 0; i < maxProbe; i++ {
		got, st, err := read(slot)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return 0, slot, 0, nil
		case err != nil:
			return 0, 0, 0, fmt.Errorf("frontier: look up %s: %w", u, err)
		case got == u:
			return slot, slot, st, nil
		}
		if slot == math.MaxInt64 {
			slot = 1
		} else {
			slot++
		}
	}
	return 0, 0, 0, fmt.Errorf("frontier: look up %s: %d slots in a row taken", u, maxProbe)
}
