package frontier

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/focuscrawl/focuscrawl/internal/robotsrules"
	"github.com/redis/go-redis/v9"
)

// RedisStore is the frontier in a Redis database, shared by the seed next,
// fetch, …, seed add pipes of any number of machines. Every operation that
// reads and then writes runs as one Lua script, so it is atomic: two
// workers never lease the same URL, and a batch of outcomes is recorded
// whole or not at all. The key layout is in docs/frontier.md.
//
// Every key of one crawl carries the hash tag {PREFIX}, so the whole crawl
// lives in one hash slot: the scripts may touch any of its keys, also on
// Redis Cluster, where a crawl is served by one node (several crawls
// spread over the nodes).
type RedisStore struct {
	rdb    *redis.Client
	prefix string // "{NAME}:"
	dsn    string

	// The robots.txt rules learned for hosts, as last read, and their
	// version (meta.robotsv; -1: not read). Apply checks new URLs against
	// them; its script refuses a version that moved on.
	robotsMu      sync.Mutex
	robotsVersion int64
	robots        map[string]*robotsrules.Rules

	// The learning configuration as last read (redis_classes.go): its
	// stored text ("" when off), checked by the apply script.
	learnMu   sync.Mutex
	learnRead bool
	learnRaw  string
	learnCfg  *Learning

	// afterSteps, in tests, runs once between Apply's reading of host
	// facts and its script, as another worker's Apply could.
	afterSteps func()
	// afterLeaseFacts, in tests, runs once between Lease's reading of
	// host facts and its script, as another worker's lease could.
	afterLeaseFacts func()
}

// redisKeyPrefix builds the key prefix of a crawl from its name.
func redisKeyPrefix(name string) string { return "{" + name + "}:" }

// redisTimeout is the default read and write timeout (?read_timeout= and
// ?write_timeout= change it).
const redisTimeout = 60 * time.Second

// DefaultRedisPrefix names the crawl when the URL gives no ?prefix=.
const DefaultRedisPrefix = "focuscrawl"

// IsRedisURL tells whether a --db value names a Redis frontier.
func IsRedisURL(db string) bool {
	return strings.HasPrefix(db, "redis://") || strings.HasPrefix(db, "rediss://") || strings.HasPrefix(db, "unix://")
}

// OpenRedis connects to the frontier named by a URL of the form
// redis://[USER:PASSWORD@]HOST:PORT/DB?prefix=NAME (rediss:// for TLS).
// NAME tells crawls on one database apart (default "focuscrawl"). Other
// query parameters are go-redis options (dial_timeout, …).
func OpenRedis(ctx context.Context, dsn string) (*RedisStore, error) {
	return openRedis(ctx, dsn, true)
}

// openRedis opens a Redis frontier; create marks the crawl as begun
// (meta.created, the crawl marker), else a prefix without the marker is
// ErrNoFrontier: a mistyped prefix, or a server that lost its data.
func openRedis(ctx context.Context, dsn string, create bool) (*RedisStore, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, fmt.Errorf("open frontier %s: %w", redactDSN(dsn), err)
	}
	q := u.Query()
	name := q.Get("prefix")
	q.Del("prefix")
	outageWait := q.Get("outage_wait")
	q.Del("outage_wait")
	u.RawQuery = q.Encode()
	if name == "" {
		name = DefaultRedisPrefix
	}
	if strings.ContainsAny(name, "{}") {
		return nil, fmt.Errorf("open frontier %s: prefix %q: no braces (they make the hash tag)", redactDSN(dsn), name)
	}
	opt, err := redis.ParseURL(u.String())
	if err != nil {
		return nil, fmt.Errorf("open frontier %s: %w", redactDSN(dsn), err)
	}
	// A script applying thousands of records may run for a while on a
	// loaded server; a client that gave up on it would lose its answer
	// (leased URLs never written out), so wait longer than go-redis's 3s.
	if !q.Has("read_timeout") {
		opt.ReadTimeout = redisTimeout
	}
	if !q.Has("write_timeout") {
		opt.WriteTimeout = redisTimeout
	}
	rdb := redis.NewClient(opt)
	if err := withOutageWait(rdb, opt.Addr, outageWait); err != nil {
		rdb.Close()
		return nil, fmt.Errorf("open frontier %s: %w", redactDSN(dsn), err)
	}
	s := &RedisStore{rdb: rdb, prefix: redisKeyPrefix(name), dsn: dsn, robotsVersion: -1}
	if !create {
		if err := s.mustExist(ctx, name); err != nil {
			rdb.Close()
			if errors.Is(err, ErrNoFrontier) {
				return nil, fmt.Errorf("%s: %w", redactDSN(dsn), err)
			}
			return nil, fmt.Errorf("open frontier %s: %w", redactDSN(dsn), err)
		}
	}
	if err := s.init(ctx, create); err != nil {
		rdb.Close()
		return nil, fmt.Errorf("open frontier %s: %w", redactDSN(dsn), err)
	}
	return s, nil
}

// redactDSN hides a password in a Redis URL for messages.
func redactDSN(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// redisSchemaVersion is stored under meta.schema; a crawl written by
// another layout is refused. Version 2 is version 1 with the URL classes
// (redis_classes.go): records with two more fields and the cls:, cq:
// keys, which a build that reads only version 1 would damage; a crawl
// becomes version 2 when learning is first turned on.
const (
	redisSchemaVersion        = "1"
	redisSchemaVersionClasses = "2"
)

// init checks the key layout version, writing it in a new crawl, and
// with create the crawl marker (meta.created, the time in ms) if missing.
func (s *RedisStore) init(ctx context.Context, create bool) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := s.rdb.Ping(ctx).Err(); err != nil {
		return err
	}
	key := s.key(keyMeta)
	if create {
		if err := s.rdb.HSetNX(ctx, key, metaCreated, time.Now().UnixMilli()).Err(); err != nil {
			return err
		}
	}
	ok, err := s.rdb.HSetNX(ctx, key, metaSchema, redisSchemaVersion).Result()
	if err != nil {
		return err
	}
	if !ok {
		v, err := s.rdb.HGet(ctx, key, metaSchema).Result()
		if err != nil {
			return err
		}
		if v != redisSchemaVersion && v != redisSchemaVersionClasses {
			return fmt.Errorf("key layout version %s, this program reads %s and %s", v, redisSchemaVersion, redisSchemaVersionClasses)
		}
	}
	return nil
}

// key names one of the crawl's keys.
func (s *RedisStore) key(name string) string { return s.prefix + name }

// Prefix is the crawl's key prefix with its hash tag, "{NAME}:".
func (s *RedisStore) Prefix() string { return s.prefix }

// Client gives the Redis client, for tests and tools.
func (s *RedisStore) Client() *redis.Client { return s.rdb }

// Close disconnects.
func (s *RedisStore) Close() error {
	if s.rdb == nil {
		return ErrClosed
	}
	err := s.rdb.Close()
	s.rdb = nil
	return err
}

// Drop deletes every key of the crawl (tests, and starting a crawl over).
func (s *RedisStore) Drop(ctx context.Context) error {
	if s.rdb == nil {
		return ErrClosed
	}
	var cursor uint64
	for {
		keys, next, err := s.rdb.Scan(ctx, cursor, s.prefix+"*", 1000).Result()
		if err != nil {
			return fmt.Errorf("frontier: drop: %w", err)
		}
		// Only keys of this crawl: a prefix that is a prefix of another
		// crawl's name is told apart by the closing brace.
		if len(keys) > 0 {
			if err := s.rdb.Unlink(ctx, keys...).Err(); err != nil {
				return fmt.Errorf("frontier: drop: %w", err)
			}
		}
		if next == 0 {
			return nil
		}
		cursor = next
	}
}

// redisID is the 8-byte key of a URL: its xxhash64, big-endian. A URL
// whose hash is taken by another (a collision) takes the next value, as in
// the SQLite store; the scripts probe for it.
func redisID(u string) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], xxhash.Sum64String(u))
	return string(b[:])
}

// run evaluates a script with the crawl's prefix as its only key and
// args laid out as the script names them (redisScript.args). While
// another client's script runs too long (past lua-time-limit, on a loaded
// server) Redis answers BUSY: the call waits and tries again.
func (s *RedisStore) run(ctx context.Context, sc *redisScript, args scriptRow) (any, error) {
	if s.rdb == nil {
		return nil, ErrClosed
	}
	if err := sc.layout.check(args); err != nil {
		return nil, fmt.Errorf("script %s: %w", sc.name, err)
	}
	wait := 20 * time.Millisecond
	deadline := time.Now().Add(redisTimeout)
	for {
		v, err := sc.Run(ctx, s.rdb, []string{s.prefix}, args...).Result()
		if err == nil || !strings.HasPrefix(err.Error(), "BUSY") || time.Now().After(deadline) {
			return v, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Second)
	}
}

// runJSON runs a script that answers a JSON text, and decodes it into
// out.
func (s *RedisStore) runJSON(ctx context.Context, sc *redisScript, out any, args scriptRow) error {
	v, err := s.run(ctx, sc, args)
	if err != nil {
		return err
	}
	text, err := answerText("JSON answer", v)
	if err != nil {
		return err
	}
	return json.Unmarshal([]byte(text), out)
}

// errNil tells a script's empty answer from a failure.
func errNil(err error) error {
	if errors.Is(err, redis.Nil) {
		return nil
	}
	return err
}

// Capabilities: shared by workers on many machines, and URL classes
// ranked as on SQLite (redis_classes.go).
func (s *RedisStore) Capabilities() Capabilities {
	return Capabilities{Kind: "redis", Shared: true, ClassRanking: true}
}
