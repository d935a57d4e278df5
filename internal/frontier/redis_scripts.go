package frontier

// The Lua scripts of the Redis store. Each runs atomically on the server.
// luaPrelude, below, holds the record layout and the functions they share;
// the scripts are in redis_script_apply.go (Apply), redis_lease.go
// (Lease), redis_script_lease.go (Renew, Release) and redis_script_reads.go (lookups).
//
// KEYS[1] is the crawl's prefix "{NAME}:"; every key a script touches
// starts with it, so they share one hash slot.
//
// A URL's record is a MessagePack array kept in one of 65,536 bucket
// hashes (u:N, N the low 16 bits of its id), so that small hashes stay in
// Redis's compact listpack encoding; the fields are numbered below. Ids
// are 8-byte strings (the URL's xxhash64, or the next free value after a
// collision).
var luaPrelude = luaNames + luaRecordMakers + luaReply + `
local P = KEYS[1]
-- The record fields (URL … CLASS, PK … HELD, CL_ID … CL_APPLIED,
-- EG_PRIO … EG_CONTEXT) are named in luaNames, from redis_record.go,
-- which also gives newrecord (a URL's record as queued, its fields up to
-- SEQ) and newedge (a link's record).
-- PAD holds the value of each field from LEASED to RES in a record that
-- carries them without being leased or fetched.
local PAD = {[LEASED] = 0, [UNTIL] = 0, [OWNER] = '', [FETCHED] = 0, [STATUS] = 0, [SCORE] = 0, [REL] = -1,
  [ERR] = '', [TRIES] = 0, [LOGPOS] = -1, [RES] = 0}
-- Numbers are written with string.format('%d') where the scripts make
-- keys or arguments of them: Lua's own conversion, and the server's of a
-- number argument ('%.17g'), cost about twice as much.
local function bkey(id) return string.format('%su:%d', P, string.byte(id, 7) * 256 + string.byte(id, 8)) end
local function getrec(id)
  local v = redis.call('HGET', bkey(id), id)
  if not v then return nil end
  return cmsgpack.unpack(v)
end
local function packrec(r)
  if r[PRIOR] then
    -- No holes: a MessagePack array has none.
    for i = LEASED, RES do
      if r[i] == nil then r[i] = PAD[i] end
    end
  end
  return cmsgpack.pack(r)
end
local function putrec(id, r) redis.call('HSET', bkey(id), id, packrec(r)) end
local function hostof(url) return string.match(url, '^[^:/?#]+://([^/?#]*)') or '' end
local function rhost(r)
  if r[HOST] ~= '' then return r[HOST] end
  local h = hostof(r[URL])
  local at = string.find(h, '@', 1, true)
  if at then h = string.sub(h, at + 1) end
  return h
end
local function ownhost(url, host)
  if rhost({[URL] = url, [HOST] = ''}) == host then return '' end
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
local function tohex(s)
  return (s:gsub('.', function(c) return string.format('%02x', string.byte(c)) end))
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
local function clampunit(x)
  if x > 1 then return 1 elseif x < 0 then return 0 end
  return x
end
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
-- stn names the st field of the URLs in state at depth, 'n:STATE:DEPTH';
-- a name made is kept, as making one of numbers costs more than a move.
-- (A script's main function holds at most 200 locals: the names are the
-- function's own.)
local stn
do
  local names = {}
  stn = function(state, depth)
    local t = names[state]
    if not t then t = {}; names[state] = t end
    local f = t[depth]
    if not f then f = ST.IN_STATE .. state .. ST.SEP .. depth; t[depth] = f end
    return f
  end
end
local function movestate(r, state, depth)
  add(KEY.STATS, stn(r[STATE], r[DEPTH]), -1)
  add(KEY.STATS, stn(state, depth), 1)
end
-- Each host has its own queue, q:HOST; the hosts with queued URLs are in
-- hq, scored by their best URL's score. The reserve (state 6) is a second
-- tier of the same shape, r:HOST and rh. A script notes the hosts whose
-- queue it changed and sets their place in hq (rh) once, at its end
-- (flush). TIER maps a queued state to its queue prefix and host queue.
local TIER = {[ST_QUEUED] = {queue = 'q:', hosts = 'hq'}, [ST_RESERVE] = {queue = 'r:', hosts = 'rh'}}
-- touched[state][h] is true for a host whose queue changed, or its new
-- head's score when the script knows it ('' when the queue is empty).
local touched = {[ST_QUEUED] = {}, [ST_RESERVE] = {}}
-- added holds, for a host whose queue only grew, its best new score: its
-- place in hq can only improve, which ZADD LT does in one call.
local added = {[ST_QUEUED] = {}, [ST_RESERVE] = {}}
-- enqueueat queues id at score sc in host h's queue of a tier (state).
-- A score is a whole number below 2^53: '%d' writes it exactly.
local function enqueueat(id, state, h, sc)
  redis.call('ZADD', P .. TIER[state].queue .. h, string.format('%d', sc), id)
  local a = added[state]
  if not a[h] or sc < a[h] then a[h] = sc end
end
local function enqueue(id, r)
  enqueueat(id, r[STATE], rhost(r), qscore(r[PRIO], r[DEPTH], r[SEQ]))
  if r[CLASS] then redis.call('SADD', P .. 'cq:' .. r[CLASS], id) end
end
local function dequeue(id, r)
  local h = rhost(r)
  redis.call('ZREM', P .. TIER[r[STATE]].queue .. h, id)
  touched[r[STATE]][h] = true
end
-- zaddall adds score-member pairs to a sorted set, a thousand a call,
-- with opt ('LT' or nil).
local function zaddall(key, opt, pairs_)
  for i = 1, #pairs_, 2000 do
    local part = {unpack(pairs_, i, math.min(i + 1999, #pairs_))}
    if opt then
      redis.call('ZADD', key, opt, unpack(part))
    else
      redis.call('ZADD', key, unpack(part))
    end
  end
end
fixheads = function()
  for s, t in pairs(TIER) do
    local lt, set, gone = {}, {}, {}
    for h, sc in pairs(added[s]) do
      if not touched[s][h] then lt[#lt + 1] = string.format('%d', sc); lt[#lt + 1] = h end
    end
    added[s] = {}
    for h, head in pairs(touched[s]) do
      local best = head
      if head == true then
        local _, first = unpack(redis.call('ZRANGE', P .. t.queue .. h, 0, 0, 'WITHSCORES'))
        best = first
      end
      if best and best ~= '' then
        set[#set + 1] = best; set[#set + 1] = h
      else
        gone[#gone + 1] = h
      end
    end
    touched[s] = {}
    zaddall(P .. t.hosts, 'LT', lt)
    zaddall(P .. t.hosts, nil, set)
    bulk('ZREM', P .. t.hosts, gone, 1000)
  end
end
-- setres marks a record as the reserve's, filling the fields before RES.
local function setres(r)
  for i = LEASED, LOGPOS do
    if r[i] == nil then r[i] = PAD[i] end
  end
  r[RES] = 1
end
-- rl holds the leased URLs of the reserve, by lease expiry, so that the
-- running leases of other URLs are leased minus rl.
local function unlease(id, r)
  if r[RES] == 1 then redis.call('ZREM', P .. 'rl', id) end
  redis.call('ZREM', P .. 'leased', id)
  if r[OWNER] and r[OWNER] ~= '' then redis.call('ZREM', P .. 'own:' .. r[OWNER], id) end
  local h = rhost(r)
  if redis.call('HINCRBY', P .. 'h:active', h, -1) <= 0 then redis.call('HDEL', P .. 'h:active', h) end
  if r[OWNER] and r[OWNER] ~= '' and redis.call('HINCRBY', P .. 'hw:' .. h, r[OWNER], -1) <= 0 then
    redis.call('HDEL', P .. 'hw:' .. h, r[OWNER])
  end
  r[LEASED], r[UNTIL], r[OWNER] = 0, 0, ''
end
-- Host state (hs: host -> record, redis_record.go); a clean host has
-- none. pkh holds the parked hosts by next probe; pk:HOST a parked
-- host's URLs, scored as in its queue; w:HOST the URLs waiting for a
-- retry, by retry time, and wh the hosts with waiting URLs by the first.
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
local function hsnew()
  return {[PK] = HOST_UP, [REASON] = '', [SINCE] = 0, [RETRY] = 0, [WAIT] = 0, [HTRIES] = 0, [TIMEOUTS] = 0,
    [PROBE] = '', [HELD] = 0}
end
local function hsput(h, st)
  hsnone = false
  hstates[h] = st
  redis.call('HSET', P .. 'hs', h, cmsgpack.pack(st))
end
-- hsdrop forgets the state of a host that is clean again
-- (HostStatus.Clean, as the Go side computed): a clean host has no record.
local function hsdrop(h)
  hstates[h] = false
  redis.call('HDEL', P .. 'hs', h)
end
local function hostparked(h)
  local st = hsget(h)
  return st ~= nil and st[PK] == HOST_PARKED
end
-- trim drops the fields a queued record does not need, keeping a retried
-- URL's tries and last error, and the reserve's mark.
local function trim(r)
  local tries, err, res = r[TRIES] or 0, r[ERR] or '', r[RES]
  for i = LEASED, RES do r[i] = nil end
  if tries > 0 then
    r[LEASED], r[UNTIL], r[OWNER], r[FETCHED], r[STATUS], r[SCORE], r[REL], r[ERR], r[TRIES] = 0, 0, '', 0, 0, 0, -1, err, tries
  end
  if res == 1 then setres(r) end
end
local wtouched = {}
-- place files a record under its state: queued, parked or waiting (at).
local function place(id, r, at)
  local h = rhost(r)
  if r[STATE] == ST_QUEUED or r[STATE] == ST_RESERVE then
    enqueue(id, r)
  elseif r[STATE] == ST_PARKED then
    redis.call('ZADD', P .. 'pk:' .. h, qscore(r[PRIO], r[DEPTH], r[SEQ]), id)
  elseif r[STATE] == ST_WAITING then
    redis.call('ZADD', P .. 'w:' .. h, at, id)
    wtouched[h] = true
  elseif r[STATE] == ST_FAILED then
    redis.call('SADD', P .. 'fail', id)
  end
end
-- unplace takes a record out of the structure its state files it under.
local function unplace(id, r)
  local h = rhost(r)
  if r[STATE] == ST_QUEUED or r[STATE] == ST_RESERVE then
    dequeue(id, r)
  elseif r[STATE] == ST_LEASED then
    unlease(id, r)
  elseif r[STATE] == ST_PARKED then
    redis.call('ZREM', P .. 'pk:' .. h, id)
  elseif r[STATE] == ST_WAITING then
    redis.call('ZREM', P .. 'w:' .. h, id)
    wtouched[h] = true
  elseif r[STATE] == ST_FAILED then
    redis.call('SREM', P .. 'fail', id)
  end
end
fixwaits = function()
  for h in pairs(wtouched) do
    local _, first = unpack(redis.call('ZRANGE', P .. 'w:' .. h, 0, 0, 'WITHSCORES'))
    if first then
      redis.call('ZADD', P .. 'wh', first, h)
    else
      redis.call('ZREM', P .. 'wh', h)
    end
  end
  wtouched = {}
end
-- move changes the state of a URL and files it again; a URL of the
-- reserve queued again goes back to the reserve.
local function move(id, r, state, at)
  if state == ST_QUEUED and r[RES] == 1 then state = ST_RESERVE end
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
      if state ~= ST_WAITING and state ~= ST_FAILED then trim(r) end
      putrec(id, r)
    end
  end
  redis.call('DEL', P .. key .. h)
  return #ids
end
local function requeue(id, r)
  local state = ST_QUEUED
  if hostparked(rhost(r)) then state = ST_PARKED end
  move(id, r, state, 0)
  trim(r)
  putrec(id, r)
end
-- failnow fails a held URL that was never fetched.
local function failnow(id, r, msg)
  move(id, r, ST_FAILED, 0)
  r[LEASED], r[UNTIL], r[OWNER], r[FETCHED], r[STATUS], r[SCORE], r[REL], r[ERR] = 0, 0, '', 0, 0, 0, -1, msg
  r[TRIES], r[LOGPOS] = r[TRIES] or 0, -1
  add(KEY.STATS, ST.UNFETCHED .. r[DEPTH], 1)
  putrec(id, r)
end
local seq
local function nextseq()
  if not seq then seq = tonumber(redis.call('HGET', P .. KEY.META, CRAWL.SEQ) or 0) end
  seq = seq + 1
  return seq
end
local function saveseq()
  if seq then redis.call('HSET', P .. KEY.META, CRAWL.SEQ, seq) end
end
-- requeueAll queues the leased URLs of ids again (and drops ids of
-- leases that ended already); it returns how many it queued.
local function requeueAll(ids)
  local n = 0
  for _, id in ipairs(ids) do
    local r = getrec(id)
    if r and r[STATE] == ST_LEASED then
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
  if n > 0 then add(KEY.COUNTERS, COUNT.LEASE_EXPIRED, n) end
  return n
end
-- wake queues again the waiting URLs whose retry time has come and, for
-- each parked host whose probe is due and that has no URL out, its best
-- held URL as the probe, with its next probe time as Go computed it
-- (ProbeSent): probes[host] = {wait, retry}, planned on the host's wait.
-- When probes lacks a due host (or has it for another wait) wake queues
-- no probe and answers those hosts, {host, wait}, for Go to compute.
local function wake(now, probes)
  for _, h in ipairs(redis.call('ZRANGEBYSCORE', P .. 'wh', '-inf', now, 'LIMIT', 0, 1000)) do
    local state = ST_QUEUED
    if hostparked(h) then state = ST_PARKED end
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
  local due, missing = {}, {}
  for _, h in ipairs(redis.call('ZRANGEBYSCORE', P .. 'pkh', '-inf', now, 'LIMIT', 0, 1000)) do
    local st = hsget(h)
    if st and st[PK] == HOST_PARKED and redis.call('ZCARD', P .. 'q:' .. h) == 0 and redis.call('ZCARD', P .. 'r:' .. h) == 0
        and not redis.call('HGET', P .. 'h:active', h) then
      local best = unpack(redis.call('ZRANGE', P .. 'pk:' .. h, 0, 0))
      local r = best and getrec(best)
      if r then
        local p = probes[h]
        if not p or p.wait ~= st[WAIT] then
          missing[#missing + 1] = {host = h, wait = st[WAIT]}
        else
          due[#due + 1] = {host = h, st = st, id = best, r = r, retry = p.retry}
        end
      end
    elseif not st or st[PK] ~= HOST_PARKED then
      redis.call('ZREM', P .. 'pkh', h)
    end
  end
  if #missing > 0 then return missing end
  for _, d in ipairs(due) do
    local st = d.st
    move(d.id, d.r, ST_QUEUED, 0)
    putrec(d.id, d.r)
    st[PROBE], st[RETRY] = d.id, d.retry
    hsput(d.host, st)
    redis.call('ZADD', P .. 'pkh', st[RETRY], d.host)
  end
  return nil
end
`
