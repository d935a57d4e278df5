package dedup

import (
	"fmt"
	"math"
)

// Policy chooses which copy of a group of duplicates is kept.
type Policy int

// The keep policies.
const (
	// KeepFirst keeps the copy that came first.
	KeepFirst Policy = iota
	// KeepLongest keeps the copy with the longest content.
	KeepLongest
	// KeepBestScore keeps the copy with the highest relevance score.
	KeepBestScore
	// KeepNewest keeps the copy with the latest publication time.
	KeepNewest
)

var policyNames = []string{"first", "longest", "best-score", "newest"}

// ParsePolicy reads a --keep value.
func ParsePolicy(s string) (Policy, error) {
	for i, n := range policyNames {
		if s == n {
			return Policy(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not first, longest, best-score or newest", s)
}

func (p Policy) String() string {
	if int(p) < len(policyNames) {
		return policyNames[p]
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// better tells whether a should replace b as the kept copy under p. Ties
// keep the earlier copy.
func (p Policy) better(a, b *Item) bool {
	switch p {
	case KeepLongest:
		return a.Length > b.Length
	case KeepBestScore:
		return a.Rec.Score > b.Rec.Score
	case KeepNewest:
		return a.Published.After(b.Published)
	}
	return false
}

// value is the quantity the policy maximises (0 for first).
func (p Policy) value(it *Item) float64 {
	switch p {
	case KeepLongest:
		return float64(it.Length)
	case KeepBestScore:
		return it.Rec.Score
	case KeepNewest:
		if it.Published.IsZero() {
			return math.Inf(-1)
		}
		return float64(it.Published.Unix())
	}
	return 0
}

// Methods of near-duplicate detection.
const (
	MethodSimHash = "simhash"
	MethodEuclid  = "euclid"
)

// Options configures a Deduper.
type Options struct {
	// K is the Hamming radius of near-duplicates by SimHash (default 3
	// when Method is simhash).
	K int
	// Method is MethodSimHash or MethodEuclid.
	Method string
	// CandidateK is the Hamming radius of the SimHash candidates that
	// --method euclid measures (default 8).
	CandidateK int
	// MaxDistance is the Euclidean distance of unit TF-IDF vectors under
	// which --method euclid calls two texts duplicates.
	MaxDistance float64
	// Keep is the keep policy.
	Keep Policy
	// Window is how many more documents a group is held for before it is
	// emitted, so later copies can still join it (and, with a policy other
	// than first, replace its kept copy). A negative Window holds every
	// group until Flush: exact policies at the cost of memory.
	Window int
	// MinTokens: texts with fewer tokens are matched by URL and exact
	// hash only; their SimHash says too little.
	MinTokens int
	// CanonicalGuard: a match found only through a doc's canonical link is
	// ignored when both texts have fingerprints further apart than this
	// (a misconfigured canonical link is not evidence of a duplicate).
	CanonicalGuard int
	// EmitDups makes the Deduper return the dropped copies too.
	EmitDups bool
}

// DefaultOptions are the defaults of dedupe's flags.
func DefaultOptions() Options {
	return Options{K: 3, Method: MethodSimHash, CandidateK: 8, MaxDistance: 0.45,
		Window: 2000, MinTokens: 8, CanonicalGuard: 20}
}

func (o *Options) check() error {
	switch o.Method {
	case "", MethodSimHash:
		o.Method = MethodSimHash
		if o.K < 0 || o.K > MaxK {
			return fmt.Errorf("-k %d: must be in 0..%d", o.K, MaxK)
		}
	case MethodEuclid:
		if o.CandidateK < 0 || o.CandidateK > MaxK {
			return fmt.Errorf("candidate radius %d: must be in 0..%d", o.CandidateK, MaxK)
		}
		if o.MaxDistance <= 0 || o.MaxDistance > 2 {
			return fmt.Errorf("euclid distance %g: must be in (0, 2]", o.MaxDistance)
		}
	default:
		return fmt.Errorf("method %q is not simhash or euclid", o.Method)
	}
	return nil
}

// radius is the Hamming radius the index must answer.
func (o *Options) radius() int {
	if o.Method == MethodEuclid {
		return o.CandidateK
	}
	return o.K
}
