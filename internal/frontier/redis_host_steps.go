package frontier

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// The Redis store applies the host policy (hostpolicy.go) as the SQLite
// store does: it reads what the policy needs (outcomeFacts), computes the
// steps in Go, and the apply script checks that what it read has not
// changed before it writes them (redisExpect); when another worker moved
// a host or URL in between, Apply reads again and recomputes.

// redisFacts reads the URLs and hosts of a chunk's outcomes. ARGV[1] is a
// JSON object {urls: [[url, hexid]], hosts: [host]}; it answers a JSON
// object {urls: [{state (-1: unknown), tries, host, id (hex)}], hosts:
// [{raw (hex of the stored record, ” when none), mode, reason, since,
// retry, wait, tries, timeouts, probe (hex)}]}.
var redisFacts = redis.NewScript(luaPrelude + `
local a = cjson.decode(ARGV[1])
local out = {urls = {}, hosts = {}}
for i, u in ipairs(a.urls) do
  local id, r = find(u[1], unhex(u[2]))
  local f = {state = -1, tries = 0, host = '', id = tohex(id)}
  if r then f.state, f.tries, f.host = r[STATE], r[TRIES] or 0, rhost(r) end
  out.urls[i] = f
end
for i, h in ipairs(a.hosts) do
  local v = redis.call('HGET', P .. 'hs', h)
  local f = {raw = '', mode = HOST_UP, reason = '', since = 0, retry = 0, wait = 0, tries = 0, timeouts = 0, probe = ''}
  if v then
    local st = cmsgpack.unpack(v)
    f.raw, f.mode, f.reason, f.since, f.retry, f.wait, f.tries, f.timeouts, f.probe =
      tohex(v), st[PK], st[REASON], st[SINCE], st[RETRY], st[WAIT], st[HTRIES], st[TIMEOUTS], tohex(st[PROBE])
  end
  out.hosts[i] = f
end
-- cjson writes an empty table as an object: leave an empty list out.
if #out.urls == 0 then out.urls = nil end
return cjson.encode(out)
`)

type redisURLFacts struct {
	State int    `json:"state"`
	Tries int    `json:"tries"`
	Host  string `json:"host"`
	ID    string `json:"id"`
}

type redisHostFacts struct {
	Raw      string `json:"raw"`
	Mode     int    `json:"mode"`
	Reason   string `json:"reason"`
	Since    int64  `json:"since"`
	Retry    int64  `json:"retry"`
	Wait     int64  `json:"wait"`
	Tries    int    `json:"tries"`
	Timeouts int    `json:"timeouts"`
	Probe    string `json:"probe"`
}

// redisStep is one outcome's step as the apply script reads it: an
// answer that clears its host first (Pre), then what the policy's Step
// says, with named fields.
type redisStep struct {
	Host string `json:"host"`
	// Pre: 1 clears the host's failure state (Answered), 2 also queues
	// its parked URLs again.
	Pre int `json:"pre"`
	// Change: "" (host kept), "save", "park" or "giveup"; HS the new
	// status: mode, reason, since, retry, wait, tries, timeouts.
	Change string `json:"change"`
	HS     []any  `json:"hs"`
	Clear  bool   `json:"clear"`
	GErr   string `json:"gerr"`
	// Act: "record", "putback" or "settled"; a put-back URL goes to
	// State (until At) with Add more tries and the error Err.
	Act   string `json:"act"`
	State int    `json:"state"`
	At    int64  `json:"at"`
	Add   int    `json:"add"`
	Err   string `json:"err"`
}

// redisExpect is what the apply script checks before it writes: each
// host's stored record (hex, ” for none), and each URL's state (-1:
// unknown) and tries, as the steps were computed from.
type redisExpect struct {
	Hosts map[string]string `json:"hosts"`
	URLs  [][]any           `json:"urls"`
}

// hostSteps computes the steps of a chunk's outcomes (rows[i] came from
// outs[i]; nil for a redirect target's row). Steps[i] is nil when the
// outcome only records.
func (s *RedisStore) hostSteps(ctx context.Context, outs []*Outcome, p RetryPolicy, now int64) ([]*redisStep, redisExpect, error) {
	exp := redisExpect{Hosts: map[string]string{}, URLs: [][]any{}}
	type req struct {
		URLs  [][]string `json:"urls"`
		Hosts []string   `json:"hosts"`
	}
	var q req
	q.URLs, q.Hosts = [][]string{}, []string{}
	hostIdx := map[string]int{}
	urlIdx := map[string]int{}
	for _, o := range outs {
		if o == nil {
			continue
		}
		h := outcomeHost(o)
		if _, ok := hostIdx[h]; !ok {
			hostIdx[h] = len(q.Hosts)
			q.Hosts = append(q.Hosts, h)
		}
		if _, ok := urlIdx[o.URL]; !ok && o.Error != "" {
			urlIdx[o.URL] = len(q.URLs)
			q.URLs = append(q.URLs, []string{o.URL, hexID(o.URL)})
		}
	}
	steps := make([]*redisStep, len(outs))
	if len(q.Hosts) == 0 {
		return steps, exp, nil
	}
	arg, err := json.Marshal(q)
	if err != nil {
		return nil, exp, err
	}
	v, err := s.run(ctx, redisFacts, arg)
	if err != nil {
		return nil, exp, err
	}
	var facts struct {
		URLs  []redisURLFacts  `json:"urls"`
		Hosts []redisHostFacts `json:"hosts"`
	}
	if err := json.Unmarshal([]byte(str(v)), &facts); err != nil {
		return nil, exp, fmt.Errorf("host facts: %w", err)
	}
	if len(facts.Hosts) != len(q.Hosts) || len(facts.URLs) != len(q.URLs) {
		return nil, exp, fmt.Errorf("host facts: %d hosts and %d URLs for %d and %d", len(facts.Hosts), len(facts.URLs), len(q.Hosts), len(q.URLs))
	}
	// The status of each host and each URL as the chunk goes: a step
	// sees what the steps before it did.
	hosts := map[string]*redisHostFacts{}
	for i, h := range q.Hosts {
		f := facts.Hosts[i]
		hosts[h] = &f
		exp.Hosts[h] = f.Raw
	}
	urls := map[string]*redisURLFacts{}
	for i, u := range q.URLs {
		f := facts.URLs[i]
		urls[u[0]] = &f
		exp.URLs = append(exp.URLs, []any{u[0], u[1], f.State, f.Tries})
	}
	for i, o := range outs {
		if o == nil {
			continue
		}
		down := outcomeHost(o)
		hf := hosts[down]
		status := HostStatus{Mode: HostMode(hf.Mode), Reason: hf.Reason, Since: hf.Since, RetryAt: hf.Retry,
			Wait: hf.Wait, Tries: hf.Tries, Timeouts: hf.Timeouts}
		st := &redisStep{Host: down, Act: "record"}
		if HostAnswered(o.Error) {
			if next, changed, unpark := Answered(status); changed {
				st.Pre = 1
				if unpark {
					st.Pre = 2
				}
				status = next
				*hf = redisHostFacts{}
			}
		}
		if o.Error != "" {
			uf := urls[o.URL]
			u := URLFacts{Known: uf.State >= 0, State: State(uf.State), Tries: uf.Tries,
				IsProbe: hf.Probe != "" && hf.Probe == uf.ID, OtherHost: uf.Host != down}
			step := OutcomeStep(status, u, o.Error, p, now)
			st.apply(step)
			if step.HostChange != HostKept {
				h := step.Host
				*hf = redisHostFacts{Mode: int(h.Mode), Reason: h.Reason, Since: h.Since, Retry: h.RetryAt, Wait: h.Wait,
					Tries: h.Tries, Timeouts: h.Timeouts, Probe: hf.Probe}
				if step.ClearProbe {
					hf.Probe = ""
				}
			}
			switch step.Action {
			case URLRecord, URLSettledByHost:
				uf.State = int(Failed)
			case URLPutBack:
				uf.State, uf.Tries = int(step.State), uf.Tries+step.AddTries
			}
		}
		if st.Pre != 0 || st.Change != "" || st.Act != "record" {
			steps[i] = st
		}
	}
	return steps, exp, nil
}

// apply fills the script's step from the policy's.
func (st *redisStep) apply(s Step) {
	switch s.HostChange {
	case HostSaved:
		st.Change = "save"
	case HostParkedNow:
		st.Change = "park"
	case HostGaveUpNow:
		st.Change = "giveup"
	}
	if s.HostChange != HostKept {
		h := s.Host
		st.HS = []any{int(h.Mode), h.Reason, h.Since, h.RetryAt, h.Wait, h.Tries, h.Timeouts}
		st.Clear, st.GErr = s.ClearProbe, s.GiveUpError
	}
	switch s.Action {
	case URLPutBack:
		st.Act, st.State, st.At, st.Add, st.Err = "putback", int(s.State), s.RetryAt, s.AddTries, s.Error
	case URLSettledByHost:
		st.Act = "settled"
	}
}
