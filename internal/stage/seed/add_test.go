package seed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

func openStore(t *testing.T) *frontier.SQLiteStore {
	t.Helper()
	s, err := frontier.OpenSQLite(filepath.Join(t.TempDir(), "crawl.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func lease(t *testing.T, s frontier.Store, n int) []string {
	t.Helper()
	us, err := s.Lease(context.Background(), frontier.LeaseRequest{N: n, For: time.Minute, Owner: 1})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range us {
		got = append(got, u.URL)
	}
	return got
}

// Add from Go, with more workers than lines in flight: URLs reach the
// frontier in input order (the oldest of equal priority leases first), a
// URL queued and then returned in the next line is done, and priorities
// come from the records.
func TestAddInOrder(t *testing.T) {
	s := openStore(t)
	var in strings.Builder
	var want []string
	for i := range 2000 {
		u := fmt.Sprintf("http://h%d.example/%d", i%40, i)
		fmt.Fprintf(&in, "%s\n", u)
		if i%10 == 0 {
			fmt.Fprintf(&in, `{"url":%q,"status":200,"links":[]}`+"\n", u)
			continue
		}
		want = append(want, u)
	}
	in.WriteString("# a comment\n")
	in.WriteString(`{"url":"http://top.example/","priority":0.9}` + "\n")
	sum, err := Add(context.Background(), strings.NewReader(in.String()), s,
		AddOptions{Workers: 8, Ingest: frontier.IngestOptions{SeedPriority: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Records != 2201 || sum.Done != 200 {
		t.Errorf("summary %s", sum)
	}
	got := lease(t, s, 5000)
	if len(got) != len(want)+1 || got[0] != "http://top.example/" {
		t.Fatalf("leased %d URLs, first %v", len(got), got[:1])
	}
	for i, u := range got[1:] {
		if u != want[i] {
			t.Fatalf("lease %d is %s, want %s", i+1, u, want[i])
		}
	}
}

func TestAddRejects(t *testing.T) {
	s := openStore(t)
	var log strings.Builder
	sum, err := Add(context.Background(), strings.NewReader("http://a.example/\n{\"status\":200}\nhttp://b.example/\n"), s,
		AddOptions{Log: cli.NewLogger("seed", &log, false)})
	if !errors.Is(err, cli.ErrRejected) || !strings.Contains(log.String(), `missing "url" field`) {
		t.Errorf("error %v, log %q", err, log.String())
	}
	if sum.Queued != 2 || !strings.Contains(log.String(), "2 records: 0 pages recorded, 2 URLs queued") {
		t.Errorf("summary %s, log %q", sum, log.String())
	}
}

// A batch is written when the input pauses, without waiting for more
// lines: a page in a crawl loop is recorded at once.
func TestAddWritesWhenInputPauses(t *testing.T) {
	s := openStore(t)
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, err := Add(context.Background(), pr, s, AddOptions{})
		done <- err
	}()
	if _, err := io.WriteString(pw, "http://a.example/\n"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := s.Counts(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if c.Queued {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the URL is not queued while the input is open")
		}
		time.Sleep(10 * time.Millisecond)
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
