package frontier

import (
	"context"
	"fmt"
	"sort"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// redisReplay reads one page of the log of fetched URLs for Replay
// (logPageArgs). It answers a reply: how many entries it read, and a row
// (repl…) for each page judged (scored, or failed) whose place in the log
// they were.
var redisReplay = newRedisScript("replay", logPageArgs, luaPrelude+luaReplayRow+`
local start = tonumber(ARGV[ARG.START])
local ids = redis.call('LRANGE', P .. 'log', start, start + tonumber(ARGV[ARG.COUNT]) - 1)
local out = {}
for i, id in ipairs(ids) do
  local r = getrec(id)
  if r and (not r[LOGPOS] or r[LOGPOS] == start + i - 1) and
      ((r[STATE] == ST_DONE and r[REL] and r[REL] ~= -1) or r[STATE] == ST_FAILED) then
    local parent, pscore, context = '', 0, ''
    if r[PARENT] and r[PARENT] ~= '' then
      local pr = getrec(r[PARENT])
      if pr then
        parent = pr[URL]
        if pr[REL] and pr[REL] ~= -1 then pscore = pr[SCORE] end
        local e = redis.call('HGET', P .. KEY.EDGES, r[PARENT] .. id)
        if e then context = cmsgpack.unpack(e)[EG_CONTEXT] or '' end
      end
    end
    local score, failed = 0, 0
    if r[REL] and r[REL] ~= -1 then score = r[SCORE] end
    if r[STATE] == ST_FAILED then failed = 1 end
    out[#out + 1] = {[RP_URL] = r[URL], [RP_PARENT] = parent, [RP_ANCHOR] = r[ANCHOR] or '', [RP_CONTEXT] = context,
      [RP_PSCORE] = fmt(pscore), [RP_SCORE] = fmt(score), [RP_FAILED] = failed, [RP_FETCHED] = r[FETCHED] or 0}
  end
end
return reply(#ids, out)
`)

// Replay calls fn for every page crawled and judged (scored, or failed),
// in the order they were fetched (as the SQLite store: by fetch time, then
// as recorded), with the link that led to it: its parent, anchor and
// context, and the parent's score. score's learned strategy trains on
// them when a crawl resumes.
func (s *RedisStore) Replay(ctx context.Context, fn func(record.Replay) error) error {
	type judged struct {
		r  record.Replay
		at int64
	}
	var all []judged
	err := s.walkLog(ctx, redisReplay, replayAnswer, func(row *answerRow) error {
		r := record.Replay{URL: row.str(replURL), Parent: row.str(replParent), Anchor: row.str(replAnchor),
			Context: row.str(replContext), ParentScore: row.flt(replParentScore), Score: row.flt(replScore),
			Failed: row.num(replFailed) == 1}
		at := row.num(replFetched)
		if row.err != nil {
			return fmt.Errorf("frontier: replay: %w", row.err)
		}
		all = append(all, judged{r, at})
		return nil
	})
	if err != nil {
		return err
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].at < all[j].at })
	for _, j := range all {
		if err := fn(j.r); err != nil {
			return err
		}
	}
	return nil
}
