package frontier

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/robotsrules"
)

var _ Store = (*RedisStore)(nil)

// redisChunk bounds the records one script call applies, so that a big
// batch does not hold the server for long: each chunk is atomic.
const redisChunk = 2000

// redisMovedTries bounds how often Apply computes a chunk's host steps
// again because other workers changed their hosts meanwhile.
const redisMovedTries = 1000

func hexID(u string) string { return hex.EncodeToString([]byte(redisID(u))) }

// appendID appends the 8-byte id of u.
func appendID(b []byte, u string) []byte {
	return binary.BigEndian.AppendUint64(b, xxhash.Sum64String(u))
}

// Apply records the batch. Chunks of it run as one script each: a batch
// larger than redisChunk records is atomic per chunk, and a crash between
// chunks loses only outcomes whose URLs come back through their leases.
func (s *RedisStore) Apply(ctx context.Context, b Batch) (Applied, error) {
	var res Applied
	if s.rdb == nil {
		return res, ErrClosed
	}
	type chunk struct {
		Now     int64            `json:"now"`
		Max     int64            `json:"max"`
		Done    []scriptRow      `json:"done"`  // drow… (redis_rows.go)
		Queue   []scriptRow      `json:"-"`     // qrow…, as MessagePack beside the JSON
		Edges   []scriptRow      `json:"edges"` // erow…
		Steps   []*redisStep     `json:"steps"`
		Expect  redisExpect      `json:"expect"`
		Refused map[string]int64 `json:"refused"`
		Robots  []redisRobots    `json:"robots"`
		RV      int64            `json:"rv"`
		// The URL classes (redis_classes.go): the learning configuration
		// the chunk was computed with ("" when off), the classes it
		// reads, counts and ranks, the places of those to rank again in
		// order, and the bound on the queued URLs ranked.
		Learn   string        `json:"learn"`
		Classes []*redisClass `json:"classes"`
		Moves   []int         `json:"moves"`
		MaxRows int           `json:"maxrows"`
	}
	policy := DefaultRetryPolicy()
	if b.Retry != nil {
		policy = *b.Retry
	}
	now := time.Now().UnixMilli()
	c := chunk{Now: now, Max: b.MaxPerHost, Done: []scriptRow{}, Queue: []scriptRow{}, Edges: []scriptRow{}, Refused: map[string]int64{},
		Robots: []redisRobots{}, MaxRows: maxRerankRows}
	var queued []*Entry // the entries of c.Queue, to check against robots.txt rules
	var outs []*Outcome // the outcome of each row of c.Done (nil: a redirect target's row)
	// The ids of the done rows travel as bytes beside the JSON (which
	// cannot carry them), 8 each; the queue rows as MessagePack (packed).
	var dids, packed []byte
	// sites holds the hosts whose site this chunk carries already: a
	// host's site is sent once a chunk.
	sites := map[string]bool{}
	var learned []string
	size := 0
	flush := func() error {
		if size == 0 && len(c.Refused) == 0 {
			return nil
		}
		var n redisApplied
		assumeUp := true // until the script says a host is not
		for moved := 0; ; {
			rules, version, err := s.robotsRules(ctx, len(queued) > 0)
			if err != nil {
				return fmt.Errorf("frontier: apply: %w", err)
			}
			c.RV = version
			raw, cfg, err := s.learning(ctx)
			if err != nil {
				return fmt.Errorf("frontier: apply: %w", err)
			}
			var book *redisClassBook
			if c.Steps, c.Expect, book, err = s.hostSteps(ctx, outs, policy, now, cfg, queued, assumeUp); err != nil {
				return fmt.Errorf("frontier: apply: %w", err)
			}
			c.Learn, c.Classes, c.Moves = raw, []*redisClass{}, []int{}
			if book != nil {
				c.Moves = book.rank()
				for i, e := range queued {
					class, err := book.entryClass(e)
					if err != nil {
						return fmt.Errorf("frontier: apply: %w", err)
					}
					c.Queue[i].set(qrowClass, class)
				}
				c.Classes = book.finish()
			} else {
				for i := range queued {
					c.Queue[i].set(qrowClass, 0)
				}
			}
			if hook := s.afterSteps; hook != nil {
				s.afterSteps = nil
				hook()
			}
			for i, e := range queued {
				refused := 0
				if r := rules[e.Host]; r != nil && !r.Allows(RobotsPath(e.URL)) {
					refused = 1
				}
				c.Queue[i].set(qrowRobots, refused)
			}
			arg, err := json.Marshal(c)
			if err != nil {
				return fmt.Errorf("frontier: apply: %w", err)
			}
			if packed, err = appendMsgpackRows(packed[:0], c.Queue); err != nil {
				return fmt.Errorf("frontier: apply: %w", err)
			}
			n = redisApplied{}
			args := redisApply.args()
			args.set(applyArgChunk, arg)
			args.set(applyArgQueue, packed)
			args.set(applyArgDone, dids)
			if err := s.runJSON(ctx, redisApply, &n, args); err != nil {
				return fmt.Errorf("frontier: apply: %w", err)
			}
			switch n.Again {
			case "":
			case applyAgainRobots:
				s.forgetRobots() // rules learned meanwhile: filter again
				continue
			case applyAgainLearning:
				// Learning was turned on or off meanwhile.
				s.forgetLearning()
				if moved++; moved > redisMovedTries {
					return fmt.Errorf("frontier: apply: learning kept changing under %d tries", redisMovedTries)
				}
				continue
			case applyAgainMoved:
				// A host or URL moved meanwhile, or a host assumed up is
				// not: read and compute the steps again.
				assumeUp = false
				if moved++; moved > redisMovedTries {
					return fmt.Errorf("frontier: apply: hosts kept changing under %d tries", redisMovedTries)
				}
				continue
			default:
				return fmt.Errorf("frontier: apply: unexpected answer %+v", n)
			}
			break
		}
		res.Done += n.Done
		res.Queued += n.Queued
		res.Raised += n.Raised
		res.Known += n.Known
		res.Refused += n.Refused
		res.Requeued += n.Requeued
		res.Reserved += n.Reserved
		if n.GivenUp > 0 {
			res.Guards[GuardHostGivenUp] += n.GivenUp
		}
		if n.Robots > 0 {
			res.Guards[GuardRobots] += n.Robots
		}
		learned = append(learned, n.Learned...)
		c.Done, c.Queue, c.Edges, c.Refused, c.Robots = c.Done[:0], c.Queue[:0], c.Edges[:0], map[string]int64{}, c.Robots[:0]
		queued, outs = queued[:0], outs[:0]
		dids = dids[:0]
		clear(sites)
		size = 0
		return nil
	}
	res.Guards = map[string]int64{}
	add := func() error {
		size++
		if size >= redisChunk {
			return flush()
		}
		return nil
	}
	for i := range b.Done {
		o := &b.Done[i]
		if classify(o.Error) == failDisallow {
			if rules, err := robotsrules.Parse(o.Error); err == nil {
				c.Robots = append(c.Robots, redisRobots{Host: outcomeHost(o), Agent: rules.Agent(), Rules: rules.Text()})
			}
		}
		// The rows of one outcome go in one chunk: a redirect target's
		// row follows its URL's.
		rows := outcomeRows(o, now)
		if size+len(rows) > redisChunk {
			if err := flush(); err != nil {
				return res, err
			}
		}
		c.Done = append(c.Done, rows...)
		dids = appendID(dids, o.URL)
		if len(rows) > 1 {
			dids = appendID(dids, o.FinalURL)
		}
		outs = append(outs, o)
		if len(rows) > 1 {
			outs = append(outs, nil)
		}
		size += len(rows) - 1
		if err := add(); err != nil {
			return res, err
		}
	}
	for i := range b.Queue {
		e := &b.Queue[i]
		reserve := 0
		if e.Reserve {
			reserve = 1
		}
		site := ""
		if !sites[e.Host] {
			sites[e.Host] = true
			site = e.Site
		}
		c.Queue = append(c.Queue, queueRow(e, site, reserve))
		queued = append(queued, e)
		if err := add(); err != nil {
			return res, err
		}
	}
	for _, e := range b.Edges {
		c.Edges = append(c.Edges, edgeRow(e))
		if err := add(); err != nil {
			return res, err
		}
	}
	for g, n := range b.Refused {
		c.Refused[g] += n
	}
	if err := flush(); err != nil {
		return res, err
	}
	for _, h := range learned {
		n, err := s.refuseByRobots(ctx, h)
		if err != nil {
			return res, err
		}
		if n > 0 {
			res.Guards[GuardRobots] += n
		}
	}
	return res, nil
}

// outcomeRows gives the script rows of an outcome: its URL, and its final
// URL when a redirect led elsewhere, marked as its target (drowTarget):
// recorded only when the first row is.
func outcomeRows(o *Outcome, now int64) []scriptRow {
	state := Done
	if o.Error != "" {
		state = Failed
	}
	fetched := o.FetchedAt.UnixMilli()
	if o.FetchedAt.IsZero() {
		fetched = now
	}
	score, rel := 0.0, -1
	if o.Scored {
		score, rel = o.Score, 0
		if o.Relevant {
			rel = 1
		}
	}
	row := func(u, host string, target int) scriptRow {
		r := newRow(drowWidth)
		r.set(drowURL, u)
		r.set(drowID, "") // sent as bytes beside the JSON
		r.set(drowHost, host)
		r.set(drowSite, o.Site)
		r.set(drowDepth, o.Depth)
		r.set(drowState, int(state))
		r.set(drowFetched, fetched)
		r.set(drowStatus, o.Status)
		r.set(drowScore, score)
		r.set(drowRel, rel)
		r.set(drowErr, o.Error)
		r.set(drowTarget, target)
		return r
	}
	rows := []scriptRow{row(o.URL, o.Host, 0)}
	if o.FinalURL != "" && o.FinalURL != o.URL && o.FinalHost != "" {
		rows = append(rows, row(o.FinalURL, o.FinalHost, 1))
	}
	return rows
}

// Renew extends to until the running leases of owner taken less than
// maxAge ago.
func (s *RedisStore) Renew(ctx context.Context, owner int64, until time.Time, maxAge time.Duration) (int, error) {
	now := time.Now()
	args := redisRenew.args()
	args.set(renewArgNow, now.UnixMilli())
	args.set(renewArgOwner, strconv.FormatInt(owner, 10))
	args.set(renewArgUntil, until.UnixMilli())
	args.set(renewArgAfter, now.Add(-maxAge).UnixMilli())
	v, err := s.run(ctx, redisRenew, args)
	if err != nil {
		return 0, fmt.Errorf("frontier: renew leases: %w", err)
	}
	n, err := answerInt("leases renewed", v)
	if err != nil {
		return 0, fmt.Errorf("frontier: renew leases: %w", err)
	}
	return int(n), nil
}

// Holding counts the running leases of owner.
func (s *RedisStore) Holding(ctx context.Context, owner int64) (int, error) {
	if s.rdb == nil {
		return 0, ErrClosed
	}
	n, err := s.rdb.ZCount(ctx, s.key("own:"+strconv.FormatInt(owner, 10)), "("+strconv.FormatInt(time.Now().UnixMilli(), 10), "+inf").Result()
	if err != nil {
		return 0, fmt.Errorf("frontier: count leases: %w", err)
	}
	return int(n), nil
}

// Release queues every leased URL again.
func (s *RedisStore) Release(ctx context.Context) (int, error) {
	v, err := s.run(ctx, redisRelease, redisRelease.args())
	if err != nil {
		return 0, fmt.Errorf("frontier: release leases: %w", err)
	}
	n, err := answerInt("leases released", v)
	if err != nil {
		return 0, fmt.Errorf("frontier: release leases: %w", err)
	}
	return int(n), nil
}

// Counts tells whether anything is queued outside the reserve (or held by
// an expired lease, waiting for a retry, or due as the probe of a parked
// host), whether a lease is running and whether the reserve holds a URL,
// and reads the requeued counter.
func (s *RedisStore) Counts(ctx context.Context) (Counts, error) {
	var n struct {
		Queued   bool  `json:"queued"`
		Leased   bool  `json:"leased"`
		Reserve  bool  `json:"reserve"`
		Requeued int64 `json:"requeued"`
	}
	args := redisCounts.args()
	args.set(countsArgNow, time.Now().UnixMilli())
	if err := s.runJSON(ctx, redisCounts, &n, args); err != nil {
		return Counts{}, fmt.Errorf("frontier: counts: %w", err)
	}
	return Counts{Queued: n.Queued, Leased: n.Leased, Reserve: n.Reserve, Requeued: n.Requeued}, nil
}

// Progress counts the URLs fetched and the running leases.
func (s *RedisStore) Progress(ctx context.Context) (Progress, error) {
	var p Progress
	if s.rdb == nil {
		return p, ErrClosed
	}
	pipe := s.rdb.Pipeline()
	counts := pipe.HGetAll(ctx, s.key(keyStats))
	running := pipe.ZCount(ctx, s.key("leased"), "("+strconv.FormatInt(time.Now().UnixMilli(), 10), "+inf")
	if _, err := pipe.Exec(ctx); err != nil {
		return p, fmt.Errorf("frontier: progress: %w", err)
	}
	for k, v := range counts.Val() {
		n, _ := strconv.ParseInt(v, 10, 64)
		switch {
		case strings.HasPrefix(k, stateCountPrefix(Done)) || strings.HasPrefix(k, stateCountPrefix(Failed)):
			p.Fetched += n
		case strings.HasPrefix(k, stUnfetched): // failed, never fetched
			p.Fetched -= n
		case k == stRedirects: // redirect targets, done in another URL's fetch
			p.Fetched -= n
		}
	}
	p.Running = running.Val()
	return p, nil
}

// PageScores returns the page score of each of urls that was fetched.
func (s *RedisStore) PageScores(ctx context.Context, urls []string) (map[string]float64, error) {
	out := make(map[string]float64, len(urls))
	const page = 1000
	for len(urls) > 0 {
		n := min(page, len(urls))
		args, row := make(scriptRow, 0, n*redisPageScores.layout.width()), redisPageScores.row()
		for _, u := range urls[:n] {
			row.set(scoresArgURL, u)
			row.set(scoresArgID, hexID(u))
			args = append(args, row...)
		}
		urls = urls[n:]
		v, err := s.run(ctx, redisPageScores, args)
		if err != nil {
			return nil, fmt.Errorf("frontier: page scores: %w", err)
		}
		rows, err := rowsOf(v, scoreAnswer)
		if err != nil {
			return nil, fmt.Errorf("frontier: page scores: %w", err)
		}
		for _, row := range rows {
			u, score := row.str(scoreURL), row.flt(scoreValue)
			if row.err != nil {
				return nil, fmt.Errorf("frontier: page scores: %w", row.err)
			}
			out[u] = score
		}
	}
	return out, nil
}

// WalkEdges calls fn for every link kept from a fetched page.
func (s *RedisStore) WalkEdges(ctx context.Context, fn func(e Edge) error) error {
	cursor := "0"
	for {
		args := redisEdges.args()
		args.set(scanArgCursor, cursor)
		args.set(scanArgCount, 1000)
		v, err := s.run(ctx, redisEdges, args)
		if err != nil {
			return fmt.Errorf("frontier: edges: %w", err)
		}
		next, rows, err := replyOf(v, edgeAnswer)
		if err == nil {
			cursor, err = answerText("cursor", next)
		}
		if err != nil {
			return fmt.Errorf("frontier: edges: %w", err)
		}
		for _, row := range rows {
			e := Edge{From: row.str(edgeFrom), To: row.str(edgeTo), Priority: row.flt(edgePrio), Anchor: row.str(edgeAnchor),
				Context: row.str(edgeContext)}
			if row.err != nil {
				return fmt.Errorf("frontier: edges: %w", row.err)
			}
			if err := fn(e); err != nil {
				return err
			}
		}
		if cursor == "0" {
			return nil
		}
	}
}

// Edges walks the link graph for score (scoring.Store).
func (s *RedisStore) Edges(ctx context.Context, fn func(record.Edge) error) error {
	return s.WalkEdges(ctx, func(e Edge) error {
		return fn(record.Edge{From: e.From, To: e.To, Anchor: e.Anchor, Context: e.Context})
	})
}

// State tells where url is in the frontier (false when it is not known).
// A lease that has run out reads as queued, as the next lease call will
// make it.
func (s *RedisStore) State(ctx context.Context, u string) (State, bool, error) {
	args := redisState.args()
	args.set(stateArgURL, u)
	args.set(stateArgID, hexID(u))
	args.set(stateArgNow, time.Now().UnixMilli())
	v, err := s.run(ctx, redisState, args)
	if err != nil {
		return 0, false, fmt.Errorf("frontier: state of %s: %w", u, err)
	}
	n, err := answerInt("state", v)
	if err != nil {
		return 0, false, fmt.Errorf("frontier: state of %s: %w", u, err)
	}
	if n < 0 {
		return 0, false, nil
	}
	return State(n), true, nil
}
