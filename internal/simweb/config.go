package simweb

import "time"

// Config chooses the simulated web. The zero value of every field but
// Seed means its default.
type Config struct {
	// Seed makes the web: the same seed gives byte-identical pages and truth.
	Seed int64
	// Sites is the number of sites (default 300, minimum 12).
	Sites int
	// SlowLatency is the delay a slow host adds to each response
	// (default 150ms).
	SlowLatency time.Duration
	// RateLimit is the number of requests per second a rate-limited host
	// answers before it says 429 (default 5).
	RateLimit float64
	// RetryAfter is the Retry-After of 429 and 503 answers, in seconds
	// (default 1).
	RetryAfter int
	// NoFaults turns off the behaviours that depend on timing or on
	// earlier requests (slow hosts, 429 rate limits, flaky first answers),
	// for tests of other packages that want a calm web. Static faults
	// (dead hosts, 5xx pages, redirects, traps) stay: they are part of the
	// truth.
	NoFaults bool
}

// DefaultSites is the default number of sites.
const DefaultSites = 300

// MinSites is the smallest web New builds: one site of every kind and a
// few authorities.
const MinSites = 12

func (c Config) withDefaults() Config {
	if c.Sites == 0 {
		c.Sites = DefaultSites
	}
	if c.Sites < MinSites {
		c.Sites = MinSites
	}
	if c.SlowLatency == 0 {
		c.SlowLatency = 150 * time.Millisecond
	}
	if c.RateLimit <= 0 {
		c.RateLimit = 5
	}
	if c.RetryAfter <= 0 {
		c.RetryAfter = 1
	}
	return c
}
