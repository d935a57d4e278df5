package frontier

import (
	"context"
	"errors"
)

// ErrNoClassRanking is the answer of a Redis frontier asked to re-rank
// URL classes (score --db with a learned strategy and a class weight).
var ErrNoClassRanking = errors.New("the Redis frontier does not re-rank URL classes yet " +
	"(use a SQLite frontier, or --class-weight 0 to learn without it)")

// SetLearning refuses the URL-class re-ranking the SQLite store does
// (sqlite_classes.go); turning it off (nil) is a no-op, so a learned
// strategy with --class-weight 0 runs on Redis.
func (s *RedisStore) SetLearning(ctx context.Context, l *Learning) error {
	if s.rdb == nil {
		return ErrClosed
	}
	if l != nil {
		return ErrNoClassRanking
	}
	return nil
}

// Learning reports that the frontier does not learn: nil.
func (s *RedisStore) Learning(ctx context.Context) (*Learning, error) {
	if s.rdb == nil {
		return nil, ErrClosed
	}
	return nil, nil
}
