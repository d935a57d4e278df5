package frontier

import "github.com/redis/go-redis/v9"

// The Lua script of RedisStore.Apply; luaPrelude is in redis_scripts.go.

// redisApply records a batch: ARGV[1] is a JSON object
// {now, max, done: [[url, hexid, host, site, depth, state, fetched, status,
// score, rel, err, failure, host of the failure]], queue: [[url, hexid,
// host, site, prio, depth, parent, hexparent, anchor, inherited, meta,
// refused by robots.txt (1), reserve (1)]], edges: [[from, hexfrom, to, hexto, prio,
// anchor, context]], refused: {guard: n}, pol: the retry policy in ms,
// robots: [[host, agent, rules]] learned, rv: the robots.txt version the
// caller filtered the queue with (-1: none)}. It returns {done, queued,
// raised, known, refused, requeued, given-up guard, robots guard, hosts
// whose rules changed, queued in the reserve}, or {-1} when the
// robots.txt version moved on.
var redisApply = redis.NewScript(luaPrelude + `
local b = cjson.decode(ARGV[1])
if b.rv >= 0 and tonumber(redis.call('HGET', P .. 'meta', 'robotsv') or 0) ~= b.rv then
  return {-1} -- robots.txt rules were learned since the caller read them
end
local now, max, pol = b.now, b.max, b.pol
local res = {0, 0, 0, 0, 0}
local requeued, givenup, robotsguard, learned, reserved = 0, 0, 0, {}, 0
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
  for _, key in ipairs({'q:', 'r:', 'pk:', 'w:'}) do
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
    moveall('r:', down, 4)
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
    if r[RES] == 1 then add('st', 'rf', 1) end
    add('h:fetched', h, 1)
    if rel == 1 then add('h:rel', h, 1) end
    r[LOGPOS] = redis.call('RPUSH', P .. 'log', id) - 1
  end
  putrec(id, r)
end

-- raise gives a queued or leased URL a better priority or a lower depth;
-- a URL not yet fetched leaves the reserve when a kept link leads to it
-- (res 0), also while parked or waiting.
local function raise(id, r, prio, depth, parent, anchor, inh, res)
  local s, changed = r[STATE], false
  if res == 0 and r[RES] == 1 and (s == 0 or s == 1 or s == 4 or s == 5 or s == 6) then
    if s == 1 then redis.call('ZREM', P .. 'rl', id) end
    r[RES] = nil
    if s == 6 then
      move(id, r, 0, 0)
      trim(r)
    end
    changed = true
  end
  s = r[STATE]
  if (s == 0 or s == 1 or s == 6) and (prio > r[PRIO] or depth < r[DEPTH]) then
    local nd = r[DEPTH]
    if depth < nd then nd = depth end
    movestate(r, s, nd)
    r[DEPTH] = nd
    if prio > r[PRIO] then r[PRIO], r[PARENT], r[ANCHOR], r[INH] = prio, parent, anchor, inh end
    if s == 0 or s == 6 then enqueue(id, r) end
    changed = true
  end
  if changed then
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
  local url, host, site, prio, depth, anchor, inh, meta, res = e[1], e[3], e[4], e[5], e[6], e[9], e[10], e[11], e[13]
  local parent = parentid(e[7], e[8])
  local id, r = find(url, unhex(e[2]))
  local st = hsget(host)
  if r then
    if e[12] == 1 or (st and st[PK] == 2) then return 4 end
    return raise(id, r, prio, depth, parent, anchor, inh, res)
  end
  if e[12] == 1 then robotsguard = robotsguard + 1; return 0 end
  if st and st[PK] == 2 then givenup = givenup + 1; return 0 end
  if max > 0 and urlsof(host) >= max then return 5 end
  local state = 0
  if st and st[PK] == 1 then state = 4 end
  r = {url, ownhost(url, host), state, prio, depth, parent, anchor, inh, meta, nextseq()}
  if res == 1 then
    setres(r)
    if state == 0 then state = 6; r[STATE] = 6 end
    reserved = reserved + 1
  end
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
return {res[1], res[2], res[3], res[4], res[5], requeued, givenup, robotsguard, learned, reserved}
`)
