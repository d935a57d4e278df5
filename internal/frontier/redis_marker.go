package frontier

import (
	"context"
	"fmt"
	"time"
)

// mustExist refuses a crawl that was never begun under this prefix: its
// marker (meta.created, written when a frontier is opened to be written,
// as seed add does) is missing. A mistyped prefix, or a server that
// restarted without keeping its data, would otherwise be an empty
// frontier that a resumed crawl "finishes" at once. A crawl from before
// the marker is known by its URLs (meta.seq).
func (s *RedisStore) mustExist(ctx context.Context, name string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	vals, err := s.rdb.HMGet(ctx, s.key(keyMeta), metaCreated, metaSeq).Result()
	if err != nil {
		return err
	}
	if vals[0] != nil {
		return nil
	}
	if seq, _ := vals[1].(string); seq != "" && seq != "0" {
		return nil
	}
	return fmt.Errorf("%w: no crawl under prefix %q on this server (its marker, field created of %smeta, is missing): "+
		"a mistyped prefix, or a Redis that lost its data in a restart", ErrNoFrontier, name, s.prefix)
}

// Marked tells whether the crawl's marker is there (tests and tools).
func (s *RedisStore) Marked(ctx context.Context) (bool, error) {
	return s.rdb.HExists(ctx, s.key(keyMeta), metaCreated).Result()
}

// PersistenceWarning says, in one line, that the Redis server keeps
// nothing on disk (no RDB snapshots: save ""; no append-only file:
// appendonly no), so that a restart loses the whole crawl. It is "" when
// the server keeps its data, and when it does not let the client read
// its configuration (CONFIG is often renamed or refused on managed
// servers): nothing is said then.
func (s *RedisStore) PersistenceWarning(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	get := func(param string) (string, bool) {
		m, err := s.rdb.ConfigGet(ctx, param).Result()
		if err != nil {
			return "", false
		}
		v, ok := m[param]
		return v, ok
	}
	save, ok1 := get("save")
	aof, ok2 := get("appendonly")
	if !ok1 || !ok2 {
		return ""
	}
	return persistenceWarning(s.rdb.Options().Addr, s.prefix, save, aof)
}

// persistenceWarning is PersistenceWarning's rule on the two settings.
func persistenceWarning(addr, prefix, save, appendonly string) string {
	if save != "" || appendonly != "no" {
		return ""
	}
	return fmt.Sprintf("the Redis server at %s keeps nothing on disk (save \"\", appendonly no): a restart loses the crawl %s*; "+
		"turn on appendonly yes (or RDB snapshots) on a server that holds a crawl", addr, prefix)
}
