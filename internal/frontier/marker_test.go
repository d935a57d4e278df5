package frontier

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestNeverBegunFrontierRefused: a Redis prefix no crawl was begun under
// (a typo, or a server that came back empty from a restart) and a
// PostgreSQL schema without the crawl's tables are ErrNoFrontier for the
// commands that resume or read a crawl, and naming them leaves nothing
// behind; once a frontier is opened to be written (seed add) it exists.
func TestNeverBegunFrontierRefused(t *testing.T) {
	ctx := context.Background()
	t.Run("redis", func(t *testing.T) {
		probe, _ := openTestRedis(t) // skips without a server
		name := fmt.Sprintf("test-unbegun-%d-%d", os.Getpid(), time.Now().UnixNano())
		dsn := testRedisURL() + "?prefix=" + name
		for fn, open := range map[string]func(context.Context, string) (Store, error){"OpenExisting": OpenExisting, "OpenReading": OpenReading} {
			_, err := open(ctx, dsn)
			if !errors.Is(err, ErrNoFrontier) {
				t.Fatalf("%s of a prefix never begun: %v, want ErrNoFrontier", fn, err)
			}
			if !strings.Contains(err.Error(), `prefix "`+name+`"`) {
				t.Errorf("%s: the error does not name the prefix: %v", fn, err)
			}
		}
		if n, err := probe.Client().Exists(ctx, "{"+name+"}:meta").Result(); err != nil || n != 0 {
			t.Errorf("refusing the prefix wrote its meta key (exists %d, %v)", n, err)
		}
		s, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = s.(*RedisStore).Drop(ctx); s.Close() }()
		if ok, err := s.(*RedisStore).Marked(ctx); err != nil || !ok {
			t.Fatalf("Open did not mark the crawl begun (%v, %v)", ok, err)
		}
		r, err := OpenExisting(ctx, dsn)
		if err != nil {
			t.Fatalf("OpenExisting after Open: %v", err)
		}
		r.Close()
		// A crawl written before the marker existed is known by its URLs.
		if err := probe.Client().HDel(ctx, s.(*RedisStore).key("meta"), "created").Err(); err != nil {
			t.Fatal(err)
		}
		if _, err := OpenExisting(ctx, dsn); !errors.Is(err, ErrNoFrontier) {
			t.Fatalf("no marker and no URLs: %v, want ErrNoFrontier", err)
		}
		if _, err := s.Apply(ctx, Batch{Queue: benchEntries(0, 1)}); err != nil {
			t.Fatal(err)
		}
		if r, err := OpenReading(ctx, dsn); err != nil {
			t.Errorf("a crawl with URLs and no marker (an older build's): %v", err)
		} else {
			r.Close()
		}
	})
	t.Run("postgres", func(t *testing.T) {
		openTestPostgres(t) // skips without a server
		schema := fmt.Sprintf("test_unbegun_%d_%d", os.Getpid(), time.Now().UnixNano())
		sep := "?"
		if strings.Contains(testPostgresURL(), "?") {
			sep = "&"
		}
		dsn := testPostgresURL() + sep + "schema=" + schema
		_, err := OpenExisting(ctx, dsn)
		if !errors.Is(err, ErrNoFrontier) || !strings.Contains(err.Error(), `schema "`+schema+`"`) {
			t.Fatalf("OpenExisting of a schema never begun: %v, want ErrNoFrontier naming it", err)
		}
		s, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = s.(*PostgresStore).Drop(ctx); s.Close() }()
		r, err := OpenReading(ctx, dsn)
		if err != nil {
			t.Fatalf("OpenReading after Open: %v", err)
		}
		r.Close()
	})
}

// TestPersistenceWarningRule: only a server with neither RDB snapshots
// nor an append-only file is warned of.
func TestPersistenceWarningRule(t *testing.T) {
	for _, tc := range []struct {
		save, aof string
		warn      bool
	}{
		{"", "no", true},
		{"3600 1 300 100 60 10000", "no", false},
		{"", "yes", false},
		{"900 1", "yes", false},
	} {
		got := persistenceWarning("127.0.0.1:6379", "{x}:", tc.save, tc.aof)
		if (got != "") != tc.warn {
			t.Errorf("save %q appendonly %q: warning %q, want one: %v", tc.save, tc.aof, got, tc.warn)
		}
	}
}

// TestPersistenceWarning asks a Redis server of the test's own: warned of
// while it keeps nothing on disk, not once an append-only file is on, and
// nothing said when the server refuses CONFIG.
func TestPersistenceWarning(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("no redis-server to start")
	}
	ctx := context.Background()
	start := func(t *testing.T, extra ...string) string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		args := append([]string{"--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
			"--dir", t.TempDir()}, extra...)
		cmd := exec.Command("redis-server", args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		return fmt.Sprintf("redis://127.0.0.1:%d/0?prefix=p&outage_wait=5s", port)
	}
	open := func(t *testing.T, dsn string) *RedisStore {
		var err error
		for i := 0; i < 50; i++ {
			var s *RedisStore
			if s, err = OpenRedis(ctx, dsn); err == nil {
				t.Cleanup(func() { s.Close() })
				return s
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatal(err)
		return nil
	}
	s := open(t, start(t))
	msg := s.PersistenceWarning(ctx)
	if !strings.Contains(msg, "keeps nothing on disk") || !strings.Contains(msg, "{p}:") {
		t.Errorf("no persistence: warning %q", msg)
	}
	if err := s.Client().ConfigSet(ctx, "appendonly", "yes").Err(); err != nil {
		t.Fatal(err)
	}
	if msg := s.PersistenceWarning(ctx); msg != "" {
		t.Errorf("with an append-only file: warning %q", msg)
	}
	refusing := open(t, start(t, "--rename-command", "CONFIG", ""))
	if msg := refusing.PersistenceWarning(ctx); msg != "" {
		t.Errorf("CONFIG refused: warning %q, want nothing said", msg)
	}
}
