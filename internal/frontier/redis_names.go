package frontier

// luaNames starts every Lua script of the Redis store: the URL states,
// host modes and record fields under the names of their Go constants, so
// that no script writes one as a bare number.
var luaNames = "\n" + luaLocals([]luaName{
	{"ST_QUEUED", int64(Queued)}, {"ST_LEASED", int64(Leased)}, {"ST_DONE", int64(Done)}, {"ST_FAILED", int64(Failed)},
	{"ST_PARKED", int64(Parked)}, {"ST_WAITING", int64(Waiting)}, {"ST_RESERVE", int64(Reserve)},
}) + luaLocals([]luaName{
	{"HOST_UP", int64(HostUp)}, {"HOST_PARKED", int64(HostParked)}, {"HOST_GIVEN_UP", int64(HostGivenUp)},
}) + luaRecordNames
