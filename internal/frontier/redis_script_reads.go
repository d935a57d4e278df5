package frontier

import "github.com/redis/go-redis/v9"

// The Lua scripts that read the Redis store without changing it.

// redisPageScores gives the score of each fetched URL. ARGV: url, hexid,
// url, hexid, … It returns a row (score…) for each fetched one.
var redisPageScores = redis.NewScript(luaPrelude + luaScoreRow + `
local out = {}
for i = 1, #ARGV, 2 do
  local _, r = find(ARGV[i], unhex(ARGV[i + 1]))
  if r and (r[STATE] == ST_DONE or r[STATE] == ST_FAILED) then
    local s = 0
    if r[REL] and r[REL] ~= -1 then s = r[SCORE] end
    out[#out + 1] = {[PS_URL] = ARGV[i], [PS_SCORE] = fmt(s)}
  end
end
return out
`)

// redisEdges reads one page of the link graph. ARGV: cursor, count. It
// answers a reply: the next cursor, and a row (edge…) for each edge.
var redisEdges = redis.NewScript(luaPrelude + luaEdgeRow + `
local cursor, kv = unpack(redis.call('HSCAN', P .. 'edges', ARGV[1], 'COUNT', ARGV[2]))
local out = {}
for i = 1, #kv, 2 do
  local k, v = kv[i], cmsgpack.unpack(kv[i + 1])
  local fr, tr = getrec(string.sub(k, 1, 8)), getrec(string.sub(k, 9, 16))
  if fr and tr then
    out[#out + 1] = {[ER_FROM] = fr[URL], [ER_TO] = tr[URL], [ER_PRIO] = fmt(v[EG_PRIO]), [ER_ANCHOR] = v[EG_ANCHOR],
      [ER_CONTEXT] = v[EG_CONTEXT]}
  end
end
return reply(cursor, out)
`)

// redisState gives the state of a URL (-1: unknown). ARGV: url, hexid,
// now; an expired lease reads as queued.
var redisState = redis.NewScript(luaPrelude + `
local _, r = find(ARGV[1], unhex(ARGV[2]))
if not r then return -1 end
if r[STATE] == ST_LEASED and r[UNTIL] <= tonumber(ARGV[3]) then return ST_QUEUED end
return r[STATE]
`)
