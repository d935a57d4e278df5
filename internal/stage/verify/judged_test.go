package verify

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/siteverify"
)

// TestCanceledAreNotVerified: after an interrupt, the sites never started
// get canceled verdicts; the summary used to count them as verified
// ("96 of 96 sites verified").
func TestCanceledAreNotVerified(t *testing.T) {
	var log bytes.Buffer
	r := &runner{s: &cli.Stream{Log: cli.NewLogger("verify", &log, false)},
		g: siteverify.NewGrouper(siteverify.ScopeSite, 0, 0), start: time.Now()}
	for _, u := range []string{"http://a.example.cn/", "http://b.example.com/", "http://c.example.org/", "http://d.example.net/"} {
		r.g.Add(record.URL{URL: u})
	}
	r.count(record.Verdict{Site: "a.example.cn", Relevant: true})
	r.count(record.Verdict{Site: "example.com", Error: siteverify.ErrCanceled.Error()})
	r.count(record.Verdict{Site: "example.org", Error: siteverify.ErrCanceled.Error()})
	r.summarize()
	if !strings.Contains(log.String(), "verify: 1 of 4 sites verified, 2 canceled, 1 not started in ") || !strings.Contains(log.String(), "1 relevant, 0 failed") {
		t.Fatalf("summary %q", log.String())
	}
}
