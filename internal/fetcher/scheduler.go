package fetcher

import (
	"container/heap"
	"errors"
	"time"

	"github.com/temoto/robotstxt"
)

// jobKind says what a worker does with a job.
type jobKind int

const (
	jobPage   jobKind = iota // fetch the item's URL
	jobRobots                // fetch robots.txt of origin
	jobFail                  // emit the item's error without a request
)

// job is one unit of work handed to a worker.
type job struct {
	kind   jobKind
	it     *item
	host   *host
	origin string
	err    error // for jobFail
	// delay is the host's delay when the job left, for its gate.
	delay time.Duration
}

// doneEvent reports a finished network job to the scheduler.
type doneEvent struct {
	host   *host
	origin string
	// robots is set by a robots job: the parsed file, or nil when the
	// origin is to be treated as disallowing everything until expires,
	// for the reason in robotsErr.
	robots    *robotstxt.RobotsData
	robotsErr error
	// robotsRules are the rules of robots that may apply to us, for the
	// message of a disallowed URL ("" when too long to carry).
	robotsRules string
	expires     time.Time
	// retry is an item to queue again at the front after wait.
	retry *item
	// redirect is an item aimed at a redirect target, to queue at the
	// front of the target's host.
	redirect *item
	// wait delays every request to the host (backoff or Retry-After).
	wait time.Duration
}

// robotsEntry is the cached robots.txt of one origin.
type robotsEntry struct {
	loading bool
	data    *robotstxt.RobotsData // nil: disallow all (5xx, unreachable)
	err     error                 // with data nil: why
	rules   string                // robotsRulesMessage of data
	expires time.Time
	delay   time.Duration // Crawl-delay for our agent, capped
}

// host is the politeness state of one host.
type host struct {
	key    string
	queue  []*item
	active int
	// next is the earliest start of the next request.
	next  time.Time
	delay time.Duration
	index int // in the scheduler's heap; -1 when not in it
	gate  *gate
}

// scheduler owns all per-host state; only its goroutine touches it.
type scheduler struct {
	f       *Fetcher
	hosts   map[string]*host
	robots  map[string]*robotsEntry
	ready   hostHeap // hosts that may start a request at their next time
	fails   []job    // jobs without a request, sent first
	pending *job     // the network job waiting for a worker
	queued  int      // items in host queues
	active  int      // network jobs sent or pending
	timer   *time.Timer
}

func newScheduler(f *Fetcher) *scheduler {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &scheduler{f: f, hosts: map[string]*host{}, robots: map[string]*robotsEntry{}, timer: t}
}

// loop runs until the fetcher stops.
func (s *scheduler) loop() {
	sweep := time.NewTicker(10 * time.Second)
	defer sweep.Stop()
	for {
		s.fill()
		var jobs chan job
		var next job
		switch {
		case len(s.fails) > 0:
			jobs, next = s.f.jobs, s.fails[0]
		case s.pending != nil:
			jobs, next = s.f.jobs, *s.pending
		}
		submit := s.f.submit
		if s.queued+len(s.fails) >= s.f.cfg.Queue {
			submit = nil // back-pressure: stop taking input
		}
		s.f.stats.hostsWaiting.Store(int64(s.ready.Len()))
		s.f.stats.queued.Store(int64(s.queued))
		select {
		case jobs <- next:
			if len(s.fails) > 0 {
				s.fails[0] = job{}
				s.fails = s.fails[1:]
			} else {
				s.sent(s.pending)
				s.pending = nil
			}
		case it := <-submit:
			s.add(it)
		case ev := <-s.f.done:
			s.finished(ev)
		case <-s.timer.C:
		case <-sweep.C:
			s.sweep()
		case <-s.f.canceled:
			s.dropCanceled()
		case <-s.f.stop:
			return
		}
	}
}

// add queues a new item on its host.
func (s *scheduler) add(it *item) {
	t, err := parseTarget(it.u.URL)
	if err != nil {
		s.fails = append(s.fails, job{kind: jobFail, it: it, err: err})
		return
	}
	it.target = t
	it.first = t.url.String()
	s.enqueue(it, false)
}

// enqueue queues an item with a parsed target on its host, at the back,
// or at the front for a redirect hop (it has waited its turn already).
func (s *scheduler) enqueue(it *item, front bool) {
	t := it.target
	if !s.f.cfg.IgnoreRobots {
		// A URL a cached robots.txt forbids need not wait for its host.
		if r := s.robots[t.origin]; r != nil && !r.loading && time.Now().Before(r.expires) &&
			!r.allows(t.robotsPath(), s.f.token) {
			s.fails = append(s.fails, job{kind: jobFail, it: it, err: r.denial()})
			return
		}
	}
	h := s.hosts[t.host]
	if h == nil {
		h = &host{key: t.host, index: -1, delay: s.f.cfg.Delay, gate: &gate{}}
		s.hosts[t.host] = h
	}
	if front {
		h.queue = append([]*item{it}, h.queue...)
	} else {
		h.queue = append(h.queue, it)
	}
	s.queued++
	s.update(h)
}

// fill prepares the next network job, if a host is ready, moving items
// that need no request (robots-blocked, cancelled) to fails.
func (s *scheduler) fill() {
	now := time.Now()
	for s.pending == nil && s.ready.Len() > 0 {
		h := s.ready[0]
		if h.next.After(now) {
			s.timer.Reset(h.next.Sub(now))
			return
		}
		it := h.queue[0]
		if err := it.ctx.Err(); err != nil {
			s.popFail(h, errorCanceled)
			continue
		}
		if s.f.cfg.IgnoreRobots {
			s.take(h, job{kind: jobPage, it: it, host: h})
			continue
		}
		r := s.robots[it.target.origin]
		if r != nil && !r.loading && now.After(r.expires) {
			delete(s.robots, it.target.origin)
			r = nil
		}
		switch {
		case r == nil:
			s.robots[it.target.origin] = &robotsEntry{loading: true}
			h.active++
			s.active++
			s.pending = &job{kind: jobRobots, host: h, origin: it.target.origin, delay: h.delay}
			s.update(h)
		case r.loading:
			s.update(h) // waits for the robots job
		case !r.allows(it.target.robotsPath(), s.f.token):
			s.popFail(h, r.denial())
		default:
			if r.delay > h.delay {
				h.delay = r.delay
			}
			s.take(h, job{kind: jobPage, it: it, host: h})
		}
	}
}

// take pops the host's first item into the pending network job.
func (s *scheduler) take(h *host, j job) {
	h.queue[0] = nil
	h.queue = h.queue[1:]
	s.queued--
	h.active++
	s.active++
	j.delay = h.delay
	s.pending = &j
	s.update(h)
}

// popFail pops the host's first item as a job without a request.
func (s *scheduler) popFail(h *host, err error) {
	it := h.queue[0]
	h.queue[0] = nil
	h.queue = h.queue[1:]
	s.queued--
	s.fails = append(s.fails, job{kind: jobFail, it: it, err: err})
	s.update(h)
}

// sent records that a network job left for a worker: the next request to
// its host waits for the delay from now.
func (s *scheduler) sent(j *job) {
	h := j.host
	h.next = time.Now().Add(h.delay)
	s.update(h)
}

// finished handles a worker's report on a network job.
func (s *scheduler) finished(ev doneEvent) {
	h := ev.host
	h.active--
	s.active--
	now := time.Now()
	if s.f.cfg.PerHost == 1 {
		// One at a time: the delay runs from the end of the request.
		if n := now.Add(h.delay); n.After(h.next) {
			h.next = n
		}
	}
	if ev.origin != "" {
		e := &robotsEntry{data: ev.robots, err: ev.robotsErr, rules: ev.robotsRules, expires: ev.expires}
		if ev.robots != nil {
			e.delay = min(ev.robots.FindGroup(s.f.token).CrawlDelay, s.f.cfg.MaxCrawlDelay)
			if e.delay > h.delay {
				h.delay = e.delay
				h.next = now.Add(h.delay)
			}
		}
		s.robots[ev.origin] = e
		if len(s.robots) > maxRobotsEntries {
			s.shrinkRobots(now)
		}
	}
	if ev.wait > 0 {
		if n := now.Add(ev.wait); n.After(h.next) {
			h.next = n
		}
	}
	if ev.retry != nil {
		h.queue = append([]*item{ev.retry}, h.queue...)
		s.queued++
	}
	s.update(h)
	if ev.redirect != nil {
		s.enqueue(ev.redirect, true)
	}
}

// update puts h in the ready heap when it has work it may start (now or
// later), and takes it out otherwise.
func (s *scheduler) update(h *host) {
	want := len(h.queue) > 0 && h.active < s.f.cfg.PerHost
	if want && !s.f.cfg.IgnoreRobots {
		if r := s.robots[h.queue[0].target.origin]; r != nil && r.loading {
			want = false
		}
	}
	switch {
	case want && h.index < 0:
		heap.Push(&s.ready, h)
	case want:
		heap.Fix(&s.ready, h.index)
	case h.index >= 0:
		heap.Remove(&s.ready, h.index)
	}
}

// sweep forgets idle hosts and expired robots.txt entries, so a long
// crawl over many hosts does not grow without bound. A host is forgotten
// only once its delay has passed; if it comes back, its crawl delay is
// taken again from the cached robots.txt.
func (s *scheduler) sweep() {
	now := time.Now()
	for k, h := range s.hosts {
		if len(h.queue) == 0 && h.active == 0 && !h.next.After(now) {
			delete(s.hosts, k)
		}
	}
	for k, r := range s.robots {
		if !r.loading && now.After(r.expires) {
			delete(s.robots, k)
		}
	}
}

// maxRobotsEntries caps the robots.txt cache: a crawl over millions of
// hosts must not keep millions of parsed files for their whole TTL.
const maxRobotsEntries = 10000

// shrinkRobots drops expired entries, then, if the cache is still full,
// about a tenth of the others (map order is random enough); an origin
// dropped while still in use simply has its robots.txt fetched again.
func (s *scheduler) shrinkRobots(now time.Time) {
	for k, r := range s.robots {
		if !r.loading && now.After(r.expires) {
			delete(s.robots, k)
		}
	}
	drop := len(s.robots) - maxRobotsEntries*9/10
	for k, r := range s.robots {
		if drop <= 0 {
			break
		}
		if !r.loading {
			delete(s.robots, k)
			drop--
		}
	}
}

// dropCanceled moves every queued item whose context ended out of the
// host queues, so a cancelled Run need not wait for slow hosts' turns.
func (s *scheduler) dropCanceled() {
	for _, h := range s.hosts {
		kept := h.queue[:0]
		for _, it := range h.queue {
			if it.ctx.Err() != nil {
				s.fails = append(s.fails, job{kind: jobFail, it: it, err: errorCanceled})
				s.queued--
			} else {
				kept = append(kept, it)
			}
		}
		clear(h.queue[len(kept):])
		h.queue = kept
		s.update(h)
	}
}

// allows tells whether the robots.txt entry lets agent fetch path.
// denial is the error of a URL the entry does not allow.
func (r *robotsEntry) denial() error {
	switch {
	case r.data == nil && r.err != nil:
		return r.err
	case r.data == nil:
		return errors.New(KindRobotsUnreachable)
	case r.rules != "":
		return errors.New(r.rules)
	}
	return errors.New(KindRobotsDisallow)
}

func (r *robotsEntry) allows(path, agent string) bool {
	if r.data == nil {
		return false
	}
	return r.data.TestAgent(path, agent)
}

// hostHeap orders hosts by the time they may next start a request.
type hostHeap []*host

func (q hostHeap) Len() int           { return len(q) }
func (q hostHeap) Less(i, j int) bool { return q[i].next.Before(q[j].next) }
func (q hostHeap) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}
func (q *hostHeap) Push(x any) {
	h := x.(*host)
	h.index = len(*q)
	*q = append(*q, h)
}
func (q *hostHeap) Pop() any {
	old := *q
	h := old[len(old)-1]
	old[len(old)-1] = nil
	h.index = -1
	*q = old[:len(old)-1]
	return h
}
