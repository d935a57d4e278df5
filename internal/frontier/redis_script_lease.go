package frontier

import "github.com/redis/go-redis/v9"

// The Lua scripts that hand out and take back leases; luaPrelude is in
// redis_scripts.go.

// redisLease leases the best queued URLs. ARGV: now, n, per host (in this
// call), until, owner, hosts to scan, host gap (ms), host limit, first
// contact, reserve, own host limit. The bounds are LeaseRequest.Room's (leaseplan.go):
// the host limit bounds the workers holding leases of a host at once, so
// it bounds a host's concurrency across machines; with a gap, a host
// passes from one worker to another only a gap after its last lease (its
// Crawl-delay, honoured across machines); first contact (ARGV[9] = 1)
// holds a host none of whose pages came back to one URL out. With ARGV[10] = 1 the reserve
// (r:HOST, rh) is leased when no other URL is queued (hq is empty) and no
// lease of another URL runs. It returns one array per URL: url, depth,
// priority, parent url, anchor, inherited, meta, site.
var redisLease = redis.NewScript(luaPrelude + `
local now, n, perHost, untilMs, owner, scan, gap, limit =
      tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6]),
      tonumber(ARGV[7]), tonumber(ARGV[8])
local first, reserve, ownlimit = ARGV[9] == '1', ARGV[10] == '1', tonumber(ARGV[11])
reclaim(now, 100000)
wake(now)
fixheads()
local function better(a, b)
  if a[1] ~= b[1] then return a[1] < b[1] end
  return a[2] < b[2]
end
-- gather collects candidates from one tier (its queue prefix and host
-- queue) host by host, best host first, each host giving its best URLs up
-- to its room under the per-host bound, until no host left can beat the
-- n-th best candidate: the result is the n best URLs of the tier that the
-- bound allows. scan bounds the hosts looked at.
local function gather(qpre, hkey)
  local cands, thr = {}, nil
  -- Without a bound that can leave a host out (host limit, gap, first
  -- contact), the heads of the first n hosts are n URLs any lease may
  -- take: the n-th host's head bounds the n-th best URL before anything
  -- is read.
  if limit == 0 and gap == 0 and ownlimit == 0 and not first then
    local nth = redis.call('ZRANGE', P .. hkey, n - 1, n - 1, 'WITHSCORES')
    if nth[2] then thr = tonumber(nth[2]) end
  end
  local function trim()
    table.sort(cands, better)
    for i = #cands, n + 1, -1 do cands[i] = nil end
    if #cands >= n then thr = cands[n][1] end
  end
  local offset, looked, done = 0, 0, false
  while not done do
    local page = redis.call('ZRANGE', P .. hkey, offset, offset + 99, 'WITHSCORES')
    if #page == 0 then break end
    offset = offset + 100
    for i = 1, #page, 2 do
      local h, hs = page[i], tonumber(page[i + 1])
      if (thr and hs > thr) or looked >= scan then done = true; break end
      looked = looked + 1
      -- room is LeaseRequest.Room (leaseplan.go) for a host met the first
      -- time in this call: hw:HOST counts its running leases by worker,
      -- h:last holds the worker that leased it last and when.
      local room = n
      if perHost > 0 then room = math.min(room, perHost) end
      local mine = 0
      if limit > 0 or gap > 0 or ownlimit > 0 then mine = tonumber(redis.call('HGET', P .. 'hw:' .. h, owner) or 0) end
      if ownlimit > 0 then room = math.min(room, ownlimit - mine) end
      if limit > 0 and mine == 0 and redis.call('HLEN', P .. 'hw:' .. h) >= limit then room = 0 end
      if gap > 0 and mine == 0 then
        local last = redis.call('HGET', P .. 'h:last', h)
        if last then
          local o, at = string.match(last, '^(%S+) (%d+)$')
          if o and o ~= owner and now < tonumber(at) + gap then room = 0 end
        end
      end
      if first and room > 0 and tonumber(redis.call('HGET', P .. 'h:fetched', h) or 0) == 0 then
        -- First contact: one URL out at a time until a page comes back.
        room = math.min(room, 1 - tonumber(redis.call('HGET', P .. 'h:active', h) or 0))
      end
      if room > 0 then
        -- Only URLs that can still be among the n best: a host's queue is
        -- read down to the threshold, not to its room.
        local q
        if thr then
          q = redis.call('ZRANGEBYSCORE', P .. qpre .. h, '-inf', string.format('%.17g', thr), 'WITHSCORES', 'LIMIT', 0, room)
        else
          q = redis.call('ZRANGE', P .. qpre .. h, 0, room - 1, 'WITHSCORES')
        end
        for j = 1, #q, 2 do cands[#cands + 1] = {tonumber(q[j + 1]), q[j], h} end
        if #cands >= 2 * n then trim() end
      end
    end
  end
  trim()
  return cands
end
local tier = ST_QUEUED
local cands = gather(TIER[ST_QUEUED][1], TIER[ST_QUEUED][2])
-- The reserve: only when nothing else is queued, and no lease of anything
-- else runs (its page may bring better links; rl holds the reserve's).
if reserve and #cands == 0 and redis.call('ZCARD', P .. 'hq') == 0
    and redis.call('ZCOUNT', P .. 'leased', '(' .. now, '+inf') == redis.call('ZCOUNT', P .. 'rl', '(' .. now, '+inf') then
  tier = ST_RESERVE
  cands = gather(TIER[ST_RESERVE][1], TIER[ST_RESERVE][2])
end
local picked, took = {}, {}
for _, c in ipairs(cands) do
  local r = getrec(c[2])
  took[c[3]] = (took[c[3]] or 0) + 1
  picked[#picked + 1] = {c[2], r, c[3]}
end
local out = {}
local ids, byhost, rids = {}, {}, {}
for _, p in ipairs(picked) do
  ids[#ids + 1] = p[1]
  local h = p[3]
  byhost[h] = byhost[h] or {}
  table.insert(byhost[h], p[1])
end
-- The hosts' sites and running leases, read in one call each.
local hosts = {}
for h in pairs(took) do hosts[#hosts + 1] = h end
local sites, active = {}, {}
for i = 1, #hosts, 1000 do
  local part = {unpack(hosts, i, math.min(i + 999, #hosts))}
  local sv = redis.call('HMGET', P .. 'h:site', unpack(part))
  local av = redis.call('HMGET', P .. 'h:active', unpack(part))
  for j, h in ipairs(part) do
    sites[h] = sv[j] or ''
    active[#active + 1] = h
    active[#active + 1] = (tonumber(av[j]) or 0) + took[h]
  end
end
for h, hids in pairs(byhost) do
  bulk('ZREM', P .. TIER[tier][1] .. h, hids, 1000)
  touched[tier][h] = true
end
for _, p in ipairs(picked) do
  local id, r = p[1], p[2]
  movestate(r, ST_LEASED, r[DEPTH])
  r[STATE], r[LEASED], r[UNTIL], r[OWNER] = ST_LEASED, now, untilMs, owner
  putrec(id, r)
  if r[RES] == 1 then rids[#rids + 1] = untilMs; rids[#rids + 1] = id end
  local parent = ''
  if r[PARENT] ~= '' then
    local pr = getrec(r[PARENT])
    if pr then parent = pr[URL] end
  end
  out[#out + 1] = {r[URL], r[DEPTH], fmt(r[PRIO]), parent, r[ANCHOR], fmt(r[INH]), r[META], sites[p[3]]}
end
if #ids > 0 then
  local z = {}
  for _, id in ipairs(ids) do z[#z + 1] = untilMs; z[#z + 1] = id end
  bulk('ZADD', P .. 'leased', z, 1000)
  bulk('ZADD', P .. 'own:' .. owner, z, 1000)
end
if #rids > 0 then bulk('ZADD', P .. 'rl', rids, 1000) end
bulk('HSET', P .. 'h:active', active, 1000)
local last = {}
for h, k in pairs(took) do
  redis.call('HINCRBY', P .. 'hw:' .. h, owner, k)
  if gap > 0 then last[#last + 1] = h; last[#last + 1] = owner .. ' ' .. now end
end
bulk('HSET', P .. 'h:last', last, 1000)
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
