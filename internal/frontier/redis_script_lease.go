package frontier

// The Lua scripts that extend and take back leases; luaPrelude is in
// redis_scripts.go, the lease itself in redis_lease.go.

// The arguments of redisRenew.
const (
	renewArgNow   = iota + 1 // ms
	renewArgOwner            // decimal
	renewArgUntil            // the new lease end (ms)
	renewArgAfter            // renew the leases taken after this (ms)
)

// redisRenew extends the running leases of an owner (renewArg…). It
// returns how many.
var redisRenew = newRedisScript("renew", argSlots(
	luaName{"NOW", renewArgNow}, luaName{"OWNER", renewArgOwner}, luaName{"UNTIL", renewArgUntil}, luaName{"AFTER", renewArgAfter},
), luaPrelude+`
local now, owner = tonumber(ARGV[ARG.NOW]), ARGV[ARG.OWNER]
local untilMs, after = tonumber(ARGV[ARG.UNTIL]), tonumber(ARGV[ARG.AFTER])
local ids = redis.call('ZRANGEBYSCORE', P .. 'own:' .. owner, '(' .. now, '+inf')
local n = 0
for _, id in ipairs(ids) do
  local r = getrec(id)
  if r and r[STATE] == ST_LEASED and r[OWNER] == owner and r[LEASED] > after then
    r[UNTIL] = untilMs
    putrec(id, r)
    redis.call('ZADD', P .. 'leased', untilMs, id)
    if r[RES] == 1 then redis.call('ZADD', P .. 'rl', untilMs, id) end
    redis.call('ZADD', P .. 'own:' .. owner, untilMs, id)
    n = n + 1
  end
end
return n
`)

// redisRelease queues every leased URL again. It returns how many.
var redisRelease = newRedisScript("release", argSlots(), luaPrelude+`
local n = requeueAll(redis.call('ZRANGE', P .. 'leased', 0, -1))
flush()
return n
`)
