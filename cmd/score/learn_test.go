package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// TestLearnedTurnsFrontierLearningOn: score --db with a learned strategy
// asks the frontier to learn, with the --class-* flags; another strategy
// turns it off again. On a SQLite file and on Redis (skipped without a
// server, except under CI), the stores that rank URL classes.
func TestLearnedTurnsFrontierLearningOn(t *testing.T) {
	redisURL := os.Getenv("FOCUSCRAWL_TEST_REDIS")
	if redisURL == "" {
		redisURL = "redis://127.0.0.1:6379/15"
	}
	for _, kind := range []string{"sqlite", "redis"} {
		t.Run(kind, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "crawl.db")
			if kind == "redis" {
				db = fmt.Sprintf("%s?prefix=score-learn-%d-%d", redisURL, os.Getpid(), time.Now().UnixNano())
				s, err := frontier.OpenRedis(context.Background(), db)
				if err != nil {
					if os.Getenv("CI") != "" {
						t.Fatalf("Redis is needed under CI: %v", err)
					}
					t.Skipf("no Redis server: %v", err)
				}
				t.Cleanup(func() { s.Drop(context.Background()); s.Close() })
			}
			testLearnedTurnsLearningOn(t, db)
		})
	}
}

func testLearnedTurnsLearningOn(t *testing.T, db string) {
	learning := func() *frontier.Learning {
		t.Helper()
		s, err := frontier.Open(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		l, err := s.Learning(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	code, out, stderr := run(t, "--topic", "testdata/forest.yaml", "--links", "shark+learned", "--db", db, "-q",
		"--class-weight", "0.7", "--class-pseudo", "6", "testdata/docs.jsonl")
	if code != cli.ExitRejected || len(out) != 3 {
		t.Fatalf("exit %d, %d docs, stderr %q", code, len(out), stderr)
	}
	if l := learning(); l == nil || l.Weight != 0.7 || l.Pseudo != 6 || l.Epsilon != frontier.DefaultLearning().Epsilon {
		t.Fatalf("frontier learning %+v, want weight 0.7, pseudo 6", l)
	}
	if code, _, stderr := run(t, "--topic", "testdata/forest.yaml", "--links", "shark", "--db", db, "-q", "testdata/docs.jsonl"); code != cli.ExitRejected {
		t.Fatalf("shark: exit %d, %s", code, stderr)
	}
	if l := learning(); l != nil {
		t.Fatalf("frontier learning %+v after a shark run, want off", l)
	}
}

func TestLearnedFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--links", "ipagerank+learned"},
		{"--links", "shark+learned", "--learn-weight", "2"},
		{"--links", "shark+learned", "--class-pseudo", "0"},
		{"--links", "shark+learned", "--learn-rate", "0"},
	} {
		code, _, stderr := run(t, append([]string{"--topic", "testdata/forest.yaml"}, append(args, "testdata/docs.jsonl")...)...)
		if code != cli.ExitUsage || !strings.Contains(stderr, args[len(args)-2]) {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}
