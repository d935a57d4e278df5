package seed

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// TestRequeueUnknownKind: a kind that is no kind of error (a typo) is a
// usage error listing the kinds, not "requeued 0"; a known kind that
// matches nothing, and a kind of one's own stage that matches, are fine.
func TestRequeueUnknownKind(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	in := `{"url":"http://a.example/1","status":0,"error":"segment: broken"}` + "\n"
	if _, err := Add(ctx, strings.NewReader(in), s, AddOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind  string
		usage bool
	}{{"bogus", true}, {"http 40", true}, {"dns", false}, {"http 404", false}, {"5xx", false}, {"segment", false}} {
		err := Requeue(ctx, s, io.Discard, frontier.RequeueFilter{Kind: c.kind}, false)
		var ue *cli.UsageError
		if got := errors.As(err, &ue); got != c.usage {
			t.Errorf("--error %q: error %v, want a usage error: %v", c.kind, err, c.usage)
		}
		if c.usage && (err == nil || !strings.Contains(err.Error(), "robots-unreachable") ||
			!strings.Contains(err.Error(), "this frontier's failed URLs: segment (1);")) {
			t.Errorf("--error %q: %v: want the known kinds and this frontier's listed", c.kind, err)
		}
	}
}

// TestStatsListsErrorKinds: seed stats lists the failed URLs by kind of
// error, the names seed requeue --error takes, and after a requeue the
// failures it queued again, which the frontier keeps as history.
func TestStatsListsErrorKinds(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	in := `{"url":"http://a.example/1","status":404,"error":"http 404"}` + "\n" +
		`{"url":"http://a.example/2","status":404,"error":"http 404"}` + "\n" +
		`{"url":"http://b.example/1","status":0,"error":"connect: connection refused"}` + "\n"
	if _, err := Add(ctx, strings.NewReader(in), s, AddOptions{}); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := Stats(ctx, s, &out, frontier.StatsQuery{ErrorKinds: true}, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"error kind  failed  requeued before", "http 404    2       0", "connect     1       0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("seed stats lacks %q:\n%s", want, out.String())
		}
	}
	if err := Requeue(ctx, s, io.Discard, frontier.RequeueFilter{Kind: "connect"}, false); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := Stats(ctx, s, &out, frontier.StatsQuery{ErrorKinds: true}, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"http 404    2       0", "connect     0       1"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("after requeue, seed stats lacks %q:\n%s", want, out.String())
		}
	}
}

// TestStatsTableIsPrintable: what seed stats prints of hosts and of a
// parked host's reason (a server's answer, quoted) carries no terminal
// control characters.
func TestStatsTableIsPrintable(t *testing.T) {
	st := &frontier.Stats{
		TopHosts:    []frontier.HostStat{{Host: "evil.test\x1b[2J"}},
		ParkedHosts: []frontier.ParkedHost{{Host: "down.test", Reason: "http 503: \x1b]0;PWNED\x07\x1b[2Jbusy\x07"}},
		Refused:     map[string]int64{"scope": 1},
	}
	var b strings.Builder
	if err := writeStatsTable(&b, st, frontier.StatsQuery{TopHosts: 10, ErrorKinds: true}); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); strings.ContainsAny(out, "\x1b\x07") || strings.Contains(out, "PWNED") || !strings.Contains(out, "http 503: busy") {
		t.Fatalf("seed stats prints control characters, or lost the reason:\n%q", out)
	}
}
