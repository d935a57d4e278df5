package simweb

import (
	"strconv"
	"strings"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	sim "github.com/focuscrawl/focuscrawl/internal/simweb"
)

// WebOptions choose the simulated web: the same values give the same web
// to every subcommand, so truth and serve agree.
type WebOptions struct {
	Seed  int64
	Sites int // at least sim.MinSites
	// Faults says the web is served and has the timing faults below;
	// without it the web has none (the truth does not depend on them).
	Faults      bool
	SlowLatency time.Duration // delay of a slow host's answers (0: none)
	RateLimit   float64       // requests per second before 429 (> 0)
	NoFaults    bool          // no slow hosts, 429s or flaky first answers
}

// NewWeb builds the web o describes; bad values are usage errors that
// name simweb's flags.
func NewWeb(o WebOptions) (*sim.Web, error) {
	if o.Sites < sim.MinSites {
		return nil, cli.Usagef("--sites: %d is under the minimum of %d sites", o.Sites, sim.MinSites)
	}
	cfg := sim.Config{Seed: o.Seed, Sites: o.Sites, NoFaults: true}
	if o.Faults {
		if o.SlowLatency < 0 {
			return nil, cli.Usagef("--slow-latency: %s is negative", o.SlowLatency)
		}
		cfg.SlowLatency = o.SlowLatency
		if o.SlowLatency == 0 {
			cfg.SlowLatency = time.Nanosecond
		}
		cfg.RateLimit = o.RateLimit
		if cfg.RateLimit <= 0 {
			return nil, cli.Usagef("--rate-limit: %v is not a positive number of requests per second", cfg.RateLimit)
		}
		cfg.NoFaults = o.NoFaults
	}
	return sim.New(cfg), nil
}

// CheckTopic says whether t is a topic of the simulated web; "" is one
// only when it is not required.
func CheckTopic(t string, required bool) error {
	switch {
	case t == "" && required:
		return cli.Usagef("missing required flag --sim-topic")
	case t != "" && sim.TopicIndex(t) < 0:
		return cli.Usagef("--sim-topic: %q is not a topic of simweb (%s)", t, strings.Join(sim.Topics, ", "))
	}
	return nil
}

// ParseEvalFlags checks the --format and --at of simweb eval and simweb
// mirror eval, and returns the checkpoints of --at (comma-separated).
func ParseEvalFlags(format, at string) ([]int, error) {
	if format != "json" && format != "text" {
		return nil, cli.Usagef("--format: %q is not json or text", format)
	}
	var out []int
	for _, f := range strings.Split(at, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			return nil, cli.Usagef("--at: %q is not a positive number of pages", f)
		}
		out = append(out, n)
	}
	return out, nil
}
