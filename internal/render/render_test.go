package render

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/fetcher"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/render/testweb"
)

// chromium finds Debian's chromium (or FOCUSCRAWL_CHROMIUM). Without it
// the browser tests skip on a developer's machine and fail in CI
// (CI=true), where .ci/run installs it.
func chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("FOCUSCRAWL_CHROMIUM"); p != "" {
		return p
	}
	if p, err := FindChromium(""); err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found (apt-get install -y chromium): the render tests cannot run in CI")
	}
	t.Skip("chromium not found (apt-get install -y chromium, or set FOCUSCRAWL_CHROMIUM)")
	return ""
}

// webSetup serves h on loopback as any host name on its port, with a
// fetcher whose every host name on that port resolves to it.
type webSetup struct {
	srv  *httptest.Server
	port string
	f    *fetcher.Fetcher
}

func newSetup(t testing.TB, h http.Handler, cfg fetcher.Config) *webSetup {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	cfg.Resolve = map[string]string{"*:" + port: "127.0.0.1"}
	f, err := fetcher.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return &webSetup{srv: srv, port: port, f: f}
}

func (s *webSetup) url(host, path string) string { return "http://" + host + ":" + s.port + path }

func fastFetcher() fetcher.Config {
	c := fetcher.Defaults()
	c.Delay, c.Timeout, c.Retries = 0, 10*time.Second, 0
	return c
}

func newRenderer(t testing.TB, cfg Config, res ResourceFetcher) *Renderer {
	t.Helper()
	cfg.Chromium = chromium(t)
	r, err := New(cfg, res)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

var scriptElem = regexp.MustCompile(`(?is)<script\b.*?</script>`)

// shown is the HTML without its scripts: what a reader (and segment) sees.
func shown(html string) string { return scriptElem.ReplaceAllString(html, "") }

// TestRenderTestWeb renders every page of the test web: the script-built
// content is found (≥ 98% of the markers), static pages keep theirs, the
// page that never settles is cut within the cap, and no image, stylesheet
// or third-party request left the browser.
func TestRenderTestWeb(t *testing.T) {
	web := testweb.New(2)
	var third atomic.Int64
	web.ThirdHit = func(string) { third.Add(1) }
	s := newSetup(t, web, fastFetcher())
	timeout := 12 * time.Second // endless pages take 2–4 s alone, more on a loaded machine
	r := newRenderer(t, Config{Tabs: 2, Timeout: timeout}, s.f)
	pages := web.Pages()
	var wg sync.WaitGroup
	results := make([]record.Page, len(pages))
	for i, p := range pages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pg := s.f.Fetch(context.Background(), record.URL{URL: s.url("web.example", p.Path)})
			if pg.Error == "" {
				r.Render(context.Background(), &pg)
			}
			results[i] = pg
		}()
	}
	wg.Wait()
	var want, found int
	for i, p := range pages {
		pg := results[i]
		if pg.Error != "" || !pg.Rendered || pg.Status != 200 || pg.Charset == "" {
			t.Errorf("%s: not rendered: rendered=%v status=%d error=%q", p.Path, pg.Rendered, pg.Status, pg.Error)
			continue
		}
		text := shown(pg.HTML)
		for _, m := range p.Markers {
			if p.NeedsJS {
				want++
			}
			if strings.Contains(text, m) {
				if p.NeedsJS {
					found++
				}
			} else {
				t.Logf("%s: %q not in the rendered page", p.Path, m)
				if !p.NeedsJS {
					t.Errorf("%s: static marker %q lost", p.Path, m)
				}
			}
		}
		if p.Endless != pg.RenderCut {
			t.Errorf("%s: render_cut %v, want %v", p.Path, pg.RenderCut, p.Endless)
		}
		if pg.RenderMS > (timeout + time.Second).Milliseconds() {
			t.Errorf("%s: rendering took %d ms, over the %v cap", p.Path, pg.RenderMS, timeout)
		}
	}
	share := float64(found) / float64(want)
	t.Logf("script-built content found: %d/%d markers (%.1f%%)", found, want, 100*share)
	if share < 0.98 {
		t.Errorf("found %.3f of the script-built content, want ≥ 0.98", share)
	}
	for _, prefix := range []string{"/img/", "/css/", "/font/"} {
		if n := web.Hits(prefix); n > 0 {
			t.Errorf("%d requests for %s: images, fonts and stylesheets must not be downloaded", n, prefix)
		}
	}
	if n := third.Load(); n > 0 {
		t.Errorf("%d third-party requests, want none by default", n)
	}
	if st := r.Stats(); st.Requests.Load() == 0 || st.Blocked.Load() == 0 {
		t.Errorf("stats: %d requests %d blocked", st.Requests.Load(), st.Blocked.Load())
	}
}

// TestRenderGuards: a page's scripts cannot reach what a fetch may not —
// a path robots.txt disallows, a loopback address (even as an allowed
// third party) — and a third party is refused unless allowed.
func TestRenderGuards(t *testing.T) {
	var secretHits atomic.Int64
	secret := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secretHits.Add(1)
		w.Write([]byte("secret"))
	}))
	defer secret.Close()
	var mu sync.Mutex
	hits := map[string]int{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.Host+r.URL.Path]++
		mu.Unlock()
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
		case "/page":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<div id=out></div><script>
function add(t) { var p = document.createElement('p'); p.textContent = t; document.getElementById('out').appendChild(p); }
function get(u, name) { fetch(u).then(function (r) { return r.text(); }).then(function (t) { add(name + ':' + t); }, function () { add(name + ':refused'); }); }
get('/private/x', 'robots'); get('` + secret.URL + `/', 'loopback'); get('http://other.example:PORT/data', 'third'); get('/open', 'open');
</script>`))
		default:
			// Cross-origin reads need CORS, in a browser as on the web.
			w.Header().Set("Access-Control-Allow-Origin", "*")
			w.Write([]byte("ok"))
		}
	})
	for _, thirdParty := range []bool{false, true} {
		cfg := fastFetcher()
		s := newSetup(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/page" {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, r)
				w.Header().Set("Content-Type", "text/html")
				w.Write([]byte(strings.ReplaceAll(rec.Body.String(), "PORT", r.Host[strings.LastIndex(r.Host, ":")+1:])))
				return
			}
			h.ServeHTTP(w, r)
		}), cfg)
		r := newRenderer(t, Config{Timeout: 8 * time.Second, ThirdParty: thirdParty}, s.f)
		pg := s.f.Fetch(context.Background(), record.URL{URL: s.url("web.example", "/page")})
		r.Render(context.Background(), &pg)
		if pg.Error != "" {
			t.Fatalf("third party %v: %s", thirdParty, pg.Error)
		}
		wantThird := "third:refused"
		if thirdParty {
			wantThird = "third:ok"
		}
		for _, want := range []string{"robots:refused", "loopback:refused", wantThird, "open:ok"} {
			if !strings.Contains(pg.HTML, want) {
				t.Errorf("third party %v: %q not in %s", thirdParty, want, pg.HTML)
			}
		}
		mu.Lock()
		if n := hits["web.example:"+s.port+"/private/x"]; n > 0 {
			t.Errorf("robots.txt-disallowed path requested %d times", n)
		}
		mu.Unlock()
	}
	if n := secretHits.Load(); n > 0 {
		t.Errorf("the loopback server got %d requests from rendering: the address guard must refuse them", n)
	}
}

// TestRenderBudget: a rendered page's requests to its host wait the host's
// delay, as pages do.
func TestRenderBudget(t *testing.T) {
	var mu sync.Mutex
	var times []time.Time
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
		if r.URL.Path == "/page" {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<div id=o></div><script src="/a.js"></script><script>fetch('/b.json').then(r => r.text()).then(t => document.getElementById('o').textContent = t)</script>`))
			return
		}
		w.Write([]byte(`"x"`))
	})
	cfg := fastFetcher()
	cfg.Delay = 400 * time.Millisecond
	s := newSetup(t, h, cfg)
	r := newRenderer(t, Config{Timeout: 10 * time.Second}, s.f)
	pg := s.f.Fetch(context.Background(), record.URL{URL: s.url("web.example", "/page")})
	r.Render(context.Background(), &pg)
	if pg.Error != "" || pg.RenderRequests != 2 {
		t.Fatalf("render: error %q, %d requests, want 2", pg.Error, pg.RenderRequests)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(times) != 3 {
		t.Fatalf("%d requests, want the page and 2 from its scripts", len(times))
	}
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < cfg.Delay-20*time.Millisecond {
			t.Errorf("request %d came %v after the one before, under the host's delay %v", i, gap, cfg.Delay)
		}
	}
}

// TestRenderCrashAndCancel: a browser killed under a page is restarted and
// the page tried again; killed twice, the page is an error record naming
// the crash; a cancelled render is answered "canceled".
func TestRenderCrashAndCancel(t *testing.T) {
	web := testweb.New(1)
	s := newSetup(t, web, fastFetcher())
	r := newRenderer(t, Config{Timeout: 4 * time.Second}, s.f)
	fetch := func() record.Page {
		return s.f.Fetch(context.Background(), record.URL{URL: s.url("web.example", "/ticker/0")})
	}
	kill := func() bool {
		if pid := r.browserPID(); pid != 0 {
			syscall.Kill(pid, syscall.SIGKILL)
			return true
		}
		return false
	}
	killAfter := func(d time.Duration, times int) {
		go func() {
			for k := 0; k < times; {
				time.Sleep(d)
				if kill() {
					k++
				}
			}
		}()
	}

	pg := fetch()
	killAfter(time.Second, 1)
	r.Render(context.Background(), &pg)
	if pg.Error != "" || !pg.Rendered || r.Restarts() != 1 {
		t.Errorf("killed once: error %q rendered %v restarts %d; want rendered after 1 restart", pg.Error, pg.Rendered, r.Restarts())
	}

	pg = fetch()
	killAfter(800*time.Millisecond, 2)
	r.Render(context.Background(), &pg)
	if pg.Error != errCrashed.Error() {
		t.Errorf("killed twice: error %q, want %q", pg.Error, errCrashed)
	}
	if pg.HTML != "" || pg.Status != 200 {
		t.Errorf("killed twice: the error record should keep status 200 and drop html: %d %d bytes", pg.Status, len(pg.HTML))
	}

	warm := s.f.Fetch(context.Background(), record.URL{URL: s.url("web.example", "/static/0")})
	r.Render(context.Background(), &warm) // a browser runs again
	pg = fetch()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(time.Second, cancel)
	start := time.Now()
	r.Render(ctx, &pg)
	if pg.Error != fetcher.KindCanceled || time.Since(start) > 2*time.Second {
		t.Errorf("cancelled: error %q after %v, want canceled at once", pg.Error, time.Since(start))
	}
}

// TestNoChromium: a missing browser is one clear error at start-up.
func TestNoChromium(t *testing.T) {
	_, err := New(Config{Chromium: "/nonexistent/chromium"}, nil)
	if !errors.Is(err, ErrNoChromium) || !strings.Contains(err.Error(), "/nonexistent/chromium") {
		t.Errorf("error %v, want ErrNoChromium naming the path", err)
	}
	if _, err := exec.LookPath("chromium"); err == nil {
		if p, err := FindChromium(""); err != nil || p == "" {
			t.Errorf("FindChromium: %q %v", p, err)
		}
	}
}
