package frontier

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"

	"github.com/focuscrawl/focuscrawl/internal/urlx"
	"github.com/redis/go-redis/v9"
)

// The Redis store's URL classes (classes.go), with the SQLite store's
// semantics: Apply reads the classes of the hosts a chunk touches with
// the host facts (redis_host_steps.go), counts the chunk's outcomes and
// chooses the classes to rank again in Go (learnPage, classMoves), and
// the apply script checks that the classes it was computed from were not
// ranked again by another worker meanwhile, then stores the counts (as
// increments, so that workers counting the same class both count) and
// ranks the queued URLs of the moved classes again.
//
// Keys: cls:HOST, a hash of class key → MessagePack array (id, parent's
// key, fetched, relevant, Σ labels, Σ priors, applied); the crawl's class
// is field "" of cls: (the host ""). cq:ID is the set of URL ids queued
// in class ID (filled as URLs are queued, emptied lazily of those that
// left the queue when the class is ranked again). A URL queued while
// learning is on carries its link priority and its class id in its
// record (PRIOR, CLASS).

// SetLearning turns the frontier's feedback on with l, or off with nil,
// for every process that uses the crawl (score --db does it for its
// learned strategies). URLs queued before keep their priority until their
// class is ranked again.
func (s *RedisStore) SetLearning(ctx context.Context, l *Learning) error {
	if s.rdb == nil {
		return ErrClosed
	}
	defer s.forgetLearning()
	if l == nil {
		if err := s.rdb.HDel(ctx, s.key(keyMeta), metaLearning).Err(); err != nil {
			return fmt.Errorf("frontier: set learning: %w", err)
		}
		return nil
	}
	v, err := learningValue(l)
	if err != nil {
		return err
	}
	// The records and keys of the classes are layout version 2: a build
	// that reads only version 1 refuses the crawl rather than damage it.
	if err := s.rdb.HSet(ctx, s.key(keyMeta), metaLearning, string(v), metaSchema, redisSchemaVersionClasses).Err(); err != nil {
		return fmt.Errorf("frontier: set learning: %w", err)
	}
	return nil
}

// Learning gives the feedback configuration, nil when it is off.
func (s *RedisStore) Learning(ctx context.Context) (*Learning, error) {
	if s.rdb == nil {
		return nil, ErrClosed
	}
	v, err := s.rdb.HGet(ctx, s.key(keyMeta), metaLearning).Result()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("frontier: learning: %w", err)
	}
	return parseLearning(v)
}

// learning gives the configuration Apply works with, as last read, and
// its stored text ("" when off): the apply script refuses a chunk whose
// text is no longer the stored one (another process turned learning on
// or off), and Apply reads it again.
func (s *RedisStore) learning(ctx context.Context) (string, *Learning, error) {
	s.learnMu.Lock()
	defer s.learnMu.Unlock()
	if s.learnRead {
		return s.learnRaw, s.learnCfg, nil
	}
	v, err := s.rdb.HGet(ctx, s.key(keyMeta), metaLearning).Result()
	if errors.Is(err, redis.Nil) {
		v, err = "", nil
	}
	if err != nil {
		return "", nil, fmt.Errorf("learning: %w", err)
	}
	var cfg *Learning
	if v != "" {
		if cfg, err = parseLearning(v); err != nil {
			return "", nil, err
		}
	}
	s.learnRaw, s.learnCfg, s.learnRead = v, cfg, true
	return v, cfg, nil
}

// forgetLearning makes the next Apply read the configuration again.
func (s *RedisStore) forgetLearning() {
	s.learnMu.Lock()
	s.learnRead = false
	s.learnMu.Unlock()
}

// redisClassFacts is one stored class as the facts script gives it; the
// numbers are in %.17g so that no digit is lost.
type redisClassFacts struct {
	Host     string `json:"h"`
	Key      string `json:"k"`
	ID       int64  `json:"id"`
	Parent   string `json:"p"`
	Fetched  int64  `json:"f"`
	Relevant int64  `json:"r"`
	Labels   string `json:"l"`
	Priors   string `json:"q"`
	Applied  string `json:"a"`
}

// redisClass is one class of a chunk as the apply script reads it.
type redisClass struct {
	Host   string `json:"host"`
	Key    string `json:"key"`
	Parent string `json:"parent"`
	// ID is the stored class's id, 0 for a class the script creates
	// (with Applied).
	ID int64 `json:"id"`
	// Applied is the estimate the class's queued URLs carry, as read:
	// the script refuses the chunk when it changed.
	Applied float64 `json:"applied"`
	// The counts of this chunk's outcomes, added to the stored ones.
	Fetched  int64   `json:"fetched"`
	Relevant int64   `json:"relevant"`
	Labels   float64 `json:"labels"`
	Priors   float64 `json:"priors"`
	// F is the factor of Applied, FNew of Est: a moved class whose URLs
	// the script ranks again takes Est, and new URLs of it FNew.
	Est  float64 `json:"est"`
	F    float64 `json:"f"`
	FNew float64 `json:"fnew"`

	c     *urlClass
	base  urlClass // the counts as read
	idx   int      // its place in the list, 1-based as Lua counts
	moved bool     // ranked again with Est, if the script's bound allows
}

// redisClassBook is the class state of one chunk: the classes of the
// hosts it touches as read, what its outcomes add, and the classes its
// queued URLs fall in.
type redisClassBook struct {
	cfg     *Learning
	crawl   *urlClass
	hosts   map[string]*redisHostClasses
	hostOf  map[*urlClass]string
	used    map[*urlClass]*redisClass
	list    []*redisClass // the classes the script reads, in order of use
	touched []string      // hosts with outcomes counted
}

type redisHostClasses struct {
	byKey map[string]*urlClass
	list  []*urlClass // in id order, parents first (new ones last)
	seen  bool
}

// newClassBook builds the book from the classes the facts script read
// (every class of each host asked for).
func newClassBook(cfg *Learning, hosts []string, facts []redisClassFacts) (*redisClassBook, error) {
	b := &redisClassBook{cfg: cfg, hosts: map[string]*redisHostClasses{}, hostOf: map[*urlClass]string{}, used: map[*urlClass]*redisClass{}}
	for _, h := range hosts {
		b.hosts[h] = &redisHostClasses{byKey: map[string]*urlClass{}}
	}
	if b.hosts[""] == nil {
		return nil, errors.New("classes: the crawl's class was not read")
	}
	sort.SliceStable(facts, func(i, j int) bool { return facts[i].ID < facts[j].ID })
	parents := map[*urlClass]string{}
	for _, f := range facts {
		hc := b.hosts[f.Host]
		if hc == nil {
			return nil, fmt.Errorf("classes: host %q not asked for", f.Host)
		}
		c := &urlClass{id: f.ID, key: f.Key, fetched: f.Fetched, relevant: f.Relevant, valid: true}
		var err error
		if c.labels, err = strconv.ParseFloat(f.Labels, 64); err == nil {
			if c.priors, err = strconv.ParseFloat(f.Priors, 64); err == nil {
				c.applied, err = strconv.ParseFloat(f.Applied, 64)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("classes: %s %s: %w", f.Host, f.Key, err)
		}
		hc.byKey[f.Key] = c
		hc.list = append(hc.list, c)
		b.hostOf[c] = f.Host
		parents[c] = f.Parent
	}
	root := b.hosts[""]
	if b.crawl = root.byKey[""]; b.crawl == nil {
		b.crawl = b.create("", "", nil)
		b.crawl.applied = 1
		b.use(b.crawl).Applied = 1
	}
	for h, hc := range b.hosts {
		if h == "" {
			continue
		}
		for _, c := range hc.list {
			if c.parent = hc.byKey[parents[c]]; c.parent == nil {
				c.parent = b.crawl
			}
		}
	}
	return b, nil
}

// create adds a class the store does not hold yet.
func (b *redisClassBook) create(host, key string, parent *urlClass) *urlClass {
	hc := b.hosts[host]
	c := &urlClass{key: key, parent: parent, valid: true}
	hc.byKey[key] = c
	hc.list = append(hc.list, c)
	b.hostOf[c] = host
	return c
}

// use puts c in the chunk's list of classes.
func (b *redisClassBook) use(c *urlClass) *redisClass {
	if rc := b.used[c]; rc != nil {
		return rc
	}
	rc := &redisClass{Host: b.hostOf[c], Key: c.key, ID: c.id, Applied: c.applied, c: c, base: *c}
	if c.parent != nil && c.parent != b.crawl {
		rc.Parent = c.parent.key
	}
	b.used[c] = rc
	b.list = append(b.list, rc)
	rc.idx = len(b.list)
	return rc
}

// class gives the finest class of u on host, creating the chain as
// needed; a new class takes the estimate its parent gives it, as in the
// SQLite store.
func (b *redisClassBook) class(host, u string) (*urlClass, error) {
	chain, err := urlx.ClassChain(u)
	if err != nil {
		return nil, fmt.Errorf("frontier: %w", err)
	}
	hc := b.hosts[host]
	if hc == nil {
		return nil, fmt.Errorf("frontier: classes of host %q not read", host)
	}
	parent := b.crawl
	for _, key := range chain {
		c, ok := hc.byKey[key]
		if !ok {
			c = b.create(host, key, parent)
			c.applied = c.relative(b.cfg)
			b.use(c)
		}
		parent = c
	}
	return parent, nil
}

// learn counts an outcome of u (queued on host with link priority prior)
// in every class of u.
func (b *redisClassBook) learn(host, u string, o *Outcome, prior float64) error {
	label, teaches := pageLabel(o)
	if !teaches {
		return nil
	}
	c, err := b.class(host, u)
	if err != nil {
		return err
	}
	for x := c; x != nil; x = x.parent {
		b.use(x) // before counting: use takes the counts as read
	}
	learnPage(c, label, prior, o.Relevant)
	if hc := b.hosts[host]; !hc.seen {
		hc.seen = true
		b.touched = append(b.touched, host)
	}
	return nil
}

// rank chooses the classes to rank again, most moved first, and gives
// their places in the list (1-based, as Lua counts).
func (b *redisClassBook) rank() []int {
	lists := make([][]*urlClass, 0, len(b.touched))
	for _, h := range b.touched {
		lists = append(lists, b.hosts[h].list)
	}
	moves := []int{}
	for _, m := range b.cfg.classMoves(b.crawl, lists) {
		rc := b.use(m.c)
		rc.Est, rc.FNew, rc.moved = m.est, b.cfg.factor(m.est), true
		moves = append(moves, rc.idx)
	}
	return moves
}

// entryClass gives the place in the list (1-based) of the finest class
// of a URL to queue.
func (b *redisClassBook) entryClass(e *Entry) (int, error) {
	c, err := b.class(e.Host, e.URL)
	if err != nil {
		return 0, err
	}
	return b.use(c).idx, nil
}

// finish fills in what the script adds and the factors.
func (b *redisClassBook) finish() []*redisClass {
	if b.list == nil {
		b.list = []*redisClass{}
	}
	for _, rc := range b.list {
		c := rc.c
		rc.Fetched, rc.Relevant = c.fetched-rc.base.fetched, c.relevant-rc.base.relevant
		rc.Labels, rc.Priors = c.labels-rc.base.labels, c.priors-rc.base.priors
		rc.F = b.cfg.factor(rc.Applied)
		if !rc.moved {
			rc.Est, rc.FNew = rc.Applied, rc.F
		}
	}
	return b.list
}
