package frontier

import "fmt"

// luaNames starts every Lua script of the Redis store: the URL states and
// host modes under the names of their Go constants, so that no script
// writes one as a bare number.
var luaNames = fmt.Sprintf(`
local ST_QUEUED, ST_LEASED, ST_DONE, ST_FAILED, ST_PARKED, ST_WAITING, ST_RESERVE = %d, %d, %d, %d, %d, %d, %d
local HOST_UP, HOST_PARKED, HOST_GIVEN_UP = %d, %d, %d
local PROBE_MIN_WAIT = %d
`, Queued, Leased, Done, Failed, Parked, Waiting, Reserve, HostUp, HostParked, HostGivenUp, probeMinWait.Milliseconds())
