package seed

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/sqlitedb"
)

// TestOpenReadingNeedsNoWriteLock: the commands that only read a frontier
// (stats, peek, report) open it read-only: they answer while a crawl holds
// the write lock, and cannot write. Opened for writing, stats would wait
// for the lock (30 s) and fail.
func TestOpenReadingNeedsNoWriteLock(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "crawl.db")
	s, err := frontier.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Add(ctx, strings.NewReader("http://a.example/\nhttp://b.example/\n"), s, AddOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	writer, err := sqlitedb.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	conn, err := writer.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, "ROLLBACK")

	done := make(chan error, 1)
	var out bytes.Buffer
	go func() {
		r, err := OpenReading(ctx, path)
		if err != nil {
			done <- err
			return
		}
		defer r.Close()
		if err := Stats(ctx, r, &out, frontier.StatsQuery{TopHosts: 10, ErrorKinds: true}, true); err != nil {
			done <- err
			return
		}
		_, err = r.(*frontier.SQLiteStore).DB().Exec(`DELETE FROM info`)
		if err == nil {
			err = errInWrite
		} else {
			err = nil
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("seed stats waits for the write lock of another process: the frontier was not opened read-only")
	}
	if !strings.Contains(out.String(), `"total":2`) {
		t.Errorf("stats %s", out.String())
	}
}

var errInWrite = errors.New("a write went through a frontier opened read-only")

// TestOpenHintsAtTheDirectory: a frontier that cannot be created says
// where to look.
func TestOpenHintsAtTheDirectory(t *testing.T) {
	_, err := frontier.OpenSQLite(filepath.Join(t.TempDir(), "no-such-dir", "crawl.db"))
	if err == nil || !strings.Contains(err.Error(), "exists and is writable") {
		t.Errorf("error %v: want a hint at the directory", err)
	}
}
