package frontier

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// The Redis lease. The plan, how many URLs of each host a call may take,
// is LeaseRequest.Room (leaseplan.go), computed in Go as on SQLite and
// PostgreSQL. When a bound depends on what other workers hold (host
// limit, own host limit, host gap, first contact), Lease first reads the
// facts of the best hosts (redisLeaseFacts: their HostLoad), computes
// each host's room, and the lease script (redisLease) checks that every
// host it walks was planned on the facts it still has before it takes
// any URL; when another worker moved one meanwhile, or the walk reaches a
// host the plan did not read, Lease reads and plans again. Without such
// a bound every host has the same room, and the lease is one script.

// luaLeaseFacts is Lua shared by the two lease scripts: leasefacts reads
// what the plan knows of host h for owner (HostLoad, by name): the
// owner's running leases of it (hw:HOST counts them by worker), the
// workers holding one, the worker that leased it last and when (h:last,
// "OWNER MS", kept with a host gap), whether a page of it came back
// (h:fetched) and its running leases (h:active). leasetier is the queue a
// lease takes from: the reserve only when nothing else is queued and no
// lease of anything else runs (its page may bring better links; rl holds
// the reserve's). need names the facts to read (LeaseRequest.Reads); the
// others read as none.
const luaLeaseFacts = `
local function leasefacts(h, owner, need)
  local f = {mine = 0, workers = 0, last = '', answered = false, running = 0}
  if need.mine then f.mine = tonumber(redis.call('HGET', P .. 'hw:' .. h, owner) or 0) end
  if need.workers then f.workers = redis.call('HLEN', P .. 'hw:' .. h) end
  if need.last then f.last = redis.call('HGET', P .. 'h:last', h) or '' end
  if need.answered then f.answered = tonumber(redis.call('HGET', P .. KEY.HOST_FETCHED, h) or 0) > 0 end
  if need.running then f.running = tonumber(redis.call('HGET', P .. 'h:active', h) or 0) end
  return f
end
local function leasetier(now, reserve)
  if reserve and redis.call('ZCARD', P .. 'hq') == 0
      and redis.call('ZCOUNT', P .. 'leased', '(' .. now, '+inf') == redis.call('ZCOUNT', P .. 'rl', '(' .. now, '+inf') then
    return ST_RESERVE
  end
  return ST_QUEUED
end
`

// The arguments of redisLeaseFacts.
const (
	leaseFactsArgNow     = iota + 1 // ms
	leaseFactsArgOwner              // decimal
	leaseFactsArgWalk               // how many hosts to read
	leaseFactsArgReserve            // 1: a lease may take the reserve
	leaseFactsArgProbes             // the probes planned (redisLeasePlan.Probes as JSON)
	leaseFactsArgNeed               // the facts to read (HostFacts as JSON)
)

// redisLeaseFacts queues again the URLs whose lease ran out and those whose
// wait is over, then reads the facts of the best hosts of the queue a
// lease takes from (leaseFactsArg…). It
// answers a JSON object {tier, hosts: [{host, mine, workers, last,
// answered, running}]}, best host first, or {probes: [{host, wait}]}
// when the probes lack a parked host whose probe is due.
var redisLeaseFacts = newRedisScript("lease facts", argSlots(
	luaName{"NOW", leaseFactsArgNow}, luaName{"OWNER", leaseFactsArgOwner}, luaName{"WALK", leaseFactsArgWalk},
	luaName{"RESERVE", leaseFactsArgReserve}, luaName{"PROBES", leaseFactsArgProbes}, luaName{"NEED", leaseFactsArgNeed},
), luaPrelude+luaLeaseFacts+`
local now, owner, walk = tonumber(ARGV[ARG.NOW]), ARGV[ARG.OWNER], tonumber(ARGV[ARG.WALK])
local reserve, need = ARGV[ARG.RESERVE] == '1', cjson.decode(ARGV[ARG.NEED])
reclaim(now, 100000)
local probes = wake(now, cjson.decode(ARGV[ARG.PROBES]))
flush()
if probes then return cjson.encode({probes = probes}) end
local tier = leasetier(now, reserve)
local out = {tier = tier}
local hosts = redis.call('ZRANGE', P .. TIER[tier].hosts, 0, walk - 1)
for i, h in ipairs(hosts) do
  local f = leasefacts(h, owner, need)
  f.host = h
  hosts[i] = f
end
if #hosts > 0 then out.hosts = hosts end -- cjson writes an empty table as an object
return cjson.encode(out)
`)

// The arguments of redisLease.
const (
	leaseArgNow   = iota + 1 // ms
	leaseArgN                // how many URLs at most
	leaseArgUntil            // the lease end (ms)
	leaseArgOwner            // decimal
	leaseArgScan             // how many hosts to look at
	leaseArgGap              // the host gap (ms)
	leaseArgPlan             // redisLeasePlan as JSON
)

// The tags of redisLease's answer (its replyHead).
const (
	leaseTookTag      = "ok"        // rows, a URL leased each
	leaseMovedTag     = "moved"     // a host's facts or the tier are not those planned on
	leaseUnplannedTag = "unplanned" // the walk reached a host the plan did not read
	leaseProbesTag    = "probes"    // the plan lacks a parked host whose probe is due
)

// redisLease leases the best queued URLs within the rooms of a plan
// (leaseArg…). It answers a reply (replyHead, replyRows) tagged
// leaseTookTag with a row per URL leased (lrow…, redis_rows.go),
// leaseMovedTag, leaseUnplannedTag, or leaseProbesTag with [{host,
// wait}] as JSON.
var redisLease = newRedisScript("lease", argSlots(
	luaName{"NOW", leaseArgNow}, luaName{"N", leaseArgN}, luaName{"UNTIL", leaseArgUntil}, luaName{"OWNER", leaseArgOwner},
	luaName{"SCAN", leaseArgScan}, luaName{"GAP", leaseArgGap}, luaName{"PLAN", leaseArgPlan},
), luaPrelude+luaLeaseFacts+luaLeaseRow+luaTags("LEASE", []luaTag{
	{"OK", leaseTookTag}, {"MOVED", leaseMovedTag}, {"UNPLANNED", leaseUnplannedTag}, {"PROBES", leaseProbesTag},
})+`
local now, n, untilMs, owner = tonumber(ARGV[ARG.NOW]), tonumber(ARGV[ARG.N]), tonumber(ARGV[ARG.UNTIL]), ARGV[ARG.OWNER]
local scan, gap = tonumber(ARGV[ARG.SCAN]), tonumber(ARGV[ARG.GAP])
local plan = cjson.decode(ARGV[ARG.PLAN])
reclaim(now, 100000)
local probes = wake(now, plan.probes)
if probes then flush(); return reply(LEASE.PROBES, cjson.encode(probes)) end
fixheads()
local tier = leasetier(now, plan.reserve)
if plan.facts and tier ~= plan.tier then flush(); return reply(LEASE.MOVED, {}) end
-- A candidate: a URL's queue score, its id and its host.
local function better(a, b)
  if a.score ~= b.score then return a.score < b.score end
  return a.id < b.id
end
-- gather collects candidates from one tier (its queue prefix and host
-- queue) host by host, best host first, each host giving its best URLs up
-- to its room, until no host left can beat the n-th best candidate: the
-- result is the n best URLs of the tier that the rooms allow. scan bounds
-- the hosts looked at. It answers nil and why when the plan does not
-- hold. read[h] keeps what it read of host h's queue, in rank order, as
-- the server answered it (id, score, id, score ...), and ended[h] whether
-- it read to the end. It reads one entry past the host's candidates, so
-- that the host's next head is known once its URLs are taken, without
-- asking again.
local read, ended = {}, {}
local function gather(t)
  local cands, thr = {}, nil
  -- With one room for every host, the heads of the first n hosts are n
  -- URLs any lease may take: the n-th host's head bounds the n-th best
  -- URL before anything is read.
  if not plan.facts then
    local _, nth = unpack(redis.call('ZRANGE', P .. t.hosts, n - 1, n - 1, 'WITHSCORES'))
    if nth then thr = tonumber(nth) end
  end
  -- The candidates come host by host, each host's in order, and hosts by
  -- their heads: they are often in order already.
  local function trim()
    local ordered = true
    for i = 2, #cands do
      if better(cands[i], cands[i - 1]) then ordered = false; break end
    end
    if not ordered then table.sort(cands, better) end
    for i = #cands, n + 1, -1 do cands[i] = nil end
    if #cands >= n then thr = cands[n].score end
  end
  -- readhost reads host h's queue down to the threshold and its room,
  -- and one entry further: all of it at once without a threshold, else
  -- two entries first (a host seldom has more than its head under the
  -- threshold) and twice as many each time after.
  local function readhost(h, key, room)
    local q, page = {}, room + 1
    if thr then page = 2 end
    while true do
      local have = #q / 2
      local ask = math.min(page, room + 1 - have)
      local got = redis.call('ZRANGE', key, have, have + ask - 1, 'WITHSCORES')
      if have == 0 then q = got else for j = 1, #got do q[#q + 1] = got[j] end end
      if #got < 2 * ask then ended[h] = true; break end
      if #q / 2 > room or (thr and tonumber(q[#q]) > thr) then break end
      page = page * 2
    end
    read[h] = q
    return q
  end
  local offset, looked, done = 0, 0, false
  while not done do
    local page = redis.call('ZRANGE', P .. t.hosts, offset, offset + 99, 'WITHSCORES')
    if #page == 0 then break end
    offset = offset + 100
    for i = 1, #page, 2 do
      local h, hs = page[i], tonumber(page[i + 1])
      if (thr and hs > thr) or looked >= scan then done = true; break end
      looked = looked + 1
      local room = plan.room
      if plan.facts then
        local p = plan.hosts[h]
        if not p then return nil, LEASE.UNPLANNED end
        local f = leasefacts(h, owner, plan.need)
        if f.mine ~= p.mine or f.workers ~= p.workers or f.last ~= p.last or f.answered ~= p.answered
            or f.running ~= p.running then
          return nil, LEASE.MOVED
        end
        room = p.room
      end
      if room > 0 then
        -- Only URLs that can still be among the n best: a host's queue is
        -- read down to the threshold, not to its room.
        local q = readhost(h, P .. t.queue .. h, room)
        for j = 2, math.min(#q, 2 * room), 2 do
          local sc = tonumber(q[j])
          if thr and sc > thr then break end
          cands[#cands + 1] = {score = sc, id = q[j - 1], host = h}
        end
        if #cands >= 2 * n then trim() end
      end
    end
  end
  trim()
  return cands
end
local cands, why = gather(TIER[tier])
if not cands then flush(); return reply(why, {}) end
local took = {}
for _, c in ipairs(cands) do
  c.v = redis.call('HGET', bkey(c.id), c.id)
  c.r = c.v and cmsgpack.unpack(c.v)
  took[c.host] = (took[c.host] or 0) + 1
end
local out = {}
local ids, byhost, rids = {}, {}, {}
for _, c in ipairs(cands) do
  ids[#ids + 1] = c.id
  local h = c.host
  byhost[h] = byhost[h] or {}
  table.insert(byhost[h], c.id)
end
-- The hosts' sites and running leases, read in one call each.
local hosts = {}
for h in pairs(took) do hosts[#hosts + 1] = h end
local sites, active = {}, {}
for i = 1, #hosts, 1000 do
  local part = {unpack(hosts, i, math.min(i + 999, #hosts))}
  local sv = redis.call('HMGET', P .. KEY.HOST_SITE, unpack(part))
  local av = redis.call('HMGET', P .. 'h:active', unpack(part))
  for j, h in ipairs(part) do
    sites[h] = sv[j] or ''
    active[#active + 1] = h
    active[#active + 1] = string.format('%d', (tonumber(av[j]) or 0) + took[h])
  end
end
-- A host's next head is the first entry gather read and did not take,
-- if it read one; none when it read the whole queue.
for h, hids in pairs(byhost) do
  bulk('ZREM', P .. TIER[tier].queue .. h, hids, 1000)
  local q, k = read[h], #hids
  if q[2 * k + 1] then
    touched[tier][h] = q[2 * k + 2]
  elseif ended[h] then
    touched[tier][h] = ''
  else
    touched[tier][h] = true
  end
end
for _, c in ipairs(cands) do
  local id, r = c.id, c.r
  movestate(r, ST_LEASED, r[DEPTH])
  r[STATE], r[LEASED], r[UNTIL], r[OWNER] = ST_LEASED, now, untilMs, owner
  putrec(id, r)
  if r[RES] == 1 then rids[#rids + 1] = ARGV[ARG.UNTIL]; rids[#rids + 1] = id end
  local parent = ''
  if r[PARENT] ~= '' then
    local pr = getrec(r[PARENT])
    if pr then parent = pr[URL] end
  end
  out[#out + 1] = {[L_REC] = c.v, [L_PARENT] = parent, [L_SITE] = sites[c.host]}
end
if #ids > 0 then
  local z = {}
  -- ARGV[ARG.UNTIL] is the lease end as Go wrote it: the server need not
  -- write the number again for each id.
  for _, id in ipairs(ids) do z[#z + 1] = ARGV[ARG.UNTIL]; z[#z + 1] = id end
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
return reply(LEASE.OK, out)
`)

// redisHostLoad is what redisLeaseFacts read of one host; the lease
// script compares the same fields, by name, with what it reads then.
type redisHostLoad struct {
	Host     string `json:"host,omitempty"`
	Mine     int    `json:"mine"`
	Workers  int    `json:"workers"`
	Last     string `json:"last"` // "OWNER MS", "" when none
	Answered bool   `json:"answered"`
	Running  int    `json:"running"`
}

// HostLoad gives the facts as the lease plan reads them.
func (f redisHostLoad) HostLoad() HostLoad {
	h := HostLoad{Running: f.Running, Mine: f.Mine, Workers: f.Workers, Answered: f.Answered}
	if owner, at, ok := strings.Cut(f.Last, " "); ok {
		h.LastOwner, _ = strconv.ParseInt(owner, 10, 64)
		h.LastLease, _ = strconv.ParseInt(at, 10, 64)
	}
	return h
}

// redisLeaseFactsAnswer is redisLeaseFacts' answer.
type redisLeaseFactsAnswer struct {
	Tier   int             `json:"tier"`
	Hosts  []redisHostLoad `json:"hosts"`
	Probes []redisDueProbe `json:"probes"`
}

// redisDueProbe is a parked host whose probe is due, and its wait.
type redisDueProbe struct {
	Host string `json:"host"`
	Wait int64  `json:"wait"`
}

// redisProbe is the next probe time of a parked host as the host policy
// computes it (ProbeSent), planned on its wait.
type redisProbe struct {
	Wait  int64 `json:"wait"`
	Retry int64 `json:"retry"`
}

// redisProbes gives the next probe time of each host of waits, parked
// with that wait, should a probe sent now never come back.
func redisProbes(waits map[string]int64, now int64) map[string]redisProbe {
	out := make(map[string]redisProbe, len(waits))
	for h, w := range waits {
		out[h] = redisProbe{Wait: w, Retry: ProbeSent(HostStatus{Mode: HostParked, Wait: w}, now).RetryAt}
	}
	return out
}

// redisPlannedHost is a host's room and the facts it was computed from.
type redisPlannedHost struct {
	Room int `json:"room"`
	redisHostLoad
}

// redisLeasePlan is what the lease script takes: with Facts, each host's
// room in Hosts, planned on its facts and on the tier Tier; without, one
// Room for every host. Probes holds the next probe times of the parked
// hosts whose probe is due, as far as Lease knows them.
type redisLeasePlan struct {
	Need    HostFacts                    `json:"need"`
	Probes  map[string]redisProbe        `json:"probes"`
	Reserve bool                         `json:"reserve"`
	Facts   bool                         `json:"facts"`
	Tier    int                          `json:"tier"`
	Room    int                          `json:"room"`
	Hosts   map[string]*redisPlannedHost `json:"hosts"`
}

// needsFacts tells whether a host's room depends on what other workers
// hold: without such a bound every host has the same room.
func (r LeaseRequest) needsFacts() bool { return r.Reads() != HostFacts{} }

// loadLeaseFacts reads the facts of the first walk hosts of the queue a
// lease of r takes from, after the URLs due are queued again.
func (s *RedisStore) loadLeaseFacts(ctx context.Context, r LeaseRequest, now int64, walk int, probes map[string]redisProbe) (*redisLeaseFactsAnswer, error) {
	reserve := 0
	if r.Reserve {
		reserve = 1
	}
	arg, err := json.Marshal(probes)
	if err != nil {
		return nil, err
	}
	need, err := json.Marshal(r.Reads())
	if err != nil {
		return nil, err
	}
	args := redisLeaseFacts.args()
	args.set(leaseFactsArgNow, now)
	args.set(leaseFactsArgOwner, strconv.FormatInt(r.Owner, 10))
	args.set(leaseFactsArgWalk, walk)
	args.set(leaseFactsArgReserve, reserve)
	args.set(leaseFactsArgProbes, arg)
	args.set(leaseFactsArgNeed, need)
	var a redisLeaseFactsAnswer
	if err := s.runJSON(ctx, redisLeaseFacts, &a, args); err != nil {
		return nil, fmt.Errorf("lease facts: %w", err)
	}
	return &a, nil
}

// redisPlan computes the rooms of a lease of r from facts (nil: r needs
// none), with the probes planned.
func (r LeaseRequest) redisPlan(facts *redisLeaseFactsAnswer, now int64, probes map[string]redisProbe) redisLeasePlan {
	p := redisLeasePlan{Need: r.Reads(), Probes: probes, Reserve: r.Reserve, Room: min(r.Room(HostLoad{}, now), r.N)}
	if facts == nil {
		return p
	}
	p.Facts, p.Tier, p.Hosts = true, facts.Tier, make(map[string]*redisPlannedHost, len(facts.Hosts))
	for _, f := range facts.Hosts {
		p.Hosts[f.Host] = &redisPlannedHost{Room: min(r.Room(f.HostLoad(), now), r.N), redisHostLoad: f}
		p.Hosts[f.Host].Host = ""
	}
	return p
}

// Lease hands out the best queued URLs: at most r.PerHost of a host in
// this call, at most r.HostLimit running leases of a host over every
// worker, and none of a host leased less than r.HostGap ago, so that
// politeness holds across machines.
func (s *RedisStore) Lease(ctx context.Context, r LeaseRequest) ([]record.URL, error) {
	if s.rdb == nil {
		return nil, ErrClosed
	}
	if none, err := r.check(); none || err != nil {
		return nil, err
	}
	scan := r.N
	if r.PerHost > 0 || r.HostLimit > 0 || r.OwnHostLimit > 0 {
		scan = r.N*scanFactor + scanExtra
	}
	// walk is how many hosts the plan reads: the lease seldom goes far
	// past the n-th, and reads further when it does.
	walk := min(scan, 2*r.N+32)
	// waits holds the parked hosts whose probe a script found due, by
	// their wait: their next probe time is ProbeSent's, from Go.
	waits := map[string]int64{}
	for tries := 0; ; tries++ {
		if tries > redisMovedTries {
			return nil, fmt.Errorf("frontier: lease: hosts kept changing under %d tries", redisMovedTries)
		}
		now := time.Now()
		probes := redisProbes(waits, now.UnixMilli())
		var facts *redisLeaseFactsAnswer
		if r.needsFacts() {
			var err error
			if facts, err = s.loadLeaseFacts(ctx, r, now.UnixMilli(), walk, probes); err != nil {
				return nil, fmt.Errorf("frontier: lease: %w", err)
			}
			if len(facts.Probes) > 0 {
				for _, p := range facts.Probes {
					waits[p.Host] = p.Wait
				}
				continue
			}
			if hook := s.afterLeaseFacts; hook != nil {
				s.afterLeaseFacts = nil
				hook()
			}
		}
		plan, err := json.Marshal(r.redisPlan(facts, now.UnixMilli(), probes))
		if err != nil {
			return nil, fmt.Errorf("frontier: lease: %w", err)
		}
		args := redisLease.args()
		args.set(leaseArgNow, now.UnixMilli())
		args.set(leaseArgN, r.N)
		args.set(leaseArgUntil, now.Add(r.For).UnixMilli())
		args.set(leaseArgOwner, strconv.FormatInt(r.Owner, 10))
		args.set(leaseArgScan, scan)
		args.set(leaseArgGap, r.HostGap.Milliseconds())
		args.set(leaseArgPlan, plan)
		v, err := s.run(ctx, redisLease, args)
		if err != nil {
			return nil, fmt.Errorf("frontier: lease: %w", errNil(err))
		}
		answer, ok := v.([]any)
		if !ok || len(answer) != replyWidth {
			return nil, fmt.Errorf("frontier: lease: unexpected answer %v", v)
		}
		tag, err := answerText("tag", scriptRow(answer).get(replyHead))
		if err != nil {
			return nil, fmt.Errorf("frontier: lease: %w", err)
		}
		body := scriptRow(answer).get(replyRows)
		switch tag {
		case leaseTookTag:
			return redisLeased(body)
		case leaseUnplannedTag:
			walk = min(scan, 4*walk)
		case leaseMovedTag:
		case leaseProbesTag:
			var due []redisDueProbe
			text, err := answerText("due probes", body)
			if err != nil {
				return nil, fmt.Errorf("frontier: lease: %w", err)
			}
			if json.Unmarshal([]byte(text), &due) != nil {
				return nil, fmt.Errorf("frontier: lease: unexpected answer %v", v)
			}
			for _, p := range due {
				waits[p.Host] = p.Wait
			}
		default:
			return nil, fmt.Errorf("frontier: lease: unexpected answer %v", v)
		}
	}
}

// redisLeased reads the lease script's rows.
func redisLeased(v any) ([]record.URL, error) {
	rows, err := rowsOf(v, leaseAnswer)
	if err != nil {
		return nil, fmt.Errorf("frontier: lease: %w", err)
	}
	out := make([]record.URL, 0, len(rows))
	for _, f := range rows {
		packed, parent, site := f.str(lrowRecord), f.str(lrowParent), f.str(lrowSite)
		if f.err != nil {
			return nil, fmt.Errorf("frontier: lease: a leased URL: %w", f.err)
		}
		rec, err := readRecord([]byte(packed))
		if err != nil {
			return nil, fmt.Errorf("frontier: lease: a leased URL's record: %w", err)
		}
		u := record.URL{URL: rec.text(recURL)}
		u.Depth = int(rec.number(recDepth))
		u.Priority = rec.number(recPrio)
		u.Parent, u.Anchor = parent, rec.text(recAnchor)
		u.Inherited = rec.number(recInh)
		if m := rec.text(recMeta); m != "" {
			u.Meta = json.RawMessage(m)
		}
		if rec.err != nil {
			return nil, fmt.Errorf("frontier: lease: the record of %q: %w", u.URL, rec.err)
		}
		u.Site = site
		out = append(out, u)
	}
	return out, nil
}
