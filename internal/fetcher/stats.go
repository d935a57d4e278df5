package fetcher

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// Stats counts what a Fetcher did. It is safe for concurrent use.
type Stats struct {
	start         time.Time
	input         atomic.Int64
	pages         atomic.Int64
	bytes         atomic.Int64
	retries       atomic.Int64
	robotsFetched atomic.Int64
	// resources counts subresource requests of rendered pages.
	resources atomic.Int64
	// robotsCut counts robots.txt files cut at maxRobotsBytes.
	robotsCut    atomic.Int64
	queued       atomic.Int64
	hostsWaiting atomic.Int64

	mu     sync.Mutex
	errors map[string]int64
}

func newStats() *Stats {
	return &Stats{start: time.Now(), errors: map[string]int64{}}
}

func (s *Stats) add(p *record.Page) {
	s.pages.Add(1)
	s.bytes.Add(p.Bytes)
	if p.Error != "" {
		kind := ErrorKind(p.Error)
		s.mu.Lock()
		s.errors[kind]++
		s.mu.Unlock()
	}
}

// Snapshot is a copy of the counters at one moment.
type Snapshot struct {
	Elapsed       time.Duration
	Input         int64 // URLs received
	Pages         int64 // pages emitted
	Bytes         int64 // body bytes received
	Retries       int64
	RobotsFetched int64
	RobotsCut     int64 // robots.txt files longer than 512 KiB, rules past the cut unread
	Resources     int64 // subresource requests of rendered pages (FetchResource)
	Queued        int64 // URLs waiting in host queues
	HostsWaiting  int64 // hosts with URLs waiting for their turn
	InFlight      int64 // URLs received but not yet emitted
	Errors        map[string]int64
}

// Snapshot copies the counters.
func (s *Stats) Snapshot() Snapshot {
	s.mu.Lock()
	errs := make(map[string]int64, len(s.errors))
	for k, v := range s.errors {
		errs[k] = v
	}
	s.mu.Unlock()
	in, pages := s.input.Load(), s.pages.Load()
	return Snapshot{
		Elapsed: time.Since(s.start), Input: in, Pages: pages, Bytes: s.bytes.Load(),
		Retries: s.retries.Load(), RobotsFetched: s.robotsFetched.Load(), RobotsCut: s.robotsCut.Load(), Resources: s.resources.Load(), Queued: s.queued.Load(),
		HostsWaiting: s.hostsWaiting.Load(), InFlight: in - pages, Errors: errs,
	}
}

// ErrorCount is the number of pages with an error.
func (n Snapshot) ErrorCount() int64 {
	var t int64
	for _, v := range n.Errors {
		t += v
	}
	return t
}

// ErrorSummary lists error kinds by count: "timeout 3, robots 1".
func (n Snapshot) ErrorSummary() string {
	kinds := make([]string, 0, len(n.Errors))
	for k := range n.Errors {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		if n.Errors[kinds[i]] != n.Errors[kinds[j]] {
			return n.Errors[kinds[i]] > n.Errors[kinds[j]]
		}
		return kinds[i] < kinds[j]
	})
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s %d", k, n.Errors[k])
	}
	return strings.Join(parts, ", ")
}
