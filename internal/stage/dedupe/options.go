package dedupe

import (
	"strconv"
	"strings"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/dedup"
	"github.com/focuscrawl/focuscrawl/internal/kb"
)

// vectorTerms is the number of terms kept of each TF-IDF vector for
// --method euclid.
const vectorTerms = 128

// Options configure a run of the stage; the command's flags fill them.
type Options struct {
	// Dedup is the decision: -k, --method, --keep, --window, --emit-dups …
	Dedup dedup.Options
	// Shingle: SimHash features are single tokens and shingles of this
	// many tokens (1: tokens only).
	Shingle int
	// Words are the dictionary and stop words of --topic; zero for the
	// default tokenizer.
	Words kb.Words
	// Index is the persistent index file (--index), or "".
	Index string
	// Store is the knowledge base file (--store), or "".
	Store string
	// StoreMaxSize caps the knowledge base file in bytes (0: no cap).
	StoreMaxSize int64
	// Errors is the file the docs that carry an error go to (--errors),
	// or "": they are counted and left out.
	Errors string
	// All keeps docs with "relevant": false too.
	All bool
	// Hubs keeps hub pages (segment's page_type "hub": home pages, lists,
	// channel pages) too; knowledge is made of articles otherwise.
	Hubs bool
	// DocTokens fingerprints docs from the tokens they carry.
	DocTokens bool
	// Workers decode and fingerprint (0: GOMAXPROCS).
	Workers int
	// MaxHold writes a held group after this long (0: never).
	MaxHold time.Duration
}

// DefaultOptions are the defaults of the command's flags.
func DefaultOptions() Options {
	return Options{Dedup: dedup.DefaultOptions(), Shingle: 1, DocTokens: true, MaxHold: 10 * time.Second}
}

// ParseWindow reads --window: a number of docs >= 0, or "all" (-1).
func ParseWindow(w string) (int, error) {
	w = strings.TrimSpace(w)
	if w == "all" {
		return -1, nil
	}
	n, err := strconv.Atoi(w)
	if err != nil || n < 0 {
		return 0, cli.Usagef("--window: %q is not a number of docs >= 0 or \"all\"", w)
	}
	return n, nil
}

// Check returns a usage error naming the flag of the first option out of
// range.
func (o *Options) Check() error {
	d := o.Dedup
	switch {
	case d.Method != dedup.MethodSimHash && d.Method != dedup.MethodEuclid:
		return cli.Usagef("--method: %q is not simhash or euclid", d.Method)
	case d.K < 0 || d.K > dedup.MaxK:
		return cli.Usagef("-k %d: must be in 0..%d", d.K, dedup.MaxK)
	case d.CandidateK < 0 || d.CandidateK > dedup.MaxK:
		return cli.Usagef("--candidate-k %d: must be in 0..%d", d.CandidateK, dedup.MaxK)
	case d.MaxDistance <= 0 || d.MaxDistance > 2:
		return cli.Usagef("--max-distance %g: must be in (0, 2]", d.MaxDistance)
	case o.Shingle < 1 || o.Shingle > 8:
		return cli.Usagef("--shingle %d: must be in 1..8", o.Shingle)
	}
	return nil
}
