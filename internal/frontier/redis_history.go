package frontier

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// The arguments of a script that reads a page of the log of fetched URLs
// (walkLog): where it starts, and how many entries.
const (
	logArgStart = iota + 1
	logArgCount
)

var logPageArgs = argSlots(luaName{"START", logArgStart}, luaName{"COUNT", logArgCount})

// redisHistory reads one page of the log of fetched URLs (logPageArgs).
// It answers a reply: how many entries it read, and a row (hist…)
// for each URL whose place in the log they were; a redirect target is in
// the set {NAME}:redir.
var redisHistory = newRedisScript("history", logPageArgs, luaPrelude+luaHistoryRow+`
local start = tonumber(ARGV[ARG.START])
local ids = redis.call('LRANGE', P .. 'log', start, start + tonumber(ARGV[ARG.COUNT]) - 1)
local out = {}
for i, id in ipairs(ids) do
  local r = getrec(id)
  -- A URL requeued and fetched again is in the log twice: its record
  -- names the later place.
  if r and (r[STATE] == ST_DONE or r[STATE] == ST_FAILED) and (not r[LOGPOS] or r[LOGPOS] == start + i - 1) then
    out[#out + 1] = {[HI_URL] = r[URL], [HI_HOST] = rhost(r), [HI_DEPTH] = r[DEPTH], [HI_STATUS] = r[STATUS] or 0,
      [HI_FETCHED] = r[FETCHED] or 0, [HI_SCORE] = fmt(r[SCORE]), [HI_REL] = r[REL] or -1, [HI_ERR] = r[ERR] or '',
      [HI_REDIRECT] = redis.call('SISMEMBER', P .. 'redir', id)}
  end
end
return reply(#ids, out)
`)

// History calls fn for every URL fetched (done or failed) in the order
// the store recorded them done, from its log of fetched URLs: the order
// they came back from the fetchers, which is fetch order but for the
// pages in flight at once. An error from fn stops the walk.
func (s *RedisStore) History(ctx context.Context, fn func(Fetched) error) error {
	return s.walkLog(ctx, redisHistory, historyAnswer, func(row *answerRow) error {
		rel := row.num(histRel)
		f := Fetched{URL: row.str(histURL), Host: row.str(histHost), Depth: int(row.num(histDepth)), Status: int(row.num(histStatus)),
			FetchedAt: time.UnixMilli(row.num(histFetched)), Scored: rel != -1, Relevant: rel == 1, Error: row.str(histErr),
			Redirect: row.num(histRedirect) == 1}
		if f.Scored {
			f.Score = row.flt(histScore)
		}
		if row.err != nil {
			return fmt.Errorf("frontier: the log of fetched URLs: %w", row.err)
		}
		return fn(f)
	})
}

// walkLog pages through the log of fetched URLs with a script that
// answers a reply (how many entries it read, and its rows of width
// layout), and calls fn for each row.
func (s *RedisStore) walkLog(ctx context.Context, sc *redisScript, layout rowLayout, fn func(row *answerRow) error) error {
	const page = 2000
	for start := 0; ; start += page {
		args := sc.args()
		args.set(logArgStart, start)
		args.set(logArgCount, page)
		v, err := s.run(ctx, sc, args)
		if err != nil {
			return fmt.Errorf("frontier: the log of fetched URLs: %w", err)
		}
		head, rows, err := replyOf(v, layout)
		var read int64
		if err == nil {
			read, err = answerInt("entries read", head)
		}
		if err != nil {
			return fmt.Errorf("frontier: the log of fetched URLs: %w", err)
		}
		for i := range rows {
			if err := fn(&rows[i]); err != nil {
				return err
			}
		}
		if read < page {
			return nil
		}
	}
}

// Info returns what the crawl's commands recorded about it (the hash
// {NAME}:info), with the key layout version as schema_version.
func (s *RedisStore) Info(ctx context.Context) (map[string]string, error) {
	if s.rdb == nil {
		return nil, ErrClosed
	}
	info, err := s.rdb.HGetAll(ctx, s.key("info")).Result()
	if err != nil {
		return nil, fmt.Errorf("frontier: info: %w", err)
	}
	v, err := s.rdb.HGet(ctx, s.key(keyMeta), metaSchema).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("frontier: info: %w", err)
	}
	info["schema_version"] = v
	return info, nil
}

// SetInfo records facts about the crawl (key → value) in the hash
// {NAME}:info, in one command.
func (s *RedisStore) SetInfo(ctx context.Context, kv map[string]string) error {
	if s.rdb == nil {
		return ErrClosed
	}
	args := make([]any, 0, 2*len(kv))
	for k, v := range kv {
		if k == "schema_version" {
			return fmt.Errorf("frontier: set info: %q is the store's own key", k)
		}
		args = append(args, k, v)
	}
	if len(args) == 0 {
		return nil
	}
	if err := s.rdb.HSet(ctx, s.key("info"), args...).Err(); err != nil {
		return fmt.Errorf("frontier: set info: %w", err)
	}
	return nil
}
