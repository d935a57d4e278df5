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
		if c.usage && (err == nil || !strings.Contains(err.Error(), "robots-unreachable")) {
			t.Errorf("--error %q: %v: want the known kinds listed", c.kind, err)
		}
	}
}
