package frontier

import (
	"strings"
	"time"
)

// The states of a URL held back by a failure, after Queued … Failed.
const (
	// Parked: its host is down or unreachable (dns, connect, robots.txt
	// unreachable, repeated timeouts); it waits for the host to come back.
	Parked State = 4
	// Waiting: a transient failure (timeout, 5xx, 429, a broken
	// connection); queued again at its retry time.
	Waiting State = 5
)

// Error kinds the frontier acts on: the first word of an outcome's error
// (fetch writes them; docs/records.md lists them all).
const (
	KindDNS               = "dns"
	KindConnect           = "connect"
	KindTimeout           = "timeout"
	KindNetwork           = "network"
	KindRobotsUnreachable = "robots-unreachable"
	KindRobotsDisallow    = "robots-disallow"
	KindBlocked           = "blocked address"
	KindCanceled          = "canceled"
)

// GuardRobots counts URLs refused because their host's robots.txt
// disallows them; GuardHostGivenUp URLs of a host given up as down.
const (
	GuardRobots      = "robots"
	GuardHostGivenUp = "host-given-up"
)

// ErrorKind gives the kind of an error message: the text before the first
// ":" ("http 404", "dns", "robots-disallow"), or "blocked address".
func ErrorKind(msg string) string {
	if strings.HasPrefix(msg, KindBlocked) {
		return KindBlocked
	}
	kind, _, _ := strings.Cut(msg, ":")
	return strings.TrimSpace(kind)
}

// MatchKind tells whether the error msg is of kind: its exact kind, or a
// family: "http" matches "http 503", "5xx" every http 5xx, "4xx" every 4xx.
func MatchKind(msg, kind string) bool {
	k := ErrorKind(msg)
	switch {
	case k == kind:
		return true
	case kind == "http":
		return strings.HasPrefix(k, "http ")
	case len(kind) == 3 && strings.HasSuffix(kind, "xx"):
		return strings.HasPrefix(k, "http "+kind[:1]) && len(k) == len("http 503")
	}
	return false
}

// failure is what an outcome's error means for the URL and its host.
type failure int

const (
	failNone      failure = iota // fetched
	failCanceled                 // never tried: queue it again as it was
	failHostDown                 // the host is down: park it
	failTimeout                  // a timeout: retry; park the host after several in a row
	failTransient                // may pass on another try: retry with backoff
	failDisallow                 // robots.txt forbids it; learn the host's rules
	failPermanent                // trying again will not help
)

// classify says what an error message means.
func classify(msg string) failure {
	if msg == "" {
		return failNone
	}
	k := ErrorKind(msg)
	switch k {
	case KindCanceled:
		return failCanceled
	case KindDNS, KindConnect, KindRobotsUnreachable:
		return failHostDown
	case KindTimeout:
		return failTimeout
	case KindNetwork:
		return failTransient
	case KindRobotsDisallow:
		return failDisallow
	}
	if k == "http 429" || (strings.HasPrefix(k, "http 5") && len(k) == len("http 503")) {
		return failTransient
	}
	return failPermanent
}

// RetryPolicy says how failures are retried: a URL after a transient
// failure, a host after it was parked.
type RetryPolicy struct {
	// Retries is how many times a URL is tried again after a transient
	// failure before it is failed for good (0: never).
	Retries int
	// Backoff is the wait before the first retry, doubled for each next
	// one up to MaxBackoff.
	Backoff, MaxBackoff time.Duration
	// HostBackoff is the wait before a parked host is probed, doubled
	// after each failed probe up to HostMaxBackoff.
	HostBackoff, HostMaxBackoff time.Duration
	// HostTries is how many failed probes give a host up: its URLs are
	// failed with the reason (0: never give up).
	HostTries int
	// ParkAfterTimeouts parks a host after this many timeouts in a row
	// (0: timeouts never park a host).
	ParkAfterTimeouts int
}

// DefaultRetryPolicy is the policy of a Batch that sets none.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{Retries: 2, Backoff: 30 * time.Second, MaxBackoff: 10 * time.Minute,
		HostBackoff: 5 * time.Minute, HostMaxBackoff: 2 * time.Hour, HostTries: 6, ParkAfterTimeouts: 3}
}

// wait is base doubled n times, capped.
func wait(base, limit time.Duration, n int) time.Duration {
	d := base << min(max(n, 0), 30)
	if d <= 0 || (limit > 0 && d > limit) {
		d = limit
	}
	return d
}

// ParkedHost is a host whose URLs are held back because it is down.
type ParkedHost struct {
	Host   string `json:"host"`
	Reason string `json:"reason"`
	// Since is when it was parked; NextRetry when one of its URLs is next
	// leased to probe it (zero when given up).
	Since     time.Time `json:"since"`
	NextRetry time.Time `json:"next_retry,omitzero"`
	// URLs is how many of its URLs are held.
	URLs int64 `json:"urls"`
	// Tries counts the failed probes since it was parked.
	Tries   int  `json:"tries"`
	GivenUp bool `json:"given_up,omitempty"`
}

// QueuedURL is a URL in lease order, as seed peek shows it.
type QueuedURL struct {
	URL      string  `json:"url"`
	Host     string  `json:"host"`
	Priority float64 `json:"priority"`
	Depth    int     `json:"depth"`
	// Tries counts its transient failures so far.
	Tries int `json:"tries,omitempty"`
	// Parked tells that its host is parked: the URL is the probe.
	Parked bool `json:"parked,omitempty"`
	// Reserve tells that the URL is in the reserve (a pruned link).
	Reserve bool `json:"reserve,omitempty"`
}

// RequeueFilter picks the failed URLs and parked hosts Requeue puts back.
type RequeueFilter struct {
	Kind string // error kind (MatchKind); "" for any
	Host string // host; "" for any
}

// Requeued reports what Requeue did.
type Requeued struct {
	URLs  int `json:"urls"`  // failed URLs queued again
	Hosts int `json:"hosts"` // parked or given-up hosts released
	Held  int `json:"held"`  // URLs of those hosts queued again
}
