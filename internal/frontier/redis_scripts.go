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
-- Record fields. A queued URL's record stops at SEQ; a leased or fetched
-- one carries the rest. HOST is '' when it is the URL's own host[:port].
local URL, HOST, STATE, PRIO, DEPTH, PARENT, ANCHOR, INH, META, SEQ, LEASED, UNTIL, OWNER, FETCHED, STATUS, SCORE, REL, ERR =
      1,   2,    3,     4,    5,     6,      7,      8,   9,    10,  11,     12,    13,    14,      15,     16,    17,  18
-- TRIES counts transient failures; LOGPOS is the URL's place in the log
-- of fetched URLs (History skips older entries of a URL fetched again).
-- FETCHED is 0 on a failed URL never fetched (given up, robots rules).
local TRIES, LOGPOS = 19, 20
local function bkey(id) return P .. 'u:' .. (string.byte(id, 7) * 256 + string.byte(id, 8)) end
local function getrec(id)
  local v = redis.call('HGET', bkey(id), id)
  if not v then return nil end
  return cmsgpack.unpack(v)
end
local function putrec(id, r) redis.call('HSET', bkey(id), id, cmsgpack.pack(r)) end
local function hostof(url) return string.match(url, '^[^:/?#]+://([^/?#]*)') or '' end
local function rhost(r)
  if r[HOST] ~= '' then return r[HOST] end
  local h = hostof(r[URL])
  local at = string.find(h, '@', 1, true)
  if at then h = string.sub(h, at + 1) end
  return h
end
local function ownhost(url, host)
  if rhost({url, ''}) == host then return '' end
  return host
end
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
-- The queue is one sorted set of ids ordered by this score: priority
-- (highest first, to 1/65535), depth (lowest first, up to 63), then the
-- URL's sequence number (oldest first, modulo 2^31).
local function qscore(p, d, seq)
  if p > 1 then p = 1 elseif p < 0 then p = 0 end
  if d > 63 then d = 63 elseif d < 0 then d = 0 end
  return (65535 - math.floor(p * 65535 + 0.5)) * 137438953472 + d * 2147483648 + seq % 2147483648
end
-- bulk runs cmd key args... in slices, within Lua's limit on unpack.
local function bulk(cmd, key, args, step)
  for i = 1, #args, step do
    redis.call(cmd, key, unpack(args, i, math.min(i + step - 1, #args)))
  end
end
local function fmt(x) return string.format('%.17g', x or 0) end
local fixheads -- below
-- Counters are summed in the script and written once at its end.
local sums = {}
local function add(key, field, n)
  local t = sums[key]
  if not t then t = {}; sums[key] = t end
  t[field] = (t[field] or 0) + n
end
local fixwaits
local function flush()
  fixheads()
  fixwaits()
  for key, t in pairs(sums) do
    for field, n in pairs(t) do
      if n ~= 0 then redis.call('HINCRBY', P .. key, field, n) end
    end
  end
  sums = {}
end
local function movestate(r, state, depth)
  add('st', 'n:' .. r[STATE] .. ':' .. r[DEPTH], -1)
  add('st', 'n:' .. state .. ':' .. depth, 1)
end
-- Each host has its own queue, q:HOST; the hosts with queued URLs are in
-- hq, scored by their best URL's score. A script notes the hosts whose
-- queue it changed and sets their place in hq once, at its end (flush).
local touched = {}
-- added holds, for a host whose queue only grew, its best new score: its
-- place in hq can only improve, which ZADD LT does in one call.
local added = {}
local function enqueue(id, r)
  local h = rhost(r)
  local sc = qscore(r[PRIO], r[DEPTH], r[SEQ])
  redis.call('ZADD', P .. 'q:' .. h, sc, id)
  if not added[h] or sc < added[h] then added[h] = sc end
end
local function dequeue(id, r)
  local h = rhost(r)
  redis.call('ZREM', P .. 'q:' .. h, id)
  touched[h] = true
end
fixheads = function()
  for h, sc in pairs(added) do
    if not touched[h] then redis.call('ZADD', P .. 'hq', 'LT', sc, h) end
  end
  added = {}
  for h in pairs(touched) do
    local head = redis.call('ZRANGE', P .. 'q:' .. h, 0, 0, 'WITHSCORES')
    if head[2] then
      redis.call('ZADD', P .. 'hq', head[2], h)
    else
      redis.call('ZREM', P .. 'hq', h)
    end
  end
  touched = {}
end
local function unlease(id, r)
  redis.call('ZREM', P .. 'leased', id)
  if r[OWNER] and r[OWNER] ~= '' then redis.call('ZREM', P .. 'own:' .. r[OWNER], id) end
  local h = rhost(r)
  if redis.call('HINCRBY', P .. 'h:active', h, -1) <= 0 then redis.call('HDEL', P .. 'h:active', h) end
  r[LEASED], r[UNTIL], r[OWNER] = 0, 0, ''
end
-- Host state (hs: host -> MessagePack array): parked (0 up, 1 parked, 2
-- given up), the error that parked it, since, next probe, the wait before
-- it, failed probes, timeouts in a row, the probe's id, URLs failed on
-- give-up. pkh holds the parked hosts by next probe; pk:HOST a parked
-- host's URLs, scored as in its queue; w:HOST the URLs waiting for a
-- retry, by retry time, and wh the hosts with waiting URLs by the first.
local PK, REASON, SINCE, RETRY, WAIT, HTRIES, TIMEOUTS, PROBE, HELD = 1, 2, 3, 4, 5, 6, 7, 8, 9
local hstates = {}
local hsnone -- no host has a state yet: nothing to look up
local function hsget(h)
  if hsnone == nil then hsnone = redis.call('EXISTS', P .. 'hs') == 0 end
  if hsnone then return nil end
  local st = hstates[h]
  if st == nil then
    local v = redis.call('HGET', P .. 'hs', h)
    st = false
    if v then st = cmsgpack.unpack(v) end
    hstates[h] = st
  end
  return st or nil
end
local function hsnew() return {0, '', 0, 0, 0, 0, 0, '', 0} end
local function hsput(h, st)
  hsnone = false
  hstates[h] = st
  redis.call('HSET', P .. 'hs', h, cmsgpack.pack(st))
end
local function hostparked(h)
  local st = hsget(h)
  return st ~= nil and st[PK] == 1
end
-- trim drops the fields a queued record does not need, keeping a retried
-- URL's tries and last error.
local function trim(r)
  local tries, err = r[TRIES] or 0, r[ERR] or ''
  for i = LEASED, LOGPOS do r[i] = nil end
  if tries > 0 then
    r[LEASED], r[UNTIL], r[OWNER], r[FETCHED], r[STATUS], r[SCORE], r[REL], r[ERR], r[TRIES] = 0, 0, '', 0, 0, 0, -1, err, tries
  end
end
local wtouched = {}
-- place files a record under its state: queued, parked or waiting (at).
local function place(id, r, at)
  local h = rhost(r)
  if r[STATE] == 0 then
    enqueue(id, r)
  elseif r[STATE] == 4 then
    redis.call('ZADD', P .. 'pk:' .. h, qscore(r[PRIO], r[DEPTH], r[SEQ]), id)
  elseif r[STATE] == 5 then
    redis.call('ZADD', P .. 'w:' .. h, at, id)
    wtouched[h] = true
  elseif r[STATE] == 3 then
    redis.call('SADD', P .. 'fail', id)
  end
end
-- unplace takes a record out of the structure its state files it under.
local function unplace(id, r)
  local h = rhost(r)
  if r[STATE] == 0 then
    dequeue(id, r)
  elseif r[STATE] == 1 then
    unlease(id, r)
  elseif r[STATE] == 4 then
    redis.call('ZREM', P .. 'pk:' .. h, id)
  elseif r[STATE] == 5 then
    redis.call('ZREM', P .. 'w:' .. h, id)
    wtouched[h] = true
  elseif r[STATE] == 3 then
    redis.call('SREM', P .. 'fail', id)
  end
end
fixwaits = function()
  for h in pairs(wtouched) do
    local head = redis.call('ZRANGE', P .. 'w:' .. h, 0, 0, 'WITHSCORES')
    if head[2] then
      redis.call('ZADD', P .. 'wh', head[2], h)
    else
      redis.call('ZREM', P .. 'wh', h)
    end
  end
  wtouched = {}
end
-- move changes the state of a URL and files it again.
local function move(id, r, state, at)
  unplace(id, r)
  movestate(r, state, r[DEPTH])
  r[STATE] = state
  place(id, r, at)
end
-- moveall moves every URL of a host out of a keyed set into state.
local function moveall(key, h, state)
  local ids = redis.call('ZRANGE', P .. key .. h, 0, -1)
  for _, id in ipairs(ids) do
    local r = getrec(id)
    if r then
      move(id, r, state, 0)
      if state ~= 5 and state ~= 3 then trim(r) end
      putrec(id, r)
    end
  end
  redis.call('DEL', P .. key .. h)
  return #ids
end
local function requeue(id, r)
  local state = 0
  if hostparked(rhost(r)) then state = 4 end
  move(id, r, state, 0)
  trim(r)
  putrec(id, r)
end
-- failnow fails a held URL that was never fetched.
local function failnow(id, r, msg)
  move(id, r, 3, 0)
  r[LEASED], r[UNTIL], r[OWNER], r[FETCHED], r[STATUS], r[SCORE], r[REL], r[ERR] = 0, 0, '', 0, 0, 0, -1, msg
  r[TRIES], r[LOGPOS] = r[TRIES] or 0, -1
  add('st', 'u:' .. r[DEPTH], 1)
  putrec(id, r)
end
local seq
local function nextseq()
  if not seq then seq = tonumber(redis.call('HGET', P .. 'meta', 'seq') or 0) end
  seq = seq + 1
  return seq
end
local function saveseq()
  if seq then redis.call('HSET', P .. 'meta', 'seq', seq) end
end
local newhosts = {}
local function hostadd(host, site)
  add('h:urls', host, 1)
  if not newhosts[host] then
    newhosts[host] = true
    redis.call('HSETNX', P .. 'h:site', host, site)
  end
end
-- requeueAll queues the leased URLs of ids again (and drops ids of
-- leases that ended already); it returns how many it queued.
local function requeueAll(ids)
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
end
-- reclaim queues again up to limit URLs whose lease ran out.
local function reclaim(now, limit)
  local n = requeueAll(redis.call('ZRANGEBYSCORE', P .. 'leased', '-inf', now, 'LIMIT', 0, limit))
  if n > 0 then add('counters', 'lease.expired', n) end
  return n
end
-- wake queues again the waiting URLs whose retry time has come and, for
-- each parked host whose probe is due and that has no URL out, its best
-- held URL as the probe.
local function wake(now)
  for _, h in ipairs(redis.call('ZRANGEBYSCORE', P .. 'wh', '-inf', now, 'LIMIT', 0, 1000)) do
    local state = 0
    if hostparked(h) then state = 4 end
    for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. 'w:' .. h, '-inf', now)) do
      local r = getrec(id)
      if r then
        move(id, r, state, 0)
        trim(r)
        putrec(id, r)
      else
        redis.call('ZREM', P .. 'w:' .. h, id)
      end
    end
    wtouched[h] = true
  end
  for _, h in ipairs(redis.call('ZRANGEBYSCORE', P .. 'pkh', '-inf', now, 'LIMIT', 0, 1000)) do
    local st = hsget(h)
    if st and st[PK] == 1 and redis.call('ZCARD', P .. 'q:' .. h) == 0 and not redis.call('HGET', P .. 'h:active', h) then
      local best = redis.call('ZRANGE', P .. 'pk:' .. h, 0, 0)
      local r = best[1] and getrec(best[1])
      if r then
        move(best[1], r, 0, 0)
        putrec(best[1], r)
        -- Should the probe never come back, the next one goes out after
        -- the same wait.
        st[PROBE], st[RETRY] = best[1], now + math.max(st[WAIT], 1000)
        hsput(h, st)
        redis.call('ZADD', P .. 'pkh', st[RETRY], h)
      end
    elseif not st or st[PK] ~= 1 then
      redis.call('ZREM', P .. 'pkh', h)
    end
  end
end
local function waitms(base, limit, n)
  local d = base * 2 ^ math.min(math.max(n, 0), 30)
  if d <= 0 or (limit > 0 and d > limit) then d = limit end
  return d
end
`

// redisApply records a batch: ARGV[1] is a JSON object
// {now, max, done: [[url, hexid, host, site, depth, state, fetched, status,
// score, rel, err, failure, host of the failure]], queue: [[url, hexid,
// host, site, prio, depth, parent, hexparent, anchor, inherited, meta,
// refused by robots.txt (1)]], edges: [[from, hexfrom, to, hexto, prio,
// anchor, context]], refused: {guard: n}, pol: the retry policy in ms,
// robots: [[host, agent, rules]] learned, rv: the robots.txt version the
// caller filtered the queue with (-1: none)}. It returns {done, queued,
// raised, known, refused, requeued, given-up guard, robots guard, hosts
// whose rules changed}, or {-1} when the robots.txt version moved on.
var redisApply = redis.NewScript(luaPrelude + `
local b = cjson.decode(ARGV[1])
if b.rv >= 0 and tonumber(redis.call('HGET', P .. 'meta', 'robotsv') or 0) ~= b.rv then
  return {-1} -- robots.txt rules were learned since the caller read them
end
local now, max, pol = b.now, b.max, b.pol
local res = {0, 0, 0, 0, 0}
local requeued, givenup, robotsguard, learned = 0, 0, 0, {}
local hosturls = {}
local function urlsof(host)
  local n = hosturls[host]
  if n == nil then
    n = tonumber(redis.call('HGET', P .. 'h:urls', host) or 0)
    hosturls[host] = n
  end
  return n
end

for _, rb in ipairs(b.robots) do
  local v = rb[2] .. '\n' .. rb[3]
  if redis.call('HGET', P .. 'robots', rb[1]) ~= v then
    redis.call('HSET', P .. 'robots', rb[1], v)
    redis.call('HINCRBY', P .. 'meta', 'robotsv', 1)
    learned[#learned + 1] = rb[1]
  end
end

-- putback returns a URL that came back without a page to the queue, in
-- state (queued, parked, or waiting until at).
local function putback(id, r, state, at, addtries, msg)
  move(id, r, state, at)
  r[TRIES], r[ERR] = (r[TRIES] or 0) + addtries, msg
  trim(r)
  putrec(id, r)
  requeued = requeued + 1
end
local function retry(id, r, err)
  local tries = r[TRIES] or 0
  if tries >= pol.retries then return false end
  putback(id, r, 5, now + waitms(pol.backoff, pol.maxbackoff, tries), 1, err)
  return true
end
-- giveup fails every held URL of a host that stayed down through its tries.
local function giveup(h, st, probe)
  st[PK], st[RETRY], st[PROBE] = 2, 0, ''
  redis.call('ZREM', P .. 'pkh', h)
  local msg = st[REASON] .. ' (host given up after ' .. st[HTRIES] .. ' tries)'
  local n = 0
  for _, key in ipairs({'q:', 'pk:', 'w:'}) do
    for _, id in ipairs(redis.call('ZRANGE', P .. key .. h, 0, -1)) do
      local r = getrec(id)
      if r then failnow(id, r, msg); n = n + 1 end
    end
    redis.call('DEL', P .. key .. h)
  end
  local r = getrec(probe)
  if r and r[STATE] == 1 then failnow(probe, r, msg); n = n + 1 end
  st[HELD] = n
  hsput(h, st)
  requeued = requeued + 1 -- the probe does not count as fetched
end
-- hostup clears the failure state of a host that answered.
local function hostup(h)
  local st = hsget(h)
  if not st or (st[PK] == 0 and st[TIMEOUTS] == 0) then return end
  local was = st[PK] ~= 0
  st[PK], st[REASON], st[SINCE], st[RETRY], st[WAIT], st[HTRIES], st[TIMEOUTS], st[PROBE], st[HELD] = 0, '', 0, 0, 0, 0, 0, '', 0
  hsput(h, st)
  if was then
    redis.call('ZREM', P .. 'pkh', h)
    moveall('pk:', h, 0)
  end
end
-- failure handles an outcome with an error of kind (the failure codes of
-- hosts.go) on host down. It reports whether the URL was put back.
local function failure(d, kind, down)
  if kind == 0 or kind == 5 or kind == 6 then return false end
  local id, r = find(d[1], unhex(d[2]))
  if not r or r[STATE] == 2 or r[STATE] == 3 then return false end
  local err = d[11]
  if kind == 1 then putback(id, r, 0, 0, 0, ''); return true end
  local st = hsget(down) or hsnew()
  if kind == 3 then
    st[TIMEOUTS] = st[TIMEOUTS] + 1
    if pol.park > 0 and st[TIMEOUTS] >= pol.park then
      kind = 2
    else
      hsput(down, st)
      return retry(id, r, err)
    end
  end
  if kind == 4 then return retry(id, r, err) end
  if st[PK] == 0 then
    local w = waitms(pol.hostbackoff, pol.hostmax, 0)
    st[PK], st[REASON], st[SINCE], st[HTRIES], st[TIMEOUTS], st[PROBE], st[WAIT], st[RETRY] = 1, err, now, 0, 0, '', w, now + w
    hsput(down, st)
    redis.call('ZADD', P .. 'pkh', st[RETRY], down)
    moveall('q:', down, 4)
    moveall('w:', down, 4)
    r = getrec(id)
  elseif st[PK] == 1 then
    if id == st[PROBE] then
      -- The probe failed: wait twice as long, or give the host up.
      st[HTRIES] = st[HTRIES] + 1
      st[REASON], st[PROBE] = err, ''
      if pol.hosttries > 0 and st[HTRIES] >= pol.hosttries then
        giveup(down, st, id)
        return true
      end
      st[WAIT] = waitms(pol.hostbackoff, pol.hostmax, st[HTRIES])
      st[RETRY] = now + st[WAIT]
      hsput(down, st)
      redis.call('ZADD', P .. 'pkh', st[RETRY], down)
    end
  else
    return false -- given up: the URL fails with its error
  end
  if rhost(r) ~= down then return retry(id, r, err) end -- a redirect into a host that is down
  putback(id, r, 4, 0, 0, err)
  return true
end

local function done(d)
  local url, host, site, depth, state, fetched, status, score, rel, err =
        d[1], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10], d[11]
  local id, r = find(url, unhex(d[2]))
  local before, wasfetched = nil, false
  if not r then
    r = {url, ownhost(url, host), state, 0, depth, '', '', 0, '', nextseq()}
    hostadd(host, site)
    hosturls[host] = urlsof(host) + 1
    add('st', 'n:' .. state .. ':' .. depth, 1)
    before = 0
  else
    before = r[STATE]
    wasfetched = (before == 2) or (before == 3 and r[FETCHED] ~= 0)
    if before == 3 and not wasfetched then add('st', 'u:' .. r[DEPTH], -1) end
    unplace(id, r)
    if (before == 2 or before == 3) and r[REL] == 1 then add('st', 'r:' .. r[DEPTH], -1) end
    movestate(r, state, r[DEPTH])
    r[STATE] = state
  end
  r[LEASED], r[UNTIL], r[OWNER] = 0, 0, ''
  r[FETCHED], r[STATUS], r[SCORE], r[REL], r[ERR] = fetched, status, score, rel, err
  r[TRIES], r[LOGPOS] = r[TRIES] or 0, r[LOGPOS] or -1
  if state == 3 then redis.call('SADD', P .. 'fail', id) end
  if rel == 1 then add('st', 'r:' .. r[DEPTH], 1) end
  if d[12] == -1 and before ~= 2 and before ~= 3 then
    -- A redirect's target, done in its URL's fetch: not a page of its own
    -- (the SQLite store's redirect.targets counters).
    add('st', 'x', 1)
    if rel == 1 then add('st', 'xr', 1) end
  end
  if not wasfetched then
    local h = rhost(r)
    add('h:fetched', h, 1)
    if rel == 1 then add('h:rel', h, 1) end
    r[LOGPOS] = redis.call('RPUSH', P .. 'log', id) - 1
  end
  putrec(id, r)
end

local function raise(id, r, prio, depth, parent, anchor, inh)
  if (r[STATE] == 0 or r[STATE] == 1) and (prio > r[PRIO] or depth < r[DEPTH]) then
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

-- The links of one page share its parent: look it up once.
local parents = {}
local function parentid(url, hexid)
  if url == '' then return '' end
  local p = parents[url]
  if p == nil then
    local pid, pr = find(url, unhex(hexid))
    p = ''
    if pr then p = pid end
    parents[url] = p
  end
  return p
end

local function queue(e)
  local url, host, site, prio, depth, anchor, inh, meta = e[1], e[3], e[4], e[5], e[6], e[9], e[10], e[11]
  local parent = parentid(e[7], e[8])
  local id, r = find(url, unhex(e[2]))
  local st = hsget(host)
  if r then
    if e[12] == 1 or (st and st[PK] == 2) then return 4 end
    return raise(id, r, prio, depth, parent, anchor, inh)
  end
  if e[12] == 1 then robotsguard = robotsguard + 1; return 0 end
  if st and st[PK] == 2 then givenup = givenup + 1; return 0 end
  if max > 0 and urlsof(host) >= max then return 5 end
  local state = 0
  if st and st[PK] == 1 then state = 4 end
  r = {url, ownhost(url, host), state, prio, depth, parent, anchor, inh, meta, nextseq()}
  parents[url] = nil -- known now, if an earlier link's parent lookup missed it
  place(id, r, 0)
  putrec(id, r)
  hostadd(host, site)
  hosturls[host] = urlsof(host) + 1
  add('st', 'n:' .. state .. ':' .. depth, 1)
  return 2
end

local back = false
for _, d in ipairs(b.done) do
  local kind, down = d[12], d[13]
  if kind == -1 then
    -- A redirect target, recorded with its URL.
    if not back then done(d) end
  else
    if d[11] == '' or string.sub(d[11], 1, 5) == 'http ' then hostup(down) end -- the host answered
    back = failure(d, kind, down)
    if not back then
      done(d)
      res[1] = res[1] + 1
    end
  end
end
for _, e in ipairs(b.queue) do
  local k = queue(e)
  if k > 0 then res[k] = res[k] + 1 end
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
if res[5] > 0 then add('counters', 'refused.max-per-host', res[5]) end
if robotsguard > 0 then add('counters', 'refused.robots', robotsguard) end
if givenup > 0 then add('counters', 'refused.host-given-up', givenup) end
if requeued > 0 then add('counters', 'requeued', requeued) end
for guard, n in pairs(b.refused) do add('counters', 'refused.' .. guard, n) end
saveseq()
flush()
return {res[1], res[2], res[3], res[4], res[5], requeued, givenup, robotsguard, learned}
`)

// redisLease leases the best queued URLs. ARGV: now, n, per host (in this
// call), until, owner, hosts to scan, host gap (ms), host limit. The host
// limit counts the running leases of every worker of the crawl, so it
// bounds a host's concurrency across machines; with a gap, a host is
// leased at most once per gap (its Crawl-delay, honoured across
// machines); first contact (ARGV[9] = 1) holds a host none of whose pages
// came back to one URL out. It returns one array per URL:
// url, depth, priority, parent url, anchor, inherited, meta, site.
var redisLease = redis.NewScript(luaPrelude + `
local now, n, perHost, untilMs, owner, scan, gap, limit =
      tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6]),
      tonumber(ARGV[7]), tonumber(ARGV[8])
local first = ARGV[9] == '1'
reclaim(now, 100000)
wake(now)
fixheads()
-- Gather candidates host by host, best host first, each host giving its
-- best URLs up to its room under the per-host bound, until no host left
-- can beat the n-th best candidate: the result is the n best URLs of the
-- whole queue that the bound allows. scan bounds the hosts looked at.
local cands, thr = {}, nil
-- Without a bound that can leave a host out (host limit, gap, first
-- contact), the heads of the first n hosts are n URLs any lease may take:
-- the n-th host's head bounds the n-th best URL before anything is read.
if limit == 0 and gap == 0 and not first then
  local nth = redis.call('ZRANGE', P .. 'hq', n - 1, n - 1, 'WITHSCORES')
  if nth[2] then thr = tonumber(nth[2]) end
end
local function better(a, b)
  if a[1] ~= b[1] then return a[1] < b[1] end
  return a[2] < b[2]
end
local function trim()
  table.sort(cands, better)
  for i = #cands, n + 1, -1 do cands[i] = nil end
  if #cands >= n then thr = cands[n][1] end
end
local offset, looked, done = 0, 0, false
while not done do
  local page = redis.call('ZRANGE', P .. 'hq', offset, offset + 99, 'WITHSCORES')
  if #page == 0 then break end
  offset = offset + 100
  for i = 1, #page, 2 do
    local h, hs = page[i], tonumber(page[i + 1])
    if (thr and hs > thr) or looked >= scan then done = true; break end
    looked = looked + 1
    local room = n
    if perHost > 0 then room = math.min(room, perHost) end
    if limit > 0 then room = math.min(room, limit - tonumber(redis.call('HGET', P .. 'h:active', h) or 0)) end
    if gap > 0 and now < tonumber(redis.call('HGET', P .. 'h:next', h) or 0) then room = 0 end
    if first and room > 0 and tonumber(redis.call('HGET', P .. 'h:fetched', h) or 0) == 0 then
      -- First contact: one URL out at a time until a page comes back.
      room = math.min(room, 1 - tonumber(redis.call('HGET', P .. 'h:active', h) or 0))
    end
    if room > 0 then
      -- Only URLs that can still be among the n best: a host's queue is
      -- read down to the threshold, not to its room.
      local q
      if thr then
        q = redis.call('ZRANGEBYSCORE', P .. 'q:' .. h, '-inf', string.format('%.17g', thr), 'WITHSCORES', 'LIMIT', 0, room)
      else
        q = redis.call('ZRANGE', P .. 'q:' .. h, 0, room - 1, 'WITHSCORES')
      end
      for j = 1, #q, 2 do cands[#cands + 1] = {tonumber(q[j + 1]), q[j], h} end
      if #cands >= 2 * n then trim() end
    end
  end
end
trim()
local picked, took = {}, {}
for _, c in ipairs(cands) do
  local r = getrec(c[2])
  took[c[3]] = (took[c[3]] or 0) + 1
  picked[#picked + 1] = {c[2], r}
end
local out, sites = {}, {}
local ids, byhost = {}, {}
for _, p in ipairs(picked) do
  ids[#ids + 1] = p[1]
  local h = rhost(p[2])
  byhost[h] = byhost[h] or {}
  table.insert(byhost[h], p[1])
end
for h, hids in pairs(byhost) do
  bulk('ZREM', P .. 'q:' .. h, hids, 1000)
  touched[h] = true
end
for _, p in ipairs(picked) do
  local id, r = p[1], p[2]
  movestate(r, 1, r[DEPTH])
  r[STATE], r[LEASED], r[UNTIL], r[OWNER] = 1, now, untilMs, owner
  putrec(id, r)
  local parent = ''
  if r[PARENT] ~= '' then
    local pr = getrec(r[PARENT])
    if pr then parent = pr[URL] end
  end
  local h = rhost(r)
  local site = sites[h]
  if site == nil then
    site = redis.call('HGET', P .. 'h:site', h) or ''
    sites[h] = site
  end
  out[#out + 1] = {r[URL], r[DEPTH], fmt(r[PRIO]), parent, r[ANCHOR], fmt(r[INH]), r[META], site}
end
if #ids > 0 then
  local z = {}
  for _, id in ipairs(ids) do z[#z + 1] = untilMs; z[#z + 1] = id end
  bulk('ZADD', P .. 'leased', z, 1000)
  bulk('ZADD', P .. 'own:' .. owner, z, 1000)
end
for h, k in pairs(took) do
  redis.call('HINCRBY', P .. 'h:active', h, k)
  if gap > 0 then redis.call('HSET', P .. 'h:next', h, now + gap) end
end
flush()
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
local n = requeueAll(redis.call('ZRANGE', P .. 'leased', 0, -1))
flush()
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
if r[STATE] == 1 and r[UNTIL] <= tonumber(ARGV[3]) then return 0 end
return r[STATE]
`)
