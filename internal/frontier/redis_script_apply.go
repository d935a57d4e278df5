package frontier

// The Lua script of RedisStore.Apply, and what it takes and answers;
// luaPrelude is in redis_scripts.go, the layouts of its rows in
// redis_rows.go.

// queueRow is the row of an entry to queue: its site when it is the
// first of its host in the chunk, else "", reserve 1 when it goes to the
// reserve. Apply sets its robots.txt flag and class when it sends the
// chunk.
//
// The rows travel as MessagePack, whose strings are bytes: the ids go
// in as they are, the text as it reached the scripts in JSON before
// (luaText), and the record as redisRecordHead packs it from that text.
func queueRow(e *Entry, site string, reserve int) scriptRow {
	u, host, parent, anchor, meta := luaText(e.URL), luaText(e.Host), luaText(e.Parent), luaText(e.Anchor), luaText(entryMeta(e))
	pid, recParent := "\x00\x00\x00\x00\x00\x00\x00\x00", ""
	if e.Parent != "" {
		pid = redisID(e.Parent)
		recParent = pid
	}
	r := newRow(qrowWidth)
	r.set(qrowURL, u)
	r.set(qrowID, redisID(e.URL))
	r.set(qrowHost, host)
	r.set(qrowSite, luaText(site))
	r.set(qrowPrio, e.Priority)
	r.set(qrowDepth, e.Depth)
	r.set(qrowParentURL, parent)
	r.set(qrowParentID, pid)
	r.set(qrowAnchor, anchor)
	r.set(qrowInherited, e.Inherited)
	r.set(qrowMeta, meta)
	r.set(qrowRobots, 0)
	r.set(qrowReserve, reserve)
	r.set(qrowClass, 0)
	r.set(qrowRecord, string(redisRecordHead(nil, u, host, recParent, anchor, meta, e.Priority, e.Inherited, e.Depth)))
	return r
}

// edgeRow is the row of a link kept.
func edgeRow(e Edge) scriptRow {
	r := newRow(erowWidth)
	r.set(erowFrom, e.From)
	r.set(erowFromID, hexID(e.From))
	r.set(erowTo, e.To)
	r.set(erowToID, hexID(e.To))
	r.set(erowPrio, e.Priority)
	r.set(erowAnchor, e.Anchor)
	r.set(erowContext, e.Context)
	return r
}

// redisRobots is a host's robots.txt rules, learned from an outcome.
type redisRobots struct {
	Host  string `json:"host"`
	Agent string `json:"agent"`
	Rules string `json:"rules"`
}

// Why the apply script wrote nothing and the chunk is computed again
// (redisApplied.Again); the script names them AGAIN.ROBOTS ….
const (
	applyAgainRobots   = "robots"   // robots.txt rules were learned since they were read
	applyAgainMoved    = "moved"    // a host, URL or class changed since the steps were computed
	applyAgainLearning = "learning" // learning was turned on or off
)

var luaApplyAgain = luaTags("AGAIN", []luaTag{
	{"ROBOTS", applyAgainRobots}, {"MOVED", applyAgainMoved}, {"LEARNING", applyAgainLearning},
})

// The arguments of redisApply.
const (
	applyArgChunk = iota + 1 // the chunk as JSON
	applyArgQueue            // the queue rows (qrow…) as one MessagePack array
	applyArgDone             // the ids of the done rows, 8 bytes each
)

// redisApplied is the apply script's answer: what it did, or why it did
// nothing (Again).
type redisApplied struct {
	Again    string   `json:"again"`
	Done     int      `json:"done"`
	Queued   int      `json:"queued"`
	Raised   int      `json:"raised"`
	Known    int      `json:"known"`
	Refused  int      `json:"refused"` // by the bound on URLs per host
	Requeued int      `json:"requeued"`
	GivenUp  int64    `json:"givenup"` // refused: their host was given up
	Robots   int64    `json:"robots"`  // refused by robots.txt
	Learned  []string `json:"learned"` // hosts whose robots.txt rules changed
	Reserved int      `json:"reserved"`
}

// redisApply records a batch (applyArg…): the chunk is a JSON object
// {now, max, done: [done rows (drow…, redis_rows.go)], steps: the host
// policy's step of each done row (redisStep, or null), expect: the
// records the steps were computed from (redisExpect), edges: [edge rows
// (erow…)], refused: {guard: n}, robots: [redisRobots] learned, rv: the
// robots.txt version the caller filtered the queue with (-1: none),
// learn: the learning configuration as read (” when off), classes: the URL classes the chunk reads, counts and
// ranks (redisClass), moves: the places in classes of those to rank
// again, most moved first, maxrows: how many queued URLs to rank again at
// most}. It answers redisApplied as JSON: what it did, or why the chunk
// must be computed again (again: applyAgainRobots when the robots.txt
// version moved on, applyAgainMoved when a record of expect or a class
// changed, applyAgainLearning when learning was turned on or off).
var redisApply = newRedisScript("apply", argSlots(
	luaName{"CHUNK", applyArgChunk}, luaName{"QUEUE", applyArgQueue}, luaName{"DONE", applyArgDone},
), luaPrelude+luaApplyRows+luaApplyAgain+luaStepTags+`
local b = cjson.decode(ARGV[ARG.CHUNK])
-- The queue rows come as MessagePack, the ids of the done rows as bytes
-- beside the JSON, 8 each.
b.queue = cmsgpack.unpack(ARGV[ARG.QUEUE])
for i, d in ipairs(b.done) do d[D_ID] = string.sub(ARGV[ARG.DONE], 8 * i - 7, 8 * i) end
local function again(why) return cjson.encode({again = why}) end
if b.rv >= 0 and tonumber(redis.call('HGET', P .. KEY.META, CRAWL.ROBOTS_VERSION) or 0) ~= b.rv then
  return again(AGAIN.ROBOTS) -- robots.txt rules were learned since the caller read them
end
-- The steps were computed from these records: another worker changed
-- one since, and they must be computed again.
for h, want in pairs(b.expect.hosts) do
  local v = redis.call('HGET', P .. 'hs', h)
  if (v and tohex(v) or '') ~= want then return again(AGAIN.MOVED) end
end
-- Hosts assumed clean without reading them: a clean host has no record.
for _, h in ipairs(b.expect.up) do
  if redis.call('HEXISTS', P .. 'hs', h) == 1 then return again(AGAIN.MOVED) end
end
for _, e in ipairs(b.expect.urls) do
  local _, r = find(e.url, unhex(e.id))
  local state, tries = -1, 0
  if r then state, tries = r[STATE], r[TRIES] or 0 end
  if state ~= e.state or tries ~= e.tries then return again(AGAIN.MOVED) end
end
-- The URL classes (redis_classes.go) the chunk was computed with: the
-- learning configuration, and each class's estimate as read (or its
-- absence, for a class to create). Another worker that ranked one again
-- meanwhile makes the chunk computed again.
if (redis.call('HGET', P .. KEY.META, CRAWL.LEARNING) or '') ~= b.learn then return again(AGAIN.LEARNING) end
local cls = {}
for i, c in ipairs(b.classes) do
  local v = redis.call('HGET', P .. 'cls:' .. c.host, c.key)
  local k = {f = c.f, dirty = c.id == 0 or c.fetched ~= 0}
  if c.id == 0 then
    if v then return again(AGAIN.MOVED) end
    k.rec = {[CL_ID] = 0, [CL_PARENT] = c.parent, [CL_FETCHED] = 0, [CL_RELEVANT] = 0, [CL_LABELS] = 0,
      [CL_PRIORS] = 0, [CL_APPLIED] = c.applied}
  else
    if not v then return again(AGAIN.MOVED) end
    k.rec = cmsgpack.unpack(v)
    if k.rec[CL_ID] ~= c.id or k.rec[CL_APPLIED] ~= c.applied then return again(AGAIN.MOVED) end
  end
  cls[i] = k
end
local now, max = b.now, b.max
-- res counts the done rows recorded and what became of each queue row
-- (queue's answer).
local res = {done = 0, queued = 0, raised = 0, known = 0, refused = 0}
local requeued, givenup, robotsguard, learned, reserved = 0, 0, 0, {}, 0
-- The URL counts of the chunk's hosts (h:urls) are read in one call and
-- written in one at its end, with the sites of the hosts new to the crawl
-- (h:site: a host has a site once it has a URL). A host's site comes in
-- its first row of the chunk.
local hosturls, hostnew, hostdirty, sites = {}, {}, {}, {}
local function readurls(hosts)
  local need, seen = {}, {}
  for _, h in ipairs(hosts) do
    if hosturls[h] == nil and not seen[h] then seen[h] = true; need[#need + 1] = h end
  end
  for i = 1, #need, 1000 do
    local part = {unpack(need, i, math.min(i + 999, #need))}
    local v = redis.call('HMGET', P .. KEY.HOST_URLS, unpack(part))
    for j, h in ipairs(part) do hosturls[h] = tonumber(v[j]) or 0 end
  end
end
local function urlsof(host)
  if hosturls[host] == nil then readurls({host}) end
  return hosturls[host]
end
local function hostadd(host, site)
  local n = urlsof(host)
  if n == 0 and not hostnew[host] then hostnew[host] = site end
  hosturls[host], hostdirty[host] = n + 1, true
end
local function savehosts()
  local counts, news = {}, {}
  for h in pairs(hostdirty) do counts[#counts + 1] = h; counts[#counts + 1] = string.format('%d', hosturls[h]) end
  for h, site in pairs(hostnew) do news[#news + 1] = h; news[#news + 1] = site end
  bulk('HSET', P .. KEY.HOST_URLS, counts, 1000)
  bulk('HSET', P .. KEY.HOST_SITE, news, 1000)
end
do
  local hosts = {}
  for i, e in ipairs(b.queue) do hosts[i] = e[Q_HOST] end
  readurls(hosts)
end

for _, rb in ipairs(b.robots) do
  local v = rb.agent .. '\n' .. rb.rules
  if redis.call('HGET', P .. KEY.ROBOTS, rb.host) ~= v then
    redis.call('HSET', P .. KEY.ROBOTS, rb.host, v)
    redis.call('HINCRBY', P .. KEY.META, CRAWL.ROBOTS_VERSION, 1)
    learned[#learned + 1] = rb.host
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
-- giveup fails every held URL of a host that stayed down through its
-- tries, and the probe, with msg.
local function giveup(h, st, probe, msg)
  st[PROBE] = ''
  redis.call('ZREM', P .. 'pkh', h)
  local n = 0
  for _, key in ipairs({'q:', 'r:', 'pk:', 'w:'}) do
    for _, id in ipairs(redis.call('ZRANGE', P .. key .. h, 0, -1)) do
      local r = getrec(id)
      if r then failnow(id, r, msg); n = n + 1 end
    end
    redis.call('DEL', P .. key .. h)
  end
  local r = getrec(probe)
  if r and r[STATE] == ST_LEASED then failnow(probe, r, msg); n = n + 1 end
  st[HELD] = n
  hsput(h, st)
  requeued = requeued + 1 -- the probe does not count as fetched
end
-- hostclear clears the failure state of a host that answered, and queues
-- its parked URLs again when unpark.
local function hostclear(h, unpark)
  hsdrop(h)
  if unpark then
    redis.call('ZREM', P .. 'pkh', h)
    moveall('pk:', h, ST_QUEUED)
  end
end
-- hoststep writes the host status a step computed (s.hs, redisHostStatus),
-- or drops it when it is clean (s.drop), and does what its change does.
local function hoststep(h, s, id)
  local st, v = hsget(h) or hsnew(), s.hs
  st[PK], st[REASON], st[SINCE], st[RETRY], st[WAIT], st[HTRIES], st[TIMEOUTS] =
    v.mode, v.reason, v.since, v.retry, v.wait, v.tries, v.timeouts
  if s.clear then st[PROBE] = '' end
  if s.change == CHANGE.GIVEUP then return giveup(h, st, id, s.gerr) end
  if s.drop then return hsdrop(h) end
  hsput(h, st)
  if st[PK] == HOST_PARKED then redis.call('ZADD', P .. 'pkh', st[RETRY], h) end
  if s.change == CHANGE.PARK then
    moveall('q:', h, ST_PARKED)
    moveall('r:', h, ST_PARKED)
    moveall('w:', h, ST_PARKED)
  end
end
-- outcome applies an outcome's step (hoststeps.go): it reports whether
-- the URL was put back or settled with its host rather than recorded.
local function outcome(d, s)
  if type(s) ~= 'table' then return false end
  if s.answered then hostclear(s.host, s.unpark) end
  if s.change ~= CHANGE.KEEP then
    local id = find(d[D_URL], d[D_ID])
    hoststep(s.host, s, id)
  end
  if s.act == ACT.PUTBACK then
    local id, r = find(d[D_URL], d[D_ID])
    putback(id, r, s.state, s.at, s.add, s.err)
    return true
  end
  return s.act == ACT.SETTLED
end

local function done(d)
  local url, host, site, depth, state, fetched, status, score, rel, err =
        d[D_URL], d[D_HOST], d[D_SITE], d[D_DEPTH], d[D_STATE], d[D_FETCHED], d[D_STATUS], d[D_SCORE], d[D_REL], d[D_ERR]
  local id, r = find(url, d[D_ID])
  local before, wasfetched = nil, false
  if not r then
    r = newrecord(url, ownhost(url, host), state, 0, depth, '', '', 0, '', nextseq())
    hostadd(host, site)
    add(KEY.STATS, stn(state, depth), 1)
    before = 0
  else
    before = r[STATE]
    wasfetched = (before == ST_DONE) or (before == ST_FAILED and r[FETCHED] ~= 0)
    if before == ST_FAILED and not wasfetched then add(KEY.STATS, ST.UNFETCHED .. r[DEPTH], -1) end
    unplace(id, r)
    if (before == ST_DONE or before == ST_FAILED) and r[REL] == 1 then add(KEY.STATS, ST.RELEVANT .. r[DEPTH], -1) end
    movestate(r, state, r[DEPTH])
    r[STATE] = state
  end
  r[LEASED], r[UNTIL], r[OWNER] = 0, 0, ''
  r[FETCHED], r[STATUS], r[SCORE], r[REL], r[ERR] = fetched, status, score, rel, err
  r[TRIES], r[LOGPOS] = r[TRIES] or 0, r[LOGPOS] or -1
  if state == ST_FAILED then redis.call('SADD', P .. 'fail', id) end
  if rel == 1 then add(KEY.STATS, ST.RELEVANT .. r[DEPTH], 1) end
  if d[D_TARGET] == 1 and before ~= ST_DONE and before ~= ST_FAILED then
    -- A redirect's target, done in its URL's fetch: not a page of its own
    -- (the SQLite store's redirect.targets counters).
    add(KEY.STATS, ST.REDIRECTS, 1)
    if rel == 1 then add(KEY.STATS, ST.REDIRECTS_RELEVANT, 1) end
    redis.call('SADD', P .. 'redir', id) -- History marks it: not a page of its own
  end
  if not wasfetched then
    local h = rhost(r)
    if r[RES] == 1 then add(KEY.STATS, ST.FROM_RESERVE, 1) end
    add(KEY.HOST_FETCHED, h, 1)
    if rel == 1 then add(KEY.HOST_RELEVANT, h, 1) end
    r[LOGPOS] = redis.call('RPUSH', P .. 'log', id) - 1
  end
  putrec(id, r)
end

-- raise gives a queued or leased URL a better priority or a lower depth;
-- a URL not yet fetched leaves the reserve when a kept link leads to it
-- (res 0), also while parked or waiting.
local function raise(id, r, prio, depth, parent, anchor, inh, res, k)
  local s, changed = r[STATE], false
  -- While the frontier learns, a link's priority is compared with the
  -- one the URL was queued with, and ranked in its class.
  local old = r[PRIO]
  if k then old = r[PRIOR] or r[PRIO] end
  if res == 0 and r[RES] == 1 and (s == ST_QUEUED or s == ST_LEASED or s == ST_PARKED or s == ST_WAITING or s == ST_RESERVE) then
    if s == ST_LEASED then redis.call('ZREM', P .. 'rl', id) end
    r[RES] = nil
    if s == ST_RESERVE then
      move(id, r, ST_QUEUED, 0)
      trim(r)
    end
    changed = true
  end
  s = r[STATE]
  if (s == ST_QUEUED or s == ST_LEASED or s == ST_RESERVE) and (prio > old or depth < r[DEPTH]) then
    local nd = r[DEPTH]
    if depth < nd then nd = depth end
    movestate(r, s, nd)
    r[DEPTH] = nd
    if prio > old then
      r[PRIO], r[PARENT], r[ANCHOR], r[INH] = prio, parent, anchor, inh
      if k then r[PRIO], r[PRIOR], r[CLASS] = clampunit(prio * k.f), prio, r[CLASS] or k.rec[CL_ID] end
    end
    if s == ST_QUEUED or s == ST_RESERVE then enqueue(id, r) end
    changed = true
  end
  if changed then
    putrec(id, r)
    return 'raised'
  end
  return 'known'
end

-- rerank ranks the queued URLs of class cid again with the factor f, and
-- takes the URLs that left the queue out of its set: it returns how many
-- it ranked.
local function rerank(cid, f)
  local key, n = P .. 'cq:' .. cid, 0
  for _, id in ipairs(redis.call('SMEMBERS', key)) do
    local r = getrec(id)
    if r and (r[STATE] == ST_QUEUED or r[STATE] == ST_RESERVE) and r[CLASS] == cid then
      r[PRIO] = clampunit(r[PRIOR] * f)
      putrec(id, r)
      local h = rhost(r)
      redis.call('ZADD', P .. TIER[r[STATE]].queue .. h, qscore(r[PRIO], r[DEPTH], r[SEQ]), id)
      touched[r[STATE]][h] = true
      n = n + 1
    else
      redis.call('SREM', key, id)
    end
  end
  return n
end

-- The links of one page share its parent: look it up once.
local parents = {}
local function parentid(url, id)
  if url == '' then return '' end
  local p = parents[url]
  if p == nil then
    local pid, pr = find(url, id)
    p = ''
    if pr then p = pid end
    parents[url] = p
  end
  return p
end

-- newrec is the record of a URL queued now.
local function newrec(e, state, parent, k)
  local url, host, prio, res = e[Q_URL], e[Q_HOST], e[Q_PRIO], e[Q_RES]
  local r = newrecord(url, ownhost(url, host), state, prio, e[Q_DEPTH], parent, e[Q_ANCHOR], e[Q_INH], e[Q_META], nextseq())
  if k then r[PRIO], r[PRIOR], r[CLASS] = clampunit(prio * k.f), prio, k.rec[CL_ID] end
  if res == 1 then
    setres(r)
    if state == ST_QUEUED then r[STATE] = ST_RESERVE end
  end
  return r
end
-- inserted files a URL stored just now.
local function inserted(e, id, r)
  if r[RES] == 1 then reserved = reserved + 1 end
  parents[e[Q_URL]] = nil -- known now, if an earlier link's parent lookup missed it
  place(id, r, 0)
  hostadd(e[Q_HOST], sites[e[Q_HOST]])
  add(KEY.STATS, stn(r[STATE], r[DEPTH]), 1)
  return 'queued'
end

-- queuefast stores the record of a new queued URL as Go packed it
-- (Q_REC, but for its sequence number), unless its id is taken: it
-- answers whether it did.
local function queuefast(e)
  local id, host, n = e[Q_ID], e[Q_HOST], nextseq()
  if redis.call('HSETNX', bkey(id), id, e[Q_REC] .. cmsgpack.pack(n)) == 0 then
    seq = seq - 1 -- not stored: its number goes back
    return false
  end
  parents[e[Q_URL]] = nil -- known now, if an earlier link's parent lookup missed it
  enqueueat(id, ST_QUEUED, host, qscore(e[Q_PRIO], e[Q_DEPTH], n))
  hostadd(host, sites[host])
  add(KEY.STATS, stn(ST_QUEUED, e[Q_DEPTH]), 1)
  return true
end

-- queue queues the URL of a row, or raises it when known: it answers
-- what it did (the field of res to count it in), nil when a guard
-- refused it.
local function queue(e)
  local id, url, host, prio, depth, anchor, inh, res = e[Q_ID], e[Q_URL], e[Q_HOST], e[Q_PRIO], e[Q_DEPTH], e[Q_ANCHOR], e[Q_INH], e[Q_RES]
  local robots = e[Q_ROBOTS] == 1
  if e[Q_SITE] ~= '' then sites[host] = e[Q_SITE] end
  local k = e[Q_CLASS] > 0 and cls[e[Q_CLASS]] or nil
  local parent = parentid(e[Q_PURL], e[Q_PID])
  local st = hsget(host)
  local state = ST_QUEUED
  if st and st[PK] == HOST_PARKED then state = ST_PARKED end
  -- The common case, a new URL its host takes, is one call: the record
  -- is stored unless its id is taken (by the URL, or another). Go packed
  -- it for a queued URL of no class, not of the reserve, whose parent is
  -- stored under its own id.
  if not robots and not (st and st[PK] == HOST_GIVEN_UP) and not (max > 0 and urlsof(host) >= max) then
    if state == ST_QUEUED and not k and res ~= 1 and parent == (e[Q_PURL] ~= '' and e[Q_PID] or '') then
      if queuefast(e) then return 'queued' end
    else
      local r = newrec(e, state, parent, k)
      if redis.call('HSETNX', bkey(id), id, packrec(r)) == 1 then return inserted(e, id, r) end
      seq = seq - 1 -- not stored: its number goes back
    end
  end
  local r
  id, r = find(url, id)
  if r then
    if robots or (st and st[PK] == HOST_GIVEN_UP) then return 'known' end
    return raise(id, r, prio, depth, parent, anchor, inh, res, k)
  end
  if robots then robotsguard = robotsguard + 1; return nil end
  if st and st[PK] == HOST_GIVEN_UP then givenup = givenup + 1; return nil end
  if max > 0 and urlsof(host) >= max then return 'refused' end
  r = newrec(e, state, parent, k)
  putrec(id, r)
  return inserted(e, id, r)
end

local back = false
for i, d in ipairs(b.done) do
  if d[D_TARGET] == 1 then
    -- A redirect target, recorded with its URL.
    if not back then done(d) end
  else
    back = outcome(d, b.steps[i])
    if not back then
      done(d)
      res.done = res.done + 1
    end
  end
end
-- The classes: new ones take the next ids; the moved ones, most moved
-- first, have their queued URLs ranked again while the bound allows;
-- each class counts the chunk's outcomes.
for i, c in ipairs(b.classes) do
  if c.id == 0 then cls[i].rec[CL_ID] = redis.call('HINCRBY', P .. KEY.META, CRAWL.CLASS_SEQ, 1) end
end
local rows = 0
for _, i in ipairs(b.moves) do
  if rows >= b.maxrows then break end
  local c, k = b.classes[i], cls[i]
  rows = rows + rerank(k.rec[CL_ID], c.fnew)
  k.rec[CL_APPLIED], k.f, k.dirty = c.est, c.fnew, true
end
for i, c in ipairs(b.classes) do
  local k = cls[i]
  if k.dirty then
    local r = k.rec
    r[CL_FETCHED], r[CL_RELEVANT] = r[CL_FETCHED] + c.fetched, r[CL_RELEVANT] + c.relevant
    r[CL_LABELS], r[CL_PRIORS] = r[CL_LABELS] + c.labels, r[CL_PRIORS] + c.priors
    redis.call('HSET', P .. 'cls:' .. c.host, c.key, cmsgpack.pack(r))
  end
end
for _, e in ipairs(b.queue) do
  local k = queue(e)
  if k then res[k] = res[k] + 1 end
end
for _, e in ipairs(b.edges) do
  local sid, sr = find(e[E_FROM], unhex(e[E_FROMID]))
  local did, dr = find(e[E_TO], unhex(e[E_TOID]))
  if sr and dr and sid ~= did then
    local k = sid .. did
    local old = redis.call('HGET', P .. KEY.EDGES, k)
    local v
    if old then
      v = cmsgpack.unpack(old)
      if e[E_PRIO] > v[EG_PRIO] then v[EG_PRIO] = e[E_PRIO] end
      if v[EG_ANCHOR] == '' then v[EG_ANCHOR] = e[E_ANCHOR] end
      if v[EG_CONTEXT] == '' then v[EG_CONTEXT] = e[E_CONTEXT] end
    else
      v = newedge(e[E_PRIO], e[E_ANCHOR], e[E_CONTEXT])
    end
    redis.call('HSET', P .. KEY.EDGES, k, cmsgpack.pack(v))
  end
end
if res.refused > 0 then add(KEY.COUNTERS, COUNT.REFUSED_MAX_PER_HOST, res.refused) end
if robotsguard > 0 then add(KEY.COUNTERS, COUNT.REFUSED_ROBOTS, robotsguard) end
if givenup > 0 then add(KEY.COUNTERS, COUNT.REFUSED_GIVEN_UP, givenup) end
if requeued > 0 then add(KEY.COUNTERS, COUNT.REQUEUED, requeued) end
for guard, n in pairs(b.refused) do add(KEY.COUNTERS, COUNT.REFUSED .. guard, n) end
saveseq()
savehosts()
flush()
res.requeued, res.givenup, res.robots, res.reserved = requeued, givenup, robotsguard, reserved
if #learned > 0 then res.learned = learned end -- cjson writes an empty table as an object
return cjson.encode(res)
`)
