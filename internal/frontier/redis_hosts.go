package frontier

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/robotsrules"
	"github.com/redis/go-redis/v9"
)

var _ HostAdmin = (*RedisStore)(nil)

// robotsRules gives the robots.txt rules learned so far and their version,
// read once per version (need false: none needed, version -1).
func (s *RedisStore) robotsRules(ctx context.Context, need bool) (map[string]*robotsrules.Rules, int64, error) {
	if !need {
		return nil, -1, nil
	}
	s.robotsMu.Lock()
	defer s.robotsMu.Unlock()
	if s.robotsVersion >= 0 {
		return s.robots, s.robotsVersion, nil
	}
	pipe := s.rdb.TxPipeline()
	version := pipe.HGet(ctx, s.key(keyMeta), metaRobotsVersion)
	all := pipe.HGetAll(ctx, s.key(keyRobots))
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, 0, fmt.Errorf("robots.txt rules: %w", err)
	}
	v, _ := strconv.ParseInt(version.Val(), 10, 64)
	rules := map[string]*robotsrules.Rules{}
	for host, text := range all.Val() {
		agent, body, _ := strings.Cut(text, "\n")
		// Rules that no longer parse are no rules: fetch still obeys them.
		if r, err := robotsrules.New(agent, body); err == nil {
			rules[host] = r
		}
	}
	s.robots, s.robotsVersion = rules, v
	return rules, v, nil
}

// forgetRobots makes the next Apply read the rules again.
func (s *RedisStore) forgetRobots() {
	s.robotsMu.Lock()
	s.robotsVersion = -1
	s.robotsMu.Unlock()
}

// refuseByRobots fails the held URLs of host that its newly learned
// robots.txt rules forbid, and tells how many.
func (s *RedisStore) refuseByRobots(ctx context.Context, host string) (int64, error) {
	s.forgetRobots()
	rules, _, err := s.robotsRules(ctx, true)
	if err != nil {
		return 0, fmt.Errorf("frontier: apply: %w", err)
	}
	r := rules[host]
	if r == nil {
		return 0, nil
	}
	args := redisHostHeld.args()
	args.set(heldArgHost, host)
	v, err := s.run(ctx, redisHostHeld, args)
	if err != nil {
		return 0, fmt.Errorf("frontier: robots rules of %s: %w", host, err)
	}
	rows, err := rowsOf(v, heldAnswer)
	if err != nil {
		return 0, fmt.Errorf("frontier: robots rules of %s: %w", host, err)
	}
	refuse, id := redisRefuseRobots.args(), redisRefuseRobots.row()
	for _, row := range rows {
		u, held := row.str(heldURL), row.str(heldID)
		if row.err != nil {
			return 0, fmt.Errorf("frontier: robots rules of %s: %w", host, row.err)
		}
		if !r.Allows(RobotsPath(u)) {
			id.set(refuseArgID, held)
			refuse = append(refuse, id...)
		}
	}
	if len(refuse) == 0 {
		return 0, nil
	}
	v, err = s.run(ctx, redisRefuseRobots, refuse)
	if err != nil {
		return 0, fmt.Errorf("frontier: robots rules of %s: %w", host, err)
	}
	n, err := answerInt("URLs refused", v)
	if err != nil {
		return 0, fmt.Errorf("frontier: robots rules of %s: %w", host, err)
	}
	return n, nil
}

// parkedHosts lists the parked and given-up hosts, parked first, then by
// the URLs they hold.
func (s *RedisStore) parkedHosts(ctx context.Context) ([]ParkedHost, error) {
	v, err := s.run(ctx, redisHostList, redisHostList.args())
	if err != nil {
		return nil, fmt.Errorf("frontier: stats: parked hosts: %w", err)
	}
	rows, err := rowsOf(v, hostListAnswer)
	if err != nil {
		return nil, fmt.Errorf("frontier: stats: parked hosts: %w", err)
	}
	out := []ParkedHost{}
	for _, row := range rows {
		p := ParkedHost{Host: row.str(hlistHost), Reason: row.str(hlistReason), Tries: int(row.num(hlistTries)), URLs: row.num(hlistURLs)}
		p.GivenUp = HostMode(row.num(hlistMode)) == HostGivenUp
		if since := row.num(hlistSince); since > 0 {
			p.Since = time.UnixMilli(since).UTC()
		}
		if retry := row.num(hlistRetry); !p.GivenUp && retry > 0 {
			p.NextRetry = time.UnixMilli(retry).UTC()
		}
		if row.err != nil {
			return nil, fmt.Errorf("frontier: stats: parked hosts: %w", row.err)
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.GivenUp != b.GivenUp {
			return !a.GivenUp
		}
		if a.URLs != b.URLs {
			return a.URLs > b.URLs
		}
		return a.Host < b.Host
	})
	return out, nil
}

// Peek lists the next n URLs in lease order (the reserve last; priority,
// depth, age) without leasing them: the queued ones, expired leases and
// retries that are due included; per-host bounds left aside.
func (s *RedisStore) Peek(ctx context.Context, n int) ([]QueuedURL, error) {
	if n <= 0 {
		return nil, nil
	}
	args := redisPeek.args()
	args.set(peekArgN, n)
	args.set(peekArgNow, time.Now().UnixMilli())
	v, err := s.run(ctx, redisPeek, args)
	if err != nil {
		return nil, fmt.Errorf("frontier: peek: %w", err)
	}
	rows, err := rowsOf(v, peekAnswer)
	if err != nil {
		return nil, fmt.Errorf("frontier: peek: %w", err)
	}
	var out []QueuedURL
	for _, row := range rows {
		q := QueuedURL{URL: row.str(peekURL), Host: row.str(peekHost), Priority: row.flt(peekPrio),
			Depth: int(row.num(peekDepth)), Tries: int(row.num(peekTries)), Parked: row.num(peekParked) == 1,
			Reserve: row.num(peekReserve) == 1}
		if row.err != nil {
			return nil, fmt.Errorf("frontier: peek: %w", row.err)
		}
		out = append(out, q)
	}
	return out, nil
}

// Requeue puts back in the queue the failed URLs that match f, and
// releases the parked or given-up hosts that match it, as the SQLite
// store does. Hosts go first, each in one script; the failed URLs are
// read a page at a time and requeued a page per script, each checked
// failed still.
func (s *RedisStore) Requeue(ctx context.Context, f RequeueFilter) (Requeued, error) {
	var res Requeued
	hosts, err := s.parkedHosts(ctx)
	if err != nil {
		return res, fmt.Errorf("frontier: requeue: %w", err)
	}
	release, host := redisReleaseHosts.args(), redisReleaseHosts.row()
	for _, h := range hosts {
		if (f.Host == "" || h.Host == f.Host) && (f.Kind == "" || MatchKind(h.Reason, f.Kind)) {
			host.set(releaseArgHost, h.Host)
			release = append(release, host...)
		}
	}
	if len(release) > 0 {
		var n struct {
			Hosts int `json:"hosts"`
			Held  int `json:"held"`
		}
		if err := s.runJSON(ctx, redisReleaseHosts, &n, release); err != nil {
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
		res.Hosts, res.Held = n.Hosts, n.Held
	}
	// Collect first: requeueing while scanning the set would change it.
	ids, id := redisRequeueURLs.args(), redisRequeueURLs.row()
	cursor := "0"
	for {
		next, rows, err := s.failedPage(ctx, cursor)
		if err != nil {
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
		cursor = next
		for _, row := range rows {
			host, msg, failed := row.str(failHost), row.str(failErr), row.str(failID)
			if row.err != nil {
				return res, fmt.Errorf("frontier: requeue: %w", row.err)
			}
			if (f.Host == "" || host == f.Host) && (f.Kind == "" || MatchKind(msg, f.Kind)) {
				id.set(requeueArgID, failed)
				id.set(requeueArgCounter, requeuedErrorCounter(host, msg))
				ids = append(ids, id...)
			}
		}
		if cursor == "0" {
			break
		}
	}
	for len(ids) > 0 {
		k := min(len(ids), redisChunk*len(id)) // rows of requeueArg…
		v, err := s.run(ctx, redisRequeueURLs, ids[:k])
		if err != nil {
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
		n, err := answerInt("URLs requeued", v)
		if err != nil {
			return res, fmt.Errorf("frontier: requeue: %w", err)
		}
		res.URLs += int(n)
		ids = ids[k:]
	}
	return res, nil
}

// ParkedSummary counts the parked hosts, the URLs they hold and the time
// of the next probe (zero when none is parked).
func (s *RedisStore) ParkedSummary(ctx context.Context) (hosts, urls int64, next time.Time, err error) {
	if s.rdb == nil {
		return 0, 0, next, ErrClosed
	}
	pipe := s.rdb.Pipeline()
	n := pipe.ZCard(ctx, s.key("pkh"))
	first := pipe.ZRangeWithScores(ctx, s.key("pkh"), 0, 0)
	counts := pipe.HGetAll(ctx, s.key(keyStats))
	if _, err := pipe.Exec(ctx); err != nil {
		return 0, 0, next, fmt.Errorf("frontier: parked hosts: %w", err)
	}
	for k, v := range counts.Val() {
		if strings.HasPrefix(k, stateCountPrefix(Parked)) {
			c, _ := strconv.ParseInt(v, 10, 64)
			urls += c
		}
	}
	if z := first.Val(); len(z) > 0 {
		next = time.UnixMilli(int64(z[0].Score))
	}
	return n.Val(), urls, next, nil
}

// failedPage reads a page of the failed URLs from cursor: the next
// cursor ("0" at the end) and a row (fail…) for each.
func (s *RedisStore) failedPage(ctx context.Context, cursor string) (string, []answerRow, error) {
	args := redisFailedPage.args()
	args.set(scanArgCursor, cursor)
	args.set(scanArgCount, 1000)
	v, err := s.run(ctx, redisFailedPage, args)
	if err != nil {
		return "", nil, err
	}
	head, rows, err := replyOf(v, failedAnswer)
	if err != nil {
		return "", nil, err
	}
	next, err := answerText("cursor", head)
	return next, rows, err
}

// The argument of redisHostHeld.
const heldArgHost = 1

// redisHostHeld lists the URLs a host holds (queued, parked, waiting).
// It returns a row (held…) for each.
var redisHostHeld = newRedisScript("host held", argSlots(luaName{"HOST", heldArgHost}), luaPrelude+luaHeldRow+`
local out = {}
for _, key in ipairs({'q:', 'r:', 'pk:', 'w:'}) do
  for _, id in ipairs(redis.call('ZRANGE', P .. key .. ARGV[ARG.HOST], 0, -1)) do
    local r = getrec(id)
    if r then out[#out + 1] = {[HD_ID] = id, [HD_URL] = r[URL]} end
  end
end
return out
`)

// The arguments of redisRefuseRobots: rows of an id.
const refuseArgID = 1

// redisRefuseRobots fails the URLs of ids still held (robots.txt forbids
// them). It returns how many.
var redisRefuseRobots = newRedisScript("refuse robots", argRows(luaName{"ID", refuseArgID}), luaPrelude+
	luaTags("KIND", []luaTag{{"ROBOTS_DISALLOW", KindRobotsDisallow}})+`
local n = 0
for i = 0, #ARGV - 1, ARG.W do
  local id = ARGV[i + ARG.ID]
  local r = getrec(id)
  if r and (r[STATE] == ST_QUEUED or r[STATE] == ST_PARKED or r[STATE] == ST_WAITING or r[STATE] == ST_RESERVE) then
    failnow(id, r, KIND.ROBOTS_DISALLOW)
    n = n + 1
  end
end
if n > 0 then add(KEY.COUNTERS, COUNT.REFUSED_ROBOTS, n) end
flush()
return n
`)

// redisHostList lists the parked and given-up hosts: a row (hlist…) for
// each.
var redisHostList = newRedisScript("host list", argSlots(), luaPrelude+luaHostListRow+`
local out = {}
local all = redis.call('HGETALL', P .. 'hs')
for i = 1, #all, 2 do
  local h, st = all[i], cmsgpack.unpack(all[i + 1])
  if st[PK] == HOST_PARKED or st[PK] == HOST_GIVEN_UP then
    local n = st[HELD]
    if st[PK] == HOST_PARKED then n = redis.call('ZCARD', P .. 'pk:' .. h) end
    out[#out + 1] = {[HL_HOST] = h, [HL_MODE] = st[PK], [HL_REASON] = st[REASON], [HL_SINCE] = st[SINCE],
      [HL_RETRY] = st[RETRY], [HL_TRIES] = st[HTRIES], [HL_URLS] = n}
  end
end
return out
`)

// The arguments of redisReleaseHosts: rows of a host.
const releaseArgHost = 1

// redisReleaseHosts lets parked or given-up hosts up again and queues
// their held URLs. It answers {hosts, held} as JSON: how
// many hosts it let up, and the URLs it queued.
var redisReleaseHosts = newRedisScript("release hosts", argRows(luaName{"HOST", releaseArgHost}), luaPrelude+`
local hosts, held = 0, 0
for i = 0, #ARGV - 1, ARG.W do
  local h = ARGV[i + ARG.HOST]
  local st = hsget(h)
  if st and (st[PK] == HOST_PARKED or st[PK] == HOST_GIVEN_UP) then
    hsdrop(h)
    redis.call('ZREM', P .. 'pkh', h)
    for _, id in ipairs(redis.call('ZRANGE', P .. 'pk:' .. h, 0, -1)) do
      local r = getrec(id)
      if r then
        move(id, r, ST_QUEUED, 0)
        r[TRIES] = 0
        trim(r)
        putrec(id, r)
        held = held + 1
      end
    end
    redis.call('DEL', P .. 'pk:' .. h)
    hosts = hosts + 1
  end
end
flush()
return cjson.encode({hosts = hosts, held = held})
`)

// redisFailedPage reads one page of the failed URLs (scanPageArgs).
// It answers a reply: the next cursor, and a row (fail…) for each.
var redisFailedPage = newRedisScript("failed page", scanPageArgs, luaPrelude+luaFailedRow+`
local cursor, ids = unpack(redis.call('SSCAN', P .. 'fail', ARGV[ARG.CURSOR], 'COUNT', ARGV[ARG.COUNT]))
local out = {}
for _, id in ipairs(ids) do
  local r = getrec(id)
  if r and r[STATE] == ST_FAILED then
    out[#out + 1] = {[F_ID] = id, [F_URL] = r[URL], [F_HOST] = rhost(r), [F_ERR] = r[ERR] or ''}
  end
end
return reply(cursor, out)
`)

// The arguments of redisRequeueURLs: rows of an id and a counter.
const (
	requeueArgID      = iota + 1
	requeueArgCounter // requeuedErrorCounter
)

// redisRequeueURLs queues again the failed URLs of ids, as new: no error,
// no tries, out of the fetched figures, and counts each in the counter
// given with it (requeuedErrorCounter: the error history it takes off).
// It returns how many.
var redisRequeueURLs = newRedisScript("requeue URLs", argRows(luaName{"ID", requeueArgID}, luaName{"COUNTER", requeueArgCounter}),
	luaPrelude+`
local n = 0
for i = 0, #ARGV - 1, ARG.W do
  local id = ARGV[i + ARG.ID]
  local r = getrec(id)
  if r and r[STATE] == ST_FAILED then
    local h = rhost(r)
    if (r[FETCHED] or 0) ~= 0 then
      add(KEY.HOST_FETCHED, h, -1)
      if r[RES] == 1 then add(KEY.STATS, ST.FROM_RESERVE, -1) end
      if r[REL] == 1 then
        add(KEY.HOST_RELEVANT, h, -1)
        add(KEY.STATS, ST.RELEVANT .. r[DEPTH], -1)
      end
    else
      add(KEY.STATS, ST.UNFETCHED .. r[DEPTH], -1)
    end
    local state = ST_QUEUED
    if hostparked(h) then state = ST_PARKED end
    move(id, r, state, 0)
    r[TRIES], r[ERR] = 0, ''
    trim(r)
    putrec(id, r)
    redis.call('HINCRBY', P .. KEY.COUNTERS, ARGV[i + ARG.COUNTER], 1)
    redis.call('SREM', P .. 'redir', id) -- fetched again, it is a page of its own
    n = n + 1
  end
end
flush()
return n
`)

// The arguments of redisPeek.
const (
	peekArgN   = iota + 1 // how many URLs
	peekArgNow            // ms
)

// redisPeek lists the next URLs in lease order (peekArg…). It returns
// a row (peek…) for each.
var redisPeek = newRedisScript("peek", argSlots(luaName{"N", peekArgN}, luaName{"NOW", peekArgNow}), luaPrelude+luaPeekRow+`
local n, now = tonumber(ARGV[ARG.N]), tonumber(ARGV[ARG.NOW])
local cands = {}
local function cand(id, score)
  local r = getrec(id)
  if r then cands[#cands + 1] = {res = r[RES] or 0, score = score or qscore(r[PRIO], r[DEPTH], r[SEQ]), id = id, r = r} end
end
-- The n best URLs of a tier are among the n best of its n best hosts.
for _, t in ipairs({TIER[ST_QUEUED], TIER[ST_RESERVE]}) do
  for _, h in ipairs(redis.call('ZRANGE', P .. t.hosts, 0, n - 1)) do
    local q = redis.call('ZRANGE', P .. t.queue .. h, 0, n - 1, 'WITHSCORES')
    for j = 1, #q, 2 do cand(q[j], tonumber(q[j + 1])) end
  end
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. 'leased', '-inf', now, 'LIMIT', 0, n)) do cand(id) end
for _, h in ipairs(redis.call('ZRANGEBYSCORE', P .. 'wh', '-inf', now, 'LIMIT', 0, n)) do
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. 'w:' .. h, '-inf', now, 'LIMIT', 0, n)) do cand(id) end
end
table.sort(cands, function(a, b)
  if a.res ~= b.res then return a.res < b.res end
  if a.score ~= b.score then return a.score < b.score end
  return a.id < b.id
end)
local out = {}
for i = 1, math.min(n, #cands) do
  local c = cands[i]
  local r = c.r
  local h = rhost(r)
  local isparked = 0
  if hostparked(h) then isparked = 1 end
  out[#out + 1] = {[PE_URL] = r[URL], [PE_HOST] = h, [PE_PRIO] = fmt(r[PRIO]), [PE_DEPTH] = r[DEPTH],
    [PE_TRIES] = r[TRIES] or 0, [PE_PARKED] = isparked, [PE_RES] = c.res}
end
return out
`)

// The argument of redisCounts.
const countsArgNow = 1 // ms

// redisCounts tells whether anything is queued (outside the reserve),
// waiting or due as a probe, whether a lease runs, the requeued counter,
// and whether the reserve holds a URL: {queued, leased, requeued,
// reserve} as JSON.
var redisCounts = newRedisScript("counts", argSlots(luaName{"NOW", countsArgNow}), luaPrelude+`
local now = tonumber(ARGV[ARG.NOW])
local queued = redis.call('ZCARD', P .. 'hq') > 0 or redis.call('ZCARD', P .. 'wh') > 0
  or redis.call('ZCOUNT', P .. 'leased', '-inf', now) > 0
if not queued then
  for _, h in ipairs(redis.call('ZRANGEBYSCORE', P .. 'pkh', '-inf', now, 'LIMIT', 0, 100)) do
    if redis.call('ZCARD', P .. 'pk:' .. h) > 0 then queued = true; break end
  end
end
local leased = redis.call('ZCOUNT', P .. 'leased', '(' .. now, '+inf') > 0
return cjson.encode({queued = queued, leased = leased, reserve = redis.call('ZCARD', P .. 'rh') > 0,
  requeued = tonumber(redis.call('HGET', P .. KEY.COUNTERS, COUNT.REQUEUED) or 0)})
`)
