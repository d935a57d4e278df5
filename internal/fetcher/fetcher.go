package fetcher

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/warc"
)

// ExchangeWriter receives every HTTP exchange, for --warc.
// *warc.Writer implements it.
type ExchangeWriter interface {
	WriteExchange(warc.Exchange) error
}

var _ ExchangeWriter = (*warc.Writer)(nil)

// Fetcher fetches URLs politely. It is safe for concurrent use; Fetch and
// Run calls share its workers, per-host queues and robots.txt cache.
// Close releases its goroutines and connections.
type Fetcher struct {
	cfg    Config
	client *http.Client // pages: redirects recorded and limited
	robotC *http.Client // robots.txt: up to 5 redirects
	tr     *http.Transport
	token  string // the User-Agent's product token, for robots.txt
	stats  *Stats

	// big holds a token per big body being read (see bigBody).
	big    chan struct{}
	submit chan *item
	jobs   chan job
	done   chan doneEvent
	stop   chan struct{}
	// base is cancelled by Close; robots.txt fetches run under it.
	base       context.Context
	cancelBase context.CancelFunc
	// canceled asks the scheduler to drop queued items whose context ended.
	canceled chan struct{}
	wg       sync.WaitGroup
	closed   sync.Once
	// warcErr keeps the first WARC write error, reported once.
	warcMu  sync.Mutex
	warcErr error
}

// item is one URL on its way to a page.
type item struct {
	ctx      context.Context
	u        record.URL
	target   target
	attempts int
	deliver  func(record.Page)
	// started is when the first attempt started (zero until then).
	started time.Time
	// first is the first URL requested; hops the redirect targets since,
	// and setCookie whether the response to each request set a cookie.
	first     string
	hops      []string
	setCookie []bool
	// bigSlot says the item holds a big-body slot (see bigBody).
	bigSlot bool
	// resource, when set, makes the item a browser's subresource request
	// (FetchResource): the raw answer goes there, redirects are not
	// followed; header holds the request headers passed on.
	resource *Resource
	header   http.Header
}

// New builds a Fetcher and starts its workers.
func New(cfg Config) (*Fetcher, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	tr, err := newTransport(cfg)
	if err != nil {
		return nil, err
	}
	f := &Fetcher{
		cfg:    cfg,
		tr:     tr,
		token:  productToken(cfg.UserAgent),
		stats:  newStats(),
		big:    make(chan struct{}, maxBigBodies(cfg)),
		submit: make(chan *item),
		jobs:   make(chan job),
		done:   make(chan doneEvent, cfg.Concurrency),
		stop:   make(chan struct{}),

		canceled: make(chan struct{}, 1),
	}
	f.base, f.cancelBase = context.WithCancel(context.Background())
	var rt http.RoundTripper = tr
	if cfg.WARC != nil {
		rt = &warcTransport{base: tr, f: f}
	}
	// Redirects are not followed inside the client: each hop goes back
	// through the scheduler (see follow).
	f.client = &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	if cfg.Cookies {
		// One in-memory session for the run, as a browser keeps it.
		f.client.Jar = newBoundedJar()
	}
	f.robotC = &http.Client{Transport: rt, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errTooManyRedirects
		}
		return nil
	}}
	s := newScheduler(f)
	f.wg.Add(1 + cfg.Concurrency)
	go func() { defer f.wg.Done(); s.loop() }()
	for i := 0; i < cfg.Concurrency; i++ {
		go func() { defer f.wg.Done(); f.work() }()
	}
	return f, nil
}

// maxBigBodies is how many bodies over bigBody are read at once: enough
// for throughput on big pages, few enough that their buffers (the body,
// and the decoded text) stay within a few hundred MB at 10 MiB each.
func maxBigBodies(cfg Config) int {
	return max(2, min(cfg.Concurrency, 8))
}

// Config returns the configuration in use, defaults filled in.
func (f *Fetcher) Config() Config { return f.cfg }

// Stats gives the live counters, for progress lines and summaries.
func (f *Fetcher) Stats() *Stats { return f.stats }

// Close stops the workers and closes idle connections. Calls of Fetch and
// Run must have returned.
func (f *Fetcher) Close() error {
	f.closed.Do(func() {
		close(f.stop)
		f.cancelBase()
		f.wg.Wait()
		f.tr.CloseIdleConnections()
	})
	return f.WARCError()
}

// WARCError reports the first error writing the WARC file, if any.
func (f *Fetcher) WARCError() error {
	f.warcMu.Lock()
	defer f.warcMu.Unlock()
	return f.warcErr
}

// Fetch fetches one URL, politely: it waits its turn in its host's queue.
// It never fails; errors are in the page's Error field. When ctx ends
// first it returns a page with Error "canceled".
func (f *Fetcher) Fetch(ctx context.Context, u record.URL) record.Page {
	reply := make(chan record.Page, 1)
	if !f.enqueue(ctx, u, func(p record.Page) { reply <- p }) {
		return f.count(failed(u, time.Now(), errorCanceled))
	}
	select {
	case p := <-reply:
		return p
	case <-ctx.Done():
		f.notifyCanceled()
		return <-reply
	}
}

// Run fetches every URL received from in and sends one page per URL on
// out, in completion order, then closes out. It returns when in is closed
// and every page has been sent. When ctx is cancelled it stops reading in,
// abandons requests in flight, and still sends a page (Error "canceled")
// for every URL it had received, including any a producer hands over
// within a short grace period.
func (f *Fetcher) Run(ctx context.Context, in <-chan record.URL, out chan<- record.Page) {
	defer close(out)
	var wg sync.WaitGroup
	deliver := func(p record.Page) {
		out <- p
		wg.Done()
	}
	for {
		select {
		case u, ok := <-in:
			if !ok {
				wg.Wait()
				return
			}
			wg.Add(1)
			if !f.enqueue(ctx, u, deliver) {
				deliver(f.count(failed(u, time.Now(), errorCanceled)))
			}
			continue
		case <-ctx.Done():
		}
		break
	}
	f.notifyCanceled()
	// Take what producers still hand over, then wait for the rest.
	grace := time.NewTimer(graceDrain)
	defer grace.Stop()
	for {
		select {
		case u, ok := <-in:
			if !ok {
				wg.Wait()
				return
			}
			wg.Add(1)
			deliver(f.count(failed(u, time.Now(), errorCanceled)))
			grace.Reset(graceDrain)
		case <-grace.C:
			wg.Wait()
			return
		}
	}
}

// graceDrain is how long Run keeps taking input after cancellation.
const graceDrain = 200 * time.Millisecond

// enqueue hands u to the scheduler. It reports false when ctx ended or the
// fetcher closed first.
func (f *Fetcher) enqueue(ctx context.Context, u record.URL, deliver func(record.Page)) bool {
	f.stats.input.Add(1)
	if u.Error != "" {
		// An error record upstream (a line too long to read): passed on
		// as an error page, so the frontier closes the URL.
		deliver(f.count(failed(u, time.Now(), errors.New(u.Error))))
		return true
	}
	it := &item{ctx: ctx, u: u, deliver: func(p record.Page) { deliver(f.count(p)) }}
	select {
	case f.submit <- it:
		return true
	case <-ctx.Done():
	case <-f.stop:
	}
	return false
}

// count adds a finished page to the statistics.
func (f *Fetcher) count(p record.Page) record.Page {
	f.stats.add(&p)
	return p
}

func (f *Fetcher) notifyCanceled() {
	select {
	case f.canceled <- struct{}{}:
	default:
	}
}
