package frontier

import "github.com/redis/go-redis/v9"

// The Lua scripts of the Redis store. Each runs atomically on the server.
// KEYS[1] is the crawl's prefix "{NAME}:"; every key a script touches
// starts with it, so they share one hash slot.
//
// A URL's record is a MessagePack array kept in one of 65,536 bucket
// hashes (u:N, N the low 16 bits of its id), so that small hashes stay in
// Redis's compact listpack encoding; the fields are numbered below. Ids
// are 8-byte strings (the URL's xxhash64, or the next free value after a
// collision).
const luaPrelude = `
local P = KEYS[1]
local URL, HOST, STATE, PRIO, DEPTH, PARENT, ANCHOR, INH, META, SEQ, ADDED, LEASED, UNTIL, OWNER, FETCHED, STATUS, SCORE, REL, ERR =
      1,   2,    3,     4,    5,     6,      7,      8,   9,    10,  11,    12,     13,    14,    15,      16,     17,    18,  19
local function bkey(id) return P .. 'u:' .. (string.byte(id, 7) * 256 + string.byte(id, 8)) end
local function getrec(id)
  local v = redis.call('HGET', bkey(id), id)
  if not v then return nil end
  return cmsgpack.unpack(v)
end
local function putrec(id, r) redis.call('HSET', bkey(id), id, cmsgpack.pack(r)) end
local function incid(id)
  local b = {string.byte(id, 1, 8)}
  for i = 8, 1, -1 do
    if b[i] < 255 then b[i] = b[i] + 1; break end
    b[i] = 0
  end
  return string.char(unpack(b))
end
local function unhex(h)
  return (h:gsub('..', function(x) return string.char(tonumber(x, 16)) end))
end
-- find returns the id of url and its record, or the id to store it under
-- and nil.
local function find(url, id)
  for _ = 1, 64 do
    local r = getrec(id)
    if not r then return id, nil end
    if r[URL] == url then return id, r end
    id = incid(id)
  end
  error('frontier: 64 hash values in a row taken for ' .. url)
end
local function be8(n)
  local t = {}
  for i = 8, 1, -1 do t[i] = n % 256; n = math.floor(n / 256) end
  return string.char(unpack(t))
end
-- The queue is one sorted set ordered by this score, then by member:
-- priority (highest first, to 2^-30), depth (lowest first), then the
-- member's first 8 bytes, the URL's sequence number (oldest first).
local function qscore(p, d)
  if d > 255 then d = 255 elseif d < 0 then d = 0 end
  return -math.floor(p * 1073741824) * 256 + d
end
local function fmt(x) return string.format('%.17g', x) end
local function stat(field, n) redis.call('HINCRBY', P .. 'st', field, n) end
local function movestate(r, state, depth)
  stat('n:' .. r[STATE] .. ':' .. r[DEPTH], -1)
  stat('n:' .. state .. ':' .. depth, 1)
end
local function enqueue(id, r) redis.call('ZADD', P .. 'q', qscore(r[PRIO], r[DEPTH]), be8(r[SEQ]) .. id) end
local function dequeue(id, r) redis.call('ZREM', P .. 'q', be8(r[SEQ]) .. id) end
local function unlease(id, r)
  redis.call('ZREM', P .. 'leased', id)
  if r[OWNER] ~= '' then redis.call('ZREM', P .. 'own:' .. r[OWNER], id) end
  if redis.call('HINCRBY', P .. 'h:active', r[HOST], -1) <= 0 then redis.call('HDEL', P .. 'h:active', r[HOST]) end
  r[LEASED] = 0; r[UNTIL] = 0; r[OWNER] = ''
end
local function requeue(id, r)
  unlease(id, r)
  movestate(r, 0, r[DEPTH])
  r[STATE] = 0
  enqueue(id, r)
  putrec(id, r)
end
local function hostadd(host, site)
  redis.call('HINCRBY', P .. 'h:urls', host, 1)
  redis.call('HSETNX', P .. 'h:site', host, site)
end
local function newrec(url, host, state, prio, depth, parent, anchor, inh, meta, now)
  local seq = redis.call('HINCRBY', P .. 'meta', 'seq', 1)
  return {url, host, state, prio, depth, parent, anchor, inh, meta, seq, now, 0, 0, '', 0, 0, 0, -1, ''}
end
-- reclaim queues again up to limit URLs whose lease ran out.
local function reclaim(now, limit)
  local exp = redis.call('ZRANGEBYSCORE', P .. 'leased', '-inf', now, 'LIMIT', 0, limit)
  local n = 0
  for _, id in ipairs(exp) do
    local r = getrec(id)
    if r and r[STATE] == 1 then
      requeue(id, r)
      n = n + 1
    else
      redis.call('ZREM', P .. 'leased', id)
    end
  end
  if n > 0 then redis.call('HINCRBY', P .. 'counters', 'lease.expired', n) end
  return n
end
`

// redisApply records a batch: ARGV[1] is a JSON object
// {now, max, done: [[url, hexid, host, site, depth, state, fetched, status,
// score, rel, err]], queue: [[url, hexid, host, site, prio, depth,
// parent, hexparent, anchor, inherited, meta]], edges: [[from, hexfrom, to,
// hexto, prio, anchor, context]], refused: {guard: n}}. It returns
// {done, queued, raised, known, refused}.
var redisApply = redis.NewScript(luaPrelude + `
local b = cjson.decode(ARGV[1])
local now, max = b.now, b.max
local res = {0, 0, 0, 0, 0}

local function done(d)
  local url, host, site, depth, state, fetched, status, score, rel, err =
        d[1], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10], d[11]
  local id, r = find(url, unhex(d[2]))
  local before
  if not r then
    r = newrec(url, host, state, 0, depth, '', '', 0, '', now)
    r[FETCHED], r[STATUS], r[SCORE], r[REL], r[ERR] = fetched, status, score, rel, err
    hostadd(host, site)
    stat('n:' .. state .. ':' .. depth, 1)
    before = 0
  else
    before = r[STATE]
    if before == 1 then unlease(id, r) elseif before == 0 then dequeue(id, r) end
    if (before == 2 or before == 3) and r[REL] == 1 then stat('r:' .. r[DEPTH], -1) end
    movestate(r, state, r[DEPTH])
    r[STATE], r[FETCHED], r[STATUS], r[SCORE], r[REL], r[ERR] = state, fetched, status, score, rel, err
  end
  putrec(id, r)
  if rel == 1 then stat('r:' .. r[DEPTH], 1) end
  if before ~= 2 and before ~= 3 then
    redis.call('HINCRBY', P .. 'h:fetched', r[HOST], 1)
    if rel == 1 then redis.call('HINCRBY', P .. 'h:rel', r[HOST], 1) end
    redis.call('RPUSH', P .. 'log', id)
  end
end

local function raise(id, r, prio, depth, parent, anchor, inh)
  if (r[STATE] == 0 or r[STATE] == 1) and (prio > r[PRIO] or depth < r[DEPTH]) then
    if r[STATE] == 0 then dequeue(id, r) end
    local nd = r[DEPTH]
    if depth < nd then nd = depth end
    movestate(r, r[STATE], nd)
    r[DEPTH] = nd
    if prio > r[PRIO] then r[PRIO], r[PARENT], r[ANCHOR], r[INH] = prio, parent, anchor, inh end
    if r[STATE] == 0 then enqueue(id, r) end
    putrec(id, r)
    return 3
  end
  return 4
end

local function queue(e)
  local url, host, site, prio, depth, anchor, inh, meta = e[1], e[3], e[4], e[5], e[6], e[9], e[10], e[11]
  local parent = ''
  if e[7] ~= '' then
    local pid, pr = find(e[7], unhex(e[8]))
    if pr then parent = pid end
  end
  local id, r = find(url, unhex(e[2]))
  if r then return raise(id, r, prio, depth, parent, anchor, inh) end
  if max > 0 and tonumber(redis.call('HGET', P .. 'h:urls', host) or 0) >= max then return 5 end
  r = newrec(url, host, 0, prio, depth, parent, anchor, inh, meta, now)
  enqueue(id, r)
  putrec(id, r)
  hostadd(host, site)
  stat('n:0:' .. depth, 1)
  return 2
end

for _, d in ipairs(b.done) do
  done(d)
  res[1] = res[1] + 1
end
for _, e in ipairs(b.queue) do
  local k = queue(e)
  res[k] = res[k] + 1
end
for _, e in ipairs(b.edges) do
  local sid, sr = find(e[1], unhex(e[2]))
  local did, dr = find(e[3], unhex(e[4]))
  if sr and dr and sid ~= did then
    local k = sid .. did
    local old = redis.call('HGET', P .. 'edges', k)
    local v = {e[5], e[6], e[7]}
    if old then
      v = cmsgpack.unpack(old)
      if e[5] > v[1] then v[1] = e[5] end
      if v[2] == '' then v[2] = e[6] end
      if v[3] == '' then v[3] = e[7] end
    end
    redis.call('HSET', P .. 'edges', k, cmsgpack.pack(v))
  end
end
if res[5] > 0 then redis.call('HINCRBY', P .. 'counters', 'refused.max-per-host', res[5]) end
for guard, n in pairs(b.refused) do
  if n ~= 0 then redis.call('HINCRBY', P .. 'counters', 'refused.' .. guard, n) end
end
return res
`)

// redisLease leases the best queued URLs. ARGV: now, n, per host, until,
// owner, rows to scan, host gap (ms). Per host counts the running leases
// of every worker of the crawl, so it bounds a host's concurrency across
// machines; with a gap, a host is leased at most once per gap (its
// Crawl-delay, honoured across machines). It returns one array per URL:
// url, depth, priority, parent url, anchor, inherited, meta, site.
var redisLease = redis.NewScript(luaPrelude + `
local now, n, perHost, untilMs, owner, scan, gap =
      tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])
reclaim(now, 100000)
local cands = redis.call('ZRANGE', P .. 'q', 0, scan - 1)
local picked, hosts, took = {}, {}, {}
for _, m in ipairs(cands) do
  if #picked >= n then break end
  local id = string.sub(m, 9, 16)
  local r = getrec(id)
  local h = r[HOST]
  local act = hosts[h]
  if act == nil then
    act = tonumber(redis.call('HGET', P .. 'h:active', h) or 0)
    if gap > 0 and now < tonumber(redis.call('HGET', P .. 'h:next', h) or 0) then act = -1 end
    hosts[h] = act
  end
  if act >= 0 and (perHost <= 0 or act < perHost) then
    hosts[h] = act + 1
    took[h] = true
    picked[#picked + 1] = {m, id, r}
  end
end
if gap > 0 then
  for h in pairs(took) do redis.call('HSET', P .. 'h:next', h, now + gap) end
end
local out = {}
for _, p in ipairs(picked) do
  local m, id, r = p[1], p[2], p[3]
  redis.call('ZREM', P .. 'q', m)
  movestate(r, 1, r[DEPTH])
  r[STATE], r[LEASED], r[UNTIL], r[OWNER] = 1, now, untilMs, owner
  putrec(id, r)
  redis.call('ZADD', P .. 'leased', untilMs, id)
  redis.call('ZADD', P .. 'own:' .. owner, untilMs, id)
  redis.call('HINCRBY', P .. 'h:active', r[HOST], 1)
  local parent = ''
  if r[PARENT] ~= '' then
    local pr = getrec(r[PARENT])
    if pr then parent = pr[URL] end
  end
  local site = redis.call('HGET', P .. 'h:site', r[HOST]) or ''
  out[#out + 1] = {r[URL], r[DEPTH], fmt(r[PRIO]), parent, r[ANCHOR], fmt(r[INH]), r[META], site}
end
return out
`)

// redisRenew extends the running leases of an owner. ARGV: now, owner,
// until, leased after (ms). It returns how many.
var redisRenew = redis.NewScript(luaPrelude + `
local now, owner, untilMs, after = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local ids = redis.call('ZRANGEBYSCORE', P .. 'own:' .. owner, '(' .. now, '+inf')
local n = 0
for _, id in ipairs(ids) do
  local r = getrec(id)
  if r and r[STATE] == 1 and r[OWNER] == owner and r[LEASED] > after then
    r[UNTIL] = untilMs
    putrec(id, r)
    redis.call('ZADD', P .. 'leased', untilMs, id)
    redis.call('ZADD', P .. 'own:' .. owner, untilMs, id)
    n = n + 1
  end
end
return n
`)

// redisRelease queues every leased URL again. It returns how many.
var redisRelease = redis.NewScript(luaPrelude + `
local ids = redis.call('ZRANGE', P .. 'leased', 0, -1)
local n = 0
for _, id in ipairs(ids) do
  local r = getrec(id)
  if r and r[STATE] == 1 then
    requeue(id, r)
    n = n + 1
  else
    redis.call('ZREM', P .. 'leased', id)
  end
end
return n
`)

// redisPageScores gives the score of each fetched URL. ARGV: url, hexid,
// url, hexid, … It returns url, score pairs for the fetched ones.
var redisPageScores = redis.NewScript(luaPrelude + `
local out = {}
for i = 1, #ARGV, 2 do
  local _, r = find(ARGV[i], unhex(ARGV[i + 1]))
  if r and (r[STATE] == 2 or r[STATE] == 3) then
    local s = 0
    if r[REL] ~= -1 then s = r[SCORE] end
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
