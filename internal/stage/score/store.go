package score

import (
	"context"
	"fmt"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
)

// The frontier stores are what score --db reads; frontier does not import
// scoring, so the checks live here.
var (
	_ scoring.Store    = (*frontier.SQLiteStore)(nil)
	_ scoring.Replayer = (*frontier.SQLiteStore)(nil)
	_ scoring.Store    = (*frontier.RedisStore)(nil)
	_ scoring.Replayer = (*frontier.RedisStore)(nil)
	_ scoring.Store    = (*frontier.PostgresStore)(nil)
	_ scoring.Replayer = (*frontier.PostgresStore)(nil)
)

// openStore opens the frontier store as the scoring.Store it must offer.
func openStore(path string) (scoring.Store, func(), error) {
	fs, err := frontier.Open(context.Background(), path)
	if err != nil {
		return nil, nil, fmt.Errorf("--db: %w", err)
	}
	st, ok := any(fs).(scoring.Store)
	if !ok {
		fs.Close()
		return nil, nil, fmt.Errorf("--db %s: this build's frontier store does not offer page scores and link edges (scoring.Store)", path)
	}
	return st, func() { fs.Close() }, nil
}

// learningStore is the frontier's side of the learned strategies.
type learningStore interface {
	SetLearning(ctx context.Context, l *frontier.Learning) error
	Learning(ctx context.Context) (*frontier.Learning, error)
}

// startLearning, for a learned strategy (on) with a store, asks the
// frontier to rank queued URLs by how their URL classes fared (class;
// unless its weight is 0) and trains the model on the pages crawled
// before this run. Another strategy with a store turns the frontier's
// learning off, if a learned run left it on.
func startLearning(ctx context.Context, sc *scoring.Scorer, on bool, store scoring.Store, class frontier.Learning, s *cli.Stream) error {
	if store == nil {
		return nil
	}
	ls, ok := store.(learningStore)
	if !ok {
		if on {
			return fmt.Errorf("--db: this build's frontier store cannot learn")
		}
		return nil
	}
	if !on {
		l, err := ls.Learning(ctx)
		if err != nil || l == nil {
			return err
		}
		return ls.SetLearning(ctx, nil)
	}
	var set *frontier.Learning
	if class.Weight > 0 {
		set = &class
	}
	if err := ls.SetLearning(ctx, set); err != nil {
		return fmt.Errorf("--db: %w", err)
	}
	n, err := sc.ReplayCrawl(ctx)
	if err != nil {
		return fmt.Errorf("--db: replay the crawl: %w", err)
	}
	if n > 0 {
		s.Log.Infof("learned model: trained on %d pages crawled before", n)
	}
	return nil
}
