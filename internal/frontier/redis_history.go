package frontier

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisHistory reads one page of the log of fetched URLs. ARGV: start,
// count. For each id it returns url, host, depth, status, fetch time,
// score, relevance (-1: not scored), error and whether it is a redirect
// target (1/0; the set {NAME}:redir).
var redisHistory = redis.NewScript(luaPrelude + `
local ids = redis.call('LRANGE', P .. 'log', tonumber(ARGV[1]), tonumber(ARGV[1]) + tonumber(ARGV[2]) - 1)
local out = {}
local start = tonumber(ARGV[1])
for i, id in ipairs(ids) do
  local r = getrec(id)
  -- A URL requeued and fetched again is in the log twice: its record
  -- names the later place.
  if r and (r[STATE] == ST_DONE or r[STATE] == ST_FAILED) and (not r[LOGPOS] or r[LOGPOS] == start + i - 1) then
    out[#out + 1] = r[URL]
    out[#out + 1] = rhost(r)
    out[#out + 1] = r[DEPTH]
    out[#out + 1] = r[STATUS] or 0
    out[#out + 1] = r[FETCHED] or 0
    out[#out + 1] = fmt(r[SCORE])
    out[#out + 1] = r[REL] or -1
    out[#out + 1] = r[ERR] or ''
    out[#out + 1] = redis.call('SISMEMBER', P .. 'redir', id)
  end
end
return {#ids, out}
`)

// History calls fn for every URL fetched (done or failed) in the order
// the store recorded them done, from its log of fetched URLs: the order
// they came back from the fetchers, which is fetch order but for the
// pages in flight at once. An error from fn stops the walk.
func (s *RedisStore) History(ctx context.Context, fn func(Fetched) error) error {
	return s.walkLog(ctx, redisHistory, 9, func(row []any) error {
		rel := num(row[6])
		f := Fetched{URL: str(row[0]), Host: str(row[1]), Depth: int(num(row[2])), Status: int(num(row[3])),
			FetchedAt: time.UnixMilli(num(row[4])), Scored: rel != -1, Relevant: rel == 1, Error: str(row[7]), Redirect: num(row[8]) == 1}
		if f.Scored {
			f.Score = flt(row[5])
		}
		return fn(f)
	})
}

// walkLog pages through the log of fetched URLs with a script that
// answers {ids read, rows}, each row width values, and calls fn for each
// row.
func (s *RedisStore) walkLog(ctx context.Context, sc *redis.Script, width int, fn func(row []any) error) error {
	const page = 2000
	for start := 0; ; start += page {
		v, err := s.run(ctx, sc, start, page)
		if err != nil {
			return fmt.Errorf("frontier: the log of fetched URLs: %w", err)
		}
		res, _ := v.([]any)
		if len(res) != 2 {
			return fmt.Errorf("frontier: the log of fetched URLs: unexpected answer %v", v)
		}
		rows, _ := res[1].([]any)
		for i := 0; i+width <= len(rows); i += width {
			if err := fn(rows[i : i+width]); err != nil {
				return err
			}
		}
		if num(res[0]) < page {
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
	v, err := s.rdb.HGet(ctx, s.key("meta"), "schema").Result()
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
