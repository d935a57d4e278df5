package frontier

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// The Redis store applies the host policy (hostpolicy.go) as the SQLite
// store does: it reads what the policy needs (outcomeFacts), computes the
// steps in Go, and the apply script checks that what it read has not
// changed before it writes them (redisExpect); when another worker moved
// a host or URL in between, Apply reads again and recomputes.

// The argument of redisFacts.
const factsArgQuery = 1

// redisFacts reads the URLs and hosts of a chunk's outcomes, and the URL
// classes of the hosts it touches while the frontier learns. Its argument,
// factsArgQuery, is a JSON object {urls: [redisURLRef], hosts: [host], classes: [host]}; it
// answers a JSON object {urls: [{state (-1: unknown), tries, host, id
// (hex), prior (the link priority it was queued with), parent (whether
// it was queued from a link)}], hosts: [{raw (hex of the stored record,
// ” when none), mode, reason, since, retry, wait, tries, timeouts, probe
// (hex)}], classes: [redisClassFacts]}.
var redisFacts = newRedisScript("facts", argSlots(luaName{"QUERY", factsArgQuery}), luaPrelude+`
local a = cjson.decode(ARGV[ARG.QUERY])
local out = {urls = {}, hosts = {}}
for i, u in ipairs(a.urls) do
  local id, r = find(u.url, unhex(u.id))
  local f = {state = -1, tries = 0, host = '', id = tohex(id), prior = '0', parent = false}
  if r then
    f.state, f.tries, f.host, f.prior, f.parent = r[STATE], r[TRIES] or 0, rhost(r), fmt(r[PRIOR] or r[PRIO]), r[PARENT] ~= ''
  end
  out.urls[i] = f
end
out.classes = {}
for _, h in ipairs(a.classes or {}) do
  local kv = redis.call('HGETALL', P .. 'cls:' .. h)
  for i = 1, #kv, 2 do
    local c = cmsgpack.unpack(kv[i + 1])
    out.classes[#out.classes + 1] = {h = h, k = kv[i], id = c[CL_ID], p = c[CL_PARENT], f = c[CL_FETCHED], r = c[CL_RELEVANT],
      l = fmt(c[CL_LABELS]), q = fmt(c[CL_PRIORS]), a = fmt(c[CL_APPLIED])}
  end
end
if #out.classes == 0 then out.classes = nil end
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
if #out.hosts == 0 then out.hosts = nil end
return cjson.encode(out)
`)

type redisURLFacts struct {
	State  int    `json:"state"`
	Tries  int    `json:"tries"`
	Host   string `json:"host"`
	ID     string `json:"id"`
	Prior  string `json:"prior"`
	Parent bool   `json:"parent"`
}

type redisHostFacts struct {
	Raw string `json:"raw"`
	redisHostStatus
	Probe string `json:"probe"`
}

// redisHostStatus is a host's failure state as the scripts read and write
// it (the fields hrecMode … hrecTimeouts of its record), by name.
type redisHostStatus struct {
	Mode     int    `json:"mode"`
	Reason   string `json:"reason"`
	Since    int64  `json:"since"`
	Retry    int64  `json:"retry"`
	Wait     int64  `json:"wait"`
	Tries    int    `json:"tries"`
	Timeouts int    `json:"timeouts"`
}

func redisStatusOf(h HostStatus) redisHostStatus {
	return redisHostStatus{Mode: int(h.Mode), Reason: h.Reason, Since: h.Since, Retry: h.RetryAt, Wait: h.Wait,
		Tries: h.Tries, Timeouts: h.Timeouts}
}

func (h redisHostStatus) status() HostStatus {
	return HostStatus{Mode: HostMode(h.Mode), Reason: h.Reason, Since: h.Since, RetryAt: h.Retry, Wait: h.Wait,
		Tries: h.Tries, Timeouts: h.Timeouts}
}

// redisURLRef names a URL to a script: the URL and its id (hex).
type redisURLRef struct {
	URL string `json:"url"`
	ID  string `json:"id"`
}

// redisStep is one outcome's step as the apply script reads it: an
// answer that clears its host first (Answered), then what the policy's
// Step says, with named fields.
type redisStep struct {
	Host string `json:"host"`
	// Answered clears the host's failure state (Answered); Unpark also
	// queues its parked URLs again.
	Answered bool `json:"answered"`
	Unpark   bool `json:"unpark"`
	// Change: stepKeep, stepSave, stepPark or stepGiveUp; HS the new
	// status.
	Change string           `json:"change"`
	HS     *redisHostStatus `json:"hs"`
	Drop   bool             `json:"drop"` // HS is clean (HostStatus.Clean): no record kept
	Clear  bool             `json:"clear"`
	GErr   string           `json:"gerr"`
	// Act: stepRecord, stepPutBack or stepSettled; a put-back URL goes
	// to State (until At) with Add more tries and the error Err.
	Act   string `json:"act"`
	State int    `json:"state"`
	At    int64  `json:"at"`
	Add   int    `json:"add"`
	Err   string `json:"err"`
}

// What a step does to its host (redisStep.Change) and to its URL (Act);
// the apply script names them CHANGE.PARK, ACT.PUTBACK ….
const (
	stepKeep    = "" // the host's status is kept
	stepSave    = "save"
	stepPark    = "park"
	stepGiveUp  = "giveup"
	stepRecord  = "record" // the outcome is recorded
	stepPutBack = "putback"
	stepSettled = "settled" // settled with its host
)

var luaStepTags = luaTags("CHANGE", []luaTag{{"KEEP", stepKeep}, {"SAVE", stepSave}, {"PARK", stepPark}, {"GIVEUP", stepGiveUp}}) +
	luaTags("ACT", []luaTag{{"RECORD", stepRecord}, {"PUTBACK", stepPutBack}, {"SETTLED", stepSettled}})

// redisExpect is what the apply script checks before it writes: each
// host's stored record (hex, ” for none), and each URL's state (-1:
// unknown) and tries, as the steps were computed from.
type redisExpect struct {
	Hosts map[string]string `json:"hosts"`
	URLs  []redisExpectURL  `json:"urls"`
	// Up are hosts assumed clean (HostStatus.Clean) without reading them:
	// a chunk of pages that all came back needs no facts when their hosts
	// are, and the script checks that they have no record (a clean host
	// has none).
	Up []string `json:"up"`
}

// redisExpectURL is a URL's state (-1: unknown) and tries as a chunk's
// steps were computed from.
type redisExpectURL struct {
	redisURLRef
	State int `json:"state"`
	Tries int `json:"tries"`
}

// hostSteps computes the steps of a chunk's outcomes (rows[i] came from
// outs[i]; nil for a redirect target's row). Steps[i] is nil when the
// outcome only records. While the frontier learns (cfg), it also counts
// the outcomes in their URL classes and gives the class book, with the
// classes of the hosts of the URLs to queue read too.
//
// With assumeUp, a chunk whose outcomes all came back without error, of a
// frontier that does not learn, is computed without reading: its hosts
// are assumed clean (no step then), and expected so (redisExpect.Up).
func (s *RedisStore) hostSteps(ctx context.Context, outs []*Outcome, p RetryPolicy, now int64, cfg *Learning,
	queued []*Entry, assumeUp bool) ([]*redisStep, redisExpect, *redisClassBook, error) {
	exp := redisExpect{Hosts: map[string]string{}, URLs: []redisExpectURL{}, Up: []string{}}
	if assumeUp && cfg == nil && allAnswered(outs) {
		seen := map[string]bool{}
		for _, o := range outs {
			if o != nil && !seen[outcomeHost(o)] {
				seen[outcomeHost(o)] = true
				exp.Up = append(exp.Up, outcomeHost(o))
			}
		}
		return make([]*redisStep, len(outs)), exp, nil, nil
	}
	type req struct {
		URLs    []redisURLRef `json:"urls"`
		Hosts   []string      `json:"hosts"`
		Classes []string      `json:"classes,omitempty"`
	}
	var q req
	q.URLs, q.Hosts = []redisURLRef{}, []string{}
	hostIdx := map[string]int{}
	urlIdx := map[string]int{}
	classHosts := map[string]bool{}
	addClasses := func(h string) {
		if cfg != nil && !classHosts[h] {
			classHosts[h] = true
			q.Classes = append(q.Classes, h)
		}
	}
	addClasses("")
	addURL := func(u string) {
		if _, ok := urlIdx[u]; !ok {
			urlIdx[u] = len(q.URLs)
			q.URLs = append(q.URLs, redisURLRef{URL: u, ID: hexID(u)})
		}
	}
	for _, o := range outs {
		if o == nil {
			continue
		}
		h := outcomeHost(o)
		if _, ok := hostIdx[h]; !ok {
			hostIdx[h] = len(q.Hosts)
			q.Hosts = append(q.Hosts, h)
		}
		if o.Error != "" || cfg != nil {
			addURL(o.URL)
		}
		if cfg != nil {
			addClasses(o.Host)
			if redirected(o) {
				addURL(o.FinalURL)
				addClasses(o.FinalHost)
			}
		}
	}
	for _, e := range queued {
		addClasses(e.Host)
	}
	steps := make([]*redisStep, len(outs))
	if len(q.Hosts) == 0 && cfg == nil {
		return steps, exp, nil, nil
	}
	facts, err := s.readFacts(ctx, q)
	if err != nil {
		return nil, exp, nil, err
	}
	if len(facts.Hosts) != len(q.Hosts) || len(facts.URLs) != len(q.URLs) {
		return nil, exp, nil, fmt.Errorf("host facts: %d hosts and %d URLs for %d and %d", len(facts.Hosts), len(facts.URLs), len(q.Hosts), len(q.URLs))
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
		urls[u.URL] = &f
		exp.URLs = append(exp.URLs, redisExpectURL{redisURLRef: u, State: f.State, Tries: f.Tries})
	}
	var book *redisClassBook
	if cfg != nil {
		// A URL's classes are those of the host it was queued under,
		// which its record names: read those too if they were not.
		var more []string
		for _, f := range urls {
			if f.State >= 0 && !classHosts[f.Host] {
				classHosts[f.Host] = true
				more = append(more, f.Host)
			}
		}
		if len(more) > 0 {
			extra, err := s.readFacts(ctx, req{URLs: []redisURLRef{}, Hosts: []string{}, Classes: more})
			if err != nil {
				return nil, exp, nil, err
			}
			facts.Classes = append(facts.Classes, extra.Classes...)
			q.Classes = append(q.Classes, more...)
		}
		if book, err = newClassBook(cfg, q.Classes, facts.Classes); err != nil {
			return nil, exp, nil, err
		}
	}
	// learn counts a recorded outcome of u in its classes, once: not when
	// it was done or failed before.
	learn := func(u string, o *Outcome) error {
		f := urls[u]
		fresh := f.State >= 0 && f.State != int(Done) && f.State != int(Failed)
		f.State = int(Done)
		if o.Error != "" {
			f.State = int(Failed)
		}
		if !fresh || !f.Parent {
			return nil // seen before, or never queued from a link
		}
		prior, err := strconv.ParseFloat(f.Prior, 64)
		if err != nil {
			return fmt.Errorf("prior of %s: %w", u, err)
		}
		return book.learn(f.Host, u, o, prior)
	}
	for i, o := range outs {
		if o == nil {
			continue
		}
		down := outcomeHost(o)
		hf := hosts[down]
		status := hf.status()
		st := &redisStep{Host: down, Act: stepRecord}
		if HostAnswered(o.Error) {
			if next, changed, unpark := Answered(status); changed || hf.Raw != "" {
				// A clean record (kept by an older build) goes too.
				st.Answered, st.Unpark = true, unpark
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
				*hf = redisHostFacts{redisHostStatus: redisStatusOf(step.Host), Probe: hf.Probe}
				if step.ClearProbe {
					hf.Probe = ""
				}
			}
			switch step.Action {
			case URLSettledByHost:
				uf.State = int(Failed)
			case URLPutBack:
				uf.State, uf.Tries = int(step.State), uf.Tries+step.AddTries
			}
		}
		if st.Act == stepRecord && cfg != nil {
			if err := learn(o.URL, o); err != nil {
				return nil, exp, nil, err
			}
			if redirected(o) {
				if err := learn(o.FinalURL, o); err != nil {
					return nil, exp, nil, err
				}
			}
		} else if st.Act == stepRecord && o.Error != "" {
			urls[o.URL].State = int(Failed)
		}
		if st.Answered || st.Change != stepKeep || st.Act != stepRecord {
			steps[i] = st
		}
	}
	return steps, exp, book, nil
}

// allAnswered tells whether every outcome came back without error.
func allAnswered(outs []*Outcome) bool {
	for _, o := range outs {
		if o != nil && o.Error != "" {
			return false
		}
	}
	return true
}

// redirected tells whether an outcome records its final URL too.
func redirected(o *Outcome) bool {
	return o.FinalURL != "" && o.FinalURL != o.URL && o.FinalHost != ""
}

type redisFactsAnswer struct {
	URLs    []redisURLFacts   `json:"urls"`
	Hosts   []redisHostFacts  `json:"hosts"`
	Classes []redisClassFacts `json:"classes"`
}

// readFacts runs the facts script.
func (s *RedisStore) readFacts(ctx context.Context, q any) (*redisFactsAnswer, error) {
	arg, err := json.Marshal(q)
	if err != nil {
		return nil, err
	}
	args := redisFacts.args()
	args.set(factsArgQuery, arg)
	var facts redisFactsAnswer
	if err := s.runJSON(ctx, redisFacts, &facts, args); err != nil {
		return nil, fmt.Errorf("host facts: %w", err)
	}
	return &facts, nil
}

// apply fills the script's step from the policy's.
func (st *redisStep) apply(s Step) {
	switch s.HostChange {
	case HostSaved:
		st.Change = stepSave
	case HostParkedNow:
		st.Change = stepPark
	case HostGaveUpNow:
		st.Change = stepGiveUp
	}
	if s.HostChange != HostKept {
		hs := redisStatusOf(s.Host)
		st.HS = &hs
		st.Drop, st.Clear, st.GErr = s.Host.Clean(), s.ClearProbe, s.GiveUpError
	}
	switch s.Action {
	case URLPutBack:
		st.Act, st.State, st.At, st.Add, st.Err = stepPutBack, int(s.State), s.RetryAt, s.AddTries, s.Error
	case URLSettledByHost:
		st.Act = stepSettled
	}
}
