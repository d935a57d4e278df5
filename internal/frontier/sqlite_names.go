package frontier

import (
	"strconv"
	"strings"
)

// The SQLite store's statements name URL states and host modes in braces
// ({queued}, {host-parked}); sq puts in the numbers the Go constants
// store, so that no state is written as a bare number in SQL.
var sqlNames = strings.NewReplacer(
	"{queued}", strconv.Itoa(int(Queued)), "{leased}", strconv.Itoa(int(Leased)), "{done}", strconv.Itoa(int(Done)),
	"{failed}", strconv.Itoa(int(Failed)), "{parked}", strconv.Itoa(int(Parked)), "{waiting}", strconv.Itoa(int(Waiting)),
	"{host-up}", strconv.Itoa(int(HostUp)), "{host-parked}", strconv.Itoa(int(HostParked)), "{host-given-up}", strconv.Itoa(int(HostGivenUp)),
)

// sq gives a statement with its state and mode names replaced.
func sq(q string) string { return sqlNames.Replace(q) }
