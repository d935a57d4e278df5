package score

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

// crawlInfo is the part of a frontier store that keeps facts about the
// crawl, for seed report.
type crawlInfo interface {
	Info(ctx context.Context) (map[string]string, error)
	SetInfo(ctx context.Context, kv map[string]string) error
}

// recordCrawl writes the topic, link strategy and page method of this run
// into the frontier store (score --db), so seed report can tell which
// crawl used what. A value differing from the last one recorded is added
// after it: "shark, heuristic" is a crawl resumed with another strategy.
// The run's start (now) is added to the list of runs, and its page
// threshold replaces the last one.
func recordCrawl(ctx context.Context, store any, prof *topic.Profile, cfg scoring.Config, threshold float64, now time.Time) error {
	ci, ok := store.(crawlInfo)
	if !ok {
		return nil
	}
	info, err := ci.Info(ctx)
	if err != nil {
		return fmt.Errorf("--db: %w", err)
	}
	kv := map[string]string{}
	for key, v := range map[string]string{frontier.InfoTopic: prof.Name, frontier.InfoLinks: cfg.Links.Base(), frontier.InfoPage: cfg.Page.Method} {
		if list := appendUsed(info[key], v); list != info[key] {
			kv[key] = list
		}
	}
	kv[frontier.InfoThreshold] = strconv.FormatFloat(threshold, 'g', -1, 64)
	run := now.UTC().Format(time.RFC3339)
	if info[frontier.InfoRuns] != "" {
		run = info[frontier.InfoRuns] + ", " + run
	}
	kv[frontier.InfoRuns] = run
	if err := ci.SetInfo(ctx, kv); err != nil {
		return fmt.Errorf("--db: %w", err)
	}
	return nil
}

// appendUsed adds v to the comma-separated list unless it is its last.
func appendUsed(list, v string) string {
	if v == "" {
		return list
	}
	used := strings.Split(list, ", ")
	if list == "" {
		return v
	}
	if used[len(used)-1] == v {
		return list
	}
	return list + ", " + v
}
