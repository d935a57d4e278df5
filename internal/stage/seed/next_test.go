package seed

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// Next from Go leases the best URLs as url records, at most PerHost per
// host; Peek and Stats show the frontier without changing it.
func TestNextPeekStats(t *testing.T) {
	s := openStore(t)
	in := "http://a.example/1\nhttp://a.example/2\nhttp://a.example/3\n{\"url\":\"http://b.example/\",\"priority\":0.9}\n"
	if _, err := Add(context.Background(), strings.NewReader(in), s, AddOptions{Ingest: frontier.IngestOptions{SeedPriority: 0.5}}); err != nil {
		t.Fatal(err)
	}
	var peek bytes.Buffer
	if err := Peek(context.Background(), s, &peek, 1, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(peek.String(), "0.9000") || !strings.Contains(peek.String(), "http://b.example/") {
		t.Errorf("peek:\n%s", peek.String())
	}
	var out, log bytes.Buffer
	err := Next(context.Background(), s, &out, cli.NewLogger("seed", &log, false),
		NextOptions{N: 10, PerHost: 2, Lease: time.Minute, Poll: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `"url":"http://b.example/"`) || !strings.Contains(log.String(), "leased 3 URLs") {
		t.Errorf("leased:\n%s\nlog: %s", out.String(), log.String())
	}
	var stats bytes.Buffer
	if err := Stats(context.Background(), s, &stats, 5, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"URLs  4", "queued  1", "leased  3"} {
		if !strings.Contains(strings.Join(strings.Fields(stats.String()), "  "), want) {
			t.Errorf("stats lack %q:\n%s", want, stats.String())
		}
	}
}
