package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/simweb"
)

// hostMonitor wraps a web and records every request: which worker asked
// (by User-Agent), for what, and the most requests one host ever had in
// flight at once. robots.txt is left out of the per-host count: each
// worker's fetcher reads it once per host, outside the frontier's leases.
type hostMonitor struct {
	next http.Handler

	mu       sync.Mutex
	inFlight map[string]int
	maxHost  map[string]int
	byURL    map[string]int
	byWorker map[string][]string
}

func newHostMonitor(next http.Handler) *hostMonitor {
	return &hostMonitor{next: next, inFlight: map[string]int{}, maxHost: map[string]int{},
		byURL: map[string]int{}, byWorker: map[string][]string{}}
}

func (m *hostMonitor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	if r.URL.Host != "" {
		host = r.URL.Host
	}
	u := "http://" + host + r.URL.RequestURI()
	page := r.URL.Path != "/robots.txt"
	m.mu.Lock()
	if page {
		m.inFlight[host]++
		m.maxHost[host] = max(m.maxHost[host], m.inFlight[host])
		m.byURL[u]++
		m.byWorker[r.UserAgent()] = append(m.byWorker[r.UserAgent()], u)
	}
	m.mu.Unlock()
	defer func() {
		if page {
			m.mu.Lock()
			m.inFlight[host]--
			m.mu.Unlock()
		}
	}()
	m.next.ServeHTTP(w, r)
}

func (m *hostMonitor) pages() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, c := range m.byURL {
		n += c
	}
	return n
}

// redisTestURL is the Redis database of these tests.
func redisTestURL(t *testing.T) string {
	t.Helper()
	base := os.Getenv("FOCUSCRAWL_TEST_REDIS")
	if base == "" {
		base = "redis://127.0.0.1:6379/15"
	}
	dsn := fmt.Sprintf("%s?prefix=e2e-%d-%d", base, os.Getpid(), time.Now().UnixNano())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := frontier.OpenRedis(ctx, dsn)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("Redis is needed for this test under CI: %v", err)
		}
		t.Skipf("no Redis server: %v", err)
	}
	t.Cleanup(func() {
		_ = s.Drop(context.Background())
		s.Close()
	})
	return dsn
}

// redisCrawl is a crawl of simweb by n crawl.sh pipes sharing one Redis
// frontier, each fetching as User-Agent workerN.
type redisCrawl struct {
	t        *testing.T
	bin, dsn string
	dir      string
	workers  []*crawlWorker
}

type crawlWorker struct {
	cmd     *exec.Cmd
	stderr  bytes.Buffer
	archive string
	done    chan error
}

const (
	redisPages    = 400
	redisInFlight = 16
	redisPerHost  = 2
)

// startRedisCrawl adds the seeds and starts n workers on a frontier of
// its own, made by frontierURL (redisTestURL, postgresTestURL).
func startRedisCrawl(t *testing.T, web *simweb.Web, proxy string, n int, frontierURL func(*testing.T) string, lease string) *redisCrawl {
	t.Helper()
	c := &redisCrawl{t: t, bin: stages(t), dsn: frontierURL(t), dir: t.TempDir()}
	seeds, err := web.Seeds("forestry")
	if err != nil {
		t.Fatal(err)
	}
	seedFile := filepath.Join(c.dir, "seeds.txt")
	if err := os.WriteFile(seedFile, []byte(strings.Join(seeds, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	profile, _ := filepath.Abs("../../examples/topics/forestry.yaml")
	add := exec.Command("bash", "-c", `"$1/seed" urls "$2" | "$1/seed" add -q --db "$3"`, "add", c.bin, seedFile, c.dsn)
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("adding the seeds: %v\n%s", err, out)
	}
	for i := 0; i < n; i++ {
		w := &crawlWorker{archive: filepath.Join(c.dir, fmt.Sprintf("w%d.jsonl", i)), done: make(chan error, 1)}
		w.cmd = exec.Command("bash", "../../scripts/crawl.sh", profile, "", c.dsn, itoa(redisPages))
		w.cmd.Env = append(os.Environ(),
			"BIN="+c.bin, "LINKS=shark", "ARCHIVE="+w.archive, "LEASE="+lease, "IN_FLIGHT="+itoa(redisInFlight),
			fmt.Sprintf("FETCH_FLAGS=-q --proxy %s --delay 0 --max-crawl-delay 50ms --backoff 100ms --max-backoff 1s --user-agent worker%d", proxy, i),
			"SEGMENT_FLAGS=-q", "SCORE_FLAGS=-q", "ADD_FLAGS=-q", "NEXT_FLAGS=-q --host-limit "+itoa(redisPerHost))
		w.cmd.Stderr = &w.stderr
		w.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := w.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { w.done <- w.cmd.Wait() }()
		c.workers = append(c.workers, w)
	}
	return c
}

// wait waits for every worker but the killed ones.
func (c *redisCrawl) wait(skip map[int]bool) {
	for i, w := range c.workers {
		if skip[i] {
			continue
		}
		select {
		case err := <-w.done:
			if err != nil {
				c.t.Fatalf("worker %d: %v\n%s", i, err, w.stderr.String())
			}
		case <-time.After(4 * time.Minute):
			syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
			c.t.Fatalf("worker %d did not finish\n%s", i, w.stderr.String())
		}
	}
}

// eval measures the workers' archives against the truth.
func (c *redisCrawl) eval(web *simweb.Web) simweb.Eval {
	ev, err := web.NewEvaluator("forestry", redisPages+redisInFlight)
	if err != nil {
		c.t.Fatal(err)
	}
	for _, w := range c.workers {
		f, err := os.Open(w.archive)
		if err != nil {
			continue // a killed worker may have archived nothing
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var r struct {
				URL string `json:"url"`
			}
			if json.Unmarshal(sc.Bytes(), &r) == nil && r.URL != "" {
				ev.Add(r.URL)
			}
		}
		f.Close()
	}
	return ev.Result()
}

// TestRedisFourWorkers runs four crawl.sh pipes against one Redis
// frontier on simweb, kills one of them with SIGKILL mid-crawl, and
// checks what a crawl shared by several machines promises: no host ever
// fetched by more workers at once than --host-limit, no URL fetched twice
// beyond the killed worker's in-flight window, nothing the killed worker
// held lost, and a harvest within noise of one worker's crawl of the same
// budget with the same flags.
func TestRedisFourWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls 800 pages through the real stages")
	}
	checkFourWorkers(t, redisTestURL, "3s")
}

// checkFourWorkers is TestRedisFourWorkers on the shared frontier that
// frontierURL makes.
func checkFourWorkers(t *testing.T, frontierURL func(*testing.T) string, lease string) {
	web := simweb.New(simweb.Config{Seed: 1, NoFaults: true})
	mon := newHostMonitor(web.Handler())
	srv := httptest.NewServer(mon)
	defer srv.Close()

	start := time.Now()
	one := startRedisCrawl(t, web, srv.URL, 1, frontierURL, lease)
	one.wait(nil)
	single := one.eval(web)
	t.Logf("one worker: %d pages, harvest %.3f, in %v", single.Pages, single.Harvest, time.Since(start).Round(time.Millisecond))

	mon = newHostMonitor(web.Handler())
	srv.Config.Handler = mon
	start = time.Now()
	four := startRedisCrawl(t, web, srv.URL, 4, frontierURL, lease)
	// Kill worker 3, its whole pipe, once the crawl is well under way.
	victim := four.workers[3]
	deadline := time.Now().Add(2 * time.Minute)
	for mon.pages() < redisPages/4 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if err := syscall.Kill(-victim.cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-victim.done
	killedAt := mon.pages()
	four.wait(map[int]bool{3: true})
	t.Logf("worker 3 killed after %d pages; %d pages in all, in %v", killedAt, mon.pages(), time.Since(start).Round(time.Millisecond))

	mon.mu.Lock()
	defer mon.mu.Unlock()
	for host, n := range mon.maxHost {
		if n > redisPerHost {
			t.Errorf("host %s had %d requests in flight at once, want at most %d (--host-limit)", host, n, redisPerHost)
		}
	}
	twice := 0
	for u, n := range mon.byURL {
		if n > 1 {
			twice += n - 1
			t.Logf("fetched %d times: %s", n, u)
		}
	}
	if twice > redisInFlight {
		t.Errorf("%d repeated fetches, want at most the killed worker's in-flight window (%d)", twice, redisInFlight)
	}

	// Nothing the killed worker held is lost: each of its URLs is done,
	// or queued again (its lease ran out). Requests for URLs the frontier
	// never held are redirect hops. Asked until none is leased or the
	// lease has run out twice over (the lease had sometimes run out by the
	// time the crawl ended: a fixed wait of the lease cost up to 8 s).
	leaseFor, err := time.ParseDuration(lease)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := frontier.Open(context.Background(), four.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	store, ok := fs.(interface {
		State(context.Context, string) (frontier.State, bool, error)
	})
	if !ok {
		t.Fatalf("a %T tells no URL's state", fs)
	}
	stillLeased := func() (held []string) {
		for _, u := range mon.byWorker["worker3"] {
			st, ok, err := store.State(context.Background(), u)
			if err != nil {
				t.Fatal(err)
			}
			if ok && st == frontier.Leased {
				held = append(held, u)
			}
		}
		return held
	}
	waited := time.Now()
	held := stillLeased()
	for deadline := time.Now().Add(2 * leaseFor); len(held) > 0 && time.Now().Before(deadline); held = stillLeased() {
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("the killed worker's URLs asked after for %v", time.Since(waited).Round(time.Millisecond))
	for _, u := range held {
		t.Errorf("%s, fetched by the killed worker, is still leased: lost", u)
	}
	if len(mon.byWorker["worker3"]) == 0 {
		t.Errorf("the killed worker fetched nothing: the test proves nothing")
	}

	multi := four.eval(web)
	t.Logf("four workers: %d pages, harvest %.3f", multi.Pages, multi.Harvest)
	if multi.Pages < redisPages*8/10 {
		t.Errorf("four workers archived %d pages, want about %d", multi.Pages, redisPages)
	}
	if multi.Harvest < single.Harvest-0.1 {
		t.Errorf("four workers' harvest %.3f, one worker's %.3f: more than noise apart", multi.Harvest, single.Harvest)
	}
}
