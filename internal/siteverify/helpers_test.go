package siteverify

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/fetcher"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
	"github.com/focuscrawl/focuscrawl/internal/simweb"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

const bookstoresProfile = "../../examples/topics/bookstores.yaml"

// testWeb is a simulated web served on loopback, and a fetcher that
// reaches it as a proxy.
type testWeb struct {
	web *simweb.Web
	srv *httptest.Server
	f   *fetcher.Fetcher
}

var (
	webOnce sync.Once
	webMemo *simweb.Web
)

// sharedWeb builds the test web once per test binary: the same seed
// always gives the same web.
func sharedWeb() *simweb.Web {
	webOnce.Do(func() { webMemo = simweb.New(simweb.Config{Seed: 7, Sites: 60, NoFaults: true}) })
	return webMemo
}

func newTestWeb(t testing.TB) *testWeb {
	t.Helper()
	w := sharedWeb()
	srv := httptest.NewServer(w.Handler())
	t.Cleanup(srv.Close)
	cfg := fetcher.Defaults()
	cfg.Delay = 0
	cfg.Retries = 0
	cfg.MaxCrawlDelay = 0
	cfg.Timeout = 10 * time.Second
	cfg.Concurrency = 16
	cfg.Proxy = srv.URL
	f, err := fetcher.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return &testWeb{web: w, srv: srv, f: f}
}

func loadProfile(t testing.TB) *topic.Profile {
	t.Helper()
	p, err := topic.Load(bookstoresProfile)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func newJudge(t testing.TB, method string) *DocJudge {
	t.Helper()
	po := scoring.DefaultPageOptions()
	po.Method = method
	j, err := NewJudge(JudgeOptions{Profile: loadProfile(t), Page: po})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func newVerifier(t testing.TB, f Fetcher, j Judge, o Options) *Verifier {
	t.Helper()
	v, err := New(f, j, o)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// verifyHome verifies the site of one home page.
func verifyHome(ctx context.Context, v *Verifier, home string) record.Verdict {
	return v.Verify(ctx, NewSite(v.Key(home), record.URL{URL: home}))
}
