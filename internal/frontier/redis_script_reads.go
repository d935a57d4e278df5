package frontier

import "github.com/redis/go-redis/v9"

// The Lua scripts that read the Redis store without changing it.

// redisPageScores gives the score of each fetched URL. ARGV: url, hexid,
// url, hexid, … It returns url, score pairs for the fetched ones.
var redisPageScores = redis.NewScript(luaPrelude + `
local out = {}
for i = 1, #ARGV, 2 do
  local _, r = find(ARGV[i], unhex(ARGV[i + 1]))
  if r and (r[STATE] == ST_DONE or r[STATE] == ST_FAILED) then
    local s = 0
    if r[REL] and r[REL] ~= -1 then s = r[SCORE] end
    out[#out + 1] = ARGV[i]
    out[#out + 1] = fmt(s)
  end
end
return out
`)

// redisEdges reads one page of the link graph. ARGV: cursor, count. It
// returns the next cursor and from, to, priority, anchor, context for each
// edge.
var redisEdges = redis.NewScript(luaPrelude + `
local page = redis.call('HSCAN', P .. 'edges', ARGV[1], 'COUNT', ARGV[2])
local out = {page[1]}
local kv = page[2]
for i = 1, #kv, 2 do
  local k, v = kv[i], cmsgpack.unpack(kv[i + 1])
  local fr, tr = getrec(string.sub(k, 1, 8)), getrec(string.sub(k, 9, 16))
  if fr and tr then
    out[#out + 1] = fr[URL]
    out[#out + 1] = tr[URL]
    out[#out + 1] = fmt(v[1])
    out[#out + 1] = v[2]
    out[#out + 1] = v[3]
  end
end
return out
`)

// redisState gives the state of a URL (-1: unknown). ARGV: url, hexid,
// now; an expired lease reads as queued.
var redisState = redis.NewScript(luaPrelude + `
local _, r = find(ARGV[1], unhex(ARGV[2]))
if not r then return -1 end
if r[STATE] == ST_LEASED and r[UNTIL] <= tonumber(ARGV[3]) then return ST_QUEUED end
return r[STATE]
`)
