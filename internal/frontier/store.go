package frontier

import (
	"context"
	"errors"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// State is where a URL is in the frontier.
type State int

// The states of a URL. The numbers are stored in the database.
const (
	Queued State = 0 // waiting to be leased
	Leased State = 1 // handed to a fetcher, until its lease expires
	Done   State = 2 // fetched, and its record came back
	Failed State = 3 // came back with an error
)

// String names the state as stats and the frontier view do.
func (s State) String() string {
	switch s {
	case Queued:
		return "queued"
	case Leased:
		return "leased"
	case Done:
		return "done"
	case Failed:
		return "failed"
	}
	return "unknown"
}

// ErrClosed is returned by a store used after Close.
var ErrClosed = errors.New("frontier: store closed")

// Entry is a URL to queue. URL must already be normalised; Host is its
// politeness key and Lineage.Site its site key.
type Entry struct {
	URL  string
	Host string
	record.Lineage
	Meta record.Meta
}

// Outcome is what became of a fetched URL, from a page, doc or scored doc
// record coming back into the frontier.
type Outcome struct {
	URL string
	// FinalURL, when not empty and not URL, is recorded done too, so a
	// redirect target is not fetched again under its own name.
	FinalURL  string
	Host      string
	FinalHost string
	Site      string
	Depth     int
	Status    int
	FetchedAt time.Time
	// Scored tells whether Score and Relevant hold a judgement.
	Scored   bool
	Score    float64
	Relevant bool
	Error    string
}

// Batch is one unit of work for Apply: outcomes to record, entries to
// queue and refusals to count, written in one transaction.
type Batch struct {
	Done  []Outcome
	Queue []Entry
	// Edges are links between pages, kept for strategies that read the
	// link graph (score --db); From and To are URLs.
	Edges []Edge
	// Refused counts the candidates the policy turned away, by guard.
	Refused map[string]int64
	// MaxPerHost refuses a new URL whose host already holds this many
	// URLs (0: no limit). Refusals are counted under GuardMaxPerHost.
	MaxPerHost int64
}

// Edge is a link from one page to another, with the priority it was given.
type Edge struct {
	From, To string
	Priority float64
	Anchor   string
	Context  string
}

// Applied reports what Apply did.
type Applied struct {
	Queued  int // new URLs queued
	Raised  int // known queued URLs whose priority or depth improved
	Known   int // URLs already known and left as they were
	Done    int // outcomes recorded
	Refused int // entries refused by the store's own guard (per host)
}

// LeaseRequest asks for the best queued URLs.
type LeaseRequest struct {
	N int // at most N URLs
	// PerHost bounds the running leases of one host, over every caller
	// and process using the frontier (0: no limit): it spreads a lease
	// over hosts, and on a shared frontier no host is fetched by more
	// workers at once.
	PerHost int
	For     time.Duration // lease length
	Owner   int64         // who holds the lease (counted by Holding)
	// HostGap, on a store shared by several workers (Redis), keeps a host
	// that passes from one worker to another unleased until HostGap after
	// its last fetch, so its delay holds across machines.
	HostGap time.Duration
}

// Counts are the cheap counts a follower polls.
type Counts struct {
	// Queued tells whether any URL is queued or held by an expired lease.
	Queued bool
	// Leased tells whether any URL is held by a lease still running.
	Leased bool
}

// Progress is how far a crawl has gone, over all its workers.
type Progress struct {
	Fetched int64 // URLs done or failed, as in Stats
	Running int64 // leases running
}

// Store is a crawl frontier. Implementations are safe for use by several
// processes at once (seed next and seed add in one pipe).
type Store interface {
	// Apply records a batch in one transaction.
	Apply(ctx context.Context, b Batch) (Applied, error)
	// Lease hands out the best queued URLs, spread across hosts, and marks
	// them leased until now+For. Expired leases are queued again first.
	Lease(ctx context.Context, r LeaseRequest) ([]record.URL, error)
	// Renew extends to until the running leases of owner taken less
	// than maxAge ago.
	Renew(ctx context.Context, owner int64, until time.Time, maxAge time.Duration) (int, error)
	// Holding counts the running leases of owner.
	Holding(ctx context.Context, owner int64) (int, error)
	// Release puts every leased URL back in the queue at once.
	Release(ctx context.Context) (int, error)
	// Counts tells whether anything is queued or leased.
	Counts(ctx context.Context) (Counts, error)
	// Progress counts the URLs fetched and the leases running, over every
	// worker of the crawl (a crawl-wide page budget).
	Progress(ctx context.Context) (Progress, error)
	// Stats summarises the frontier.
	Stats(ctx context.Context, topHosts int) (*Stats, error)
	// History calls fn for every URL fetched, in the order fetched
	// (sqlite_history.go); seed report draws its curves from it.
	History(ctx context.Context, fn func(Fetched) error) error
	// Info and SetInfo read and record facts about the crawl (topic,
	// strategies) under the Info* keys.
	Info(ctx context.Context) (map[string]string, error)
	SetInfo(ctx context.Context, kv map[string]string) error
	// Close releases the store.
	Close() error
}

// Stats is the summary seed stats prints.
type Stats struct {
	States      map[string]int64 `json:"states"`
	Total       int64            `json:"total"`
	Fetched     int64            `json:"fetched"`
	Relevant    int64            `json:"relevant"`
	HarvestRate float64          `json:"harvest_rate"`
	Depths      []DepthStat      `json:"depths"`
	TopHosts    []HostStat       `json:"top_hosts"`
	Hosts       int64            `json:"hosts"`
	Refused     map[string]int64 `json:"refused"`
	Expired     int64            `json:"leases_expired"`
	Edges       int64            `json:"edges"`
}

// DepthStat counts pages fetched at one depth.
type DepthStat struct {
	Depth    int   `json:"depth"`
	Fetched  int64 `json:"fetched"`
	Relevant int64 `json:"relevant"`
	Queued   int64 `json:"queued"`
}

// HostStat counts the URLs of one host.
type HostStat struct {
	Host     string `json:"host"`
	URLs     int64  `json:"urls"`
	Fetched  int64  `json:"fetched"`
	Relevant int64  `json:"relevant"`
}
