package frontier

import "github.com/redis/go-redis/v9"

// The Lua scripts that extend and take back leases; luaPrelude is in
// redis_scripts.go, the lease itself in redis_lease.go.

// redisRenew extends the running leases of an owner. ARGV: now, owner,
// until, leased after (ms). It returns how many.
var redisRenew = redis.NewScript(luaPrelude + `
local now, owner, untilMs, after = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
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
var redisRelease = redis.NewScript(luaPrelude + `
local n = requeueAll(redis.call('ZRANGE', P .. 'leased', 0, -1))
flush()
return n
`)
