package frontier

// The Lua scripts that read the Redis store without changing it.

// The arguments of redisPageScores: rows of a URL and its id.
const (
	scoresArgURL = iota + 1
	scoresArgID  // hex
)

// redisPageScores gives the score of each fetched URL (scoresArg…). It
// returns a row (score…) for each fetched one.
var redisPageScores = newRedisScript("page scores", argRows(luaName{"URL", scoresArgURL}, luaName{"ID", scoresArgID}),
	luaPrelude+luaScoreRow+`
local out = {}
for i = 0, #ARGV - 1, ARG.W do
  local url = ARGV[i + ARG.URL]
  local _, r = find(url, unhex(ARGV[i + ARG.ID]))
  if r and (r[STATE] == ST_DONE or r[STATE] == ST_FAILED) then
    local s = 0
    if r[REL] and r[REL] ~= -1 then s = r[SCORE] end
    out[#out + 1] = {[PS_URL] = url, [PS_SCORE] = fmt(s)}
  end
end
return out
`)

// The arguments of a script that reads a page of a set by SCAN (HSCAN,
// SSCAN): the cursor, and the COUNT hint.
const (
	scanArgCursor = iota + 1
	scanArgCount
)

var scanPageArgs = argSlots(luaName{"CURSOR", scanArgCursor}, luaName{"COUNT", scanArgCount})

// redisEdges reads one page of the link graph (scanPageArgs). It
// answers a reply: the next cursor, and a row (edge…) for each edge.
var redisEdges = newRedisScript("edges", scanPageArgs, luaPrelude+luaEdgeRow+`
local cursor, kv = unpack(redis.call('HSCAN', P .. KEY.EDGES, ARGV[ARG.CURSOR], 'COUNT', ARGV[ARG.COUNT]))
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

// The arguments of redisState.
const (
	stateArgURL = iota + 1
	stateArgID  // hex
	stateArgNow // ms
)

// redisState gives the state of a URL (-1: unknown; stateArg…); an
// expired lease reads as queued.
var redisState = newRedisScript("state", argSlots(luaName{"URL", stateArgURL}, luaName{"ID", stateArgID}, luaName{"NOW", stateArgNow}),
	luaPrelude+`
local _, r = find(ARGV[ARG.URL], unhex(ARGV[ARG.ID]))
if not r then return -1 end
if r[STATE] == ST_LEASED and r[UNTIL] <= tonumber(ARGV[ARG.NOW]) then return ST_QUEUED end
return r[STATE]
`)
