package seed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"
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

// failingStore fails its Apply calls after the first ok ones, and records
// whether two ran at once.
type failingStore struct {
	frontier.Store
	ok              int
	calls, inFlight atomic.Int32
	overlapped      atomic.Bool
}

var errApplyFails = errors.New("apply fails")

func (f *failingStore) Apply(ctx context.Context, b frontier.Batch) (frontier.Applied, error) {
	if f.inFlight.Add(1) > 1 {
		f.overlapped.Store(true)
	}
	defer f.inFlight.Add(-1)
	time.Sleep(20 * time.Millisecond) // as a server would take
	if int(f.calls.Add(1)) > f.ok {
		return frontier.Applied{}, errApplyFails
	}
	return f.Store.Apply(ctx, b)
}

// A batch is applied while the next is read (one Apply at a time, in
// order); an Apply that fails stops Add with its error, and the summary
// counts what the batches applied before it queued. (The stream is not
// closed: its reader may still be reading when the run stops.)
func TestAddApplyFails(t *testing.T) {
	f := &failingStore{Store: openStore(t), ok: 2}
	var in strings.Builder
	for i := range 5 * addBatchSize {
		fmt.Fprintf(&in, "http://h%d.example/%d\n", i%40, i)
	}
	sum, err := AddStream(context.Background(), cli.NewStream(strings.NewReader(in.String()), io.Discard, nil), f, AddOptions{})
	if !errors.Is(err, errApplyFails) {
		t.Fatalf("Add: %v, want the Apply's error", err)
	}
	st, serr := f.Stats(context.Background(), frontier.StatsQuery{})
	if serr != nil {
		t.Fatal(serr)
	}
	if sum.Queued == 0 || int64(sum.Queued) != st.Total {
		t.Errorf("summary %s: want the %d URLs the 2 batches applied queued", sum, st.Total)
	}
	if f.overlapped.Load() {
		t.Error("two Apply calls ran at once")
	}
	// After the failing third, the batch read meanwhile may be tried.
	if n := f.calls.Load(); n < 3 || n > 4 {
		t.Errorf("%d Apply calls, want the failing third and at most one more", n)
	}
}
