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
	case Parked:
		return "parked"
	case Waiting:
		return "waiting"
	case Reserve:
		return "reserve"
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
	// Reserve queues the URL in the reserve: a link score pruned (under
	// thresholds.link), leased only when no other URL is queued and no
	// lease of one runs (LeaseRequest.Reserve). A URL queued both ways
	// leaves the reserve.
	Reserve bool
}

// entryMeta is an entry's meta as every store keeps it: its JSON text,
// "" for none (a JSON null is none).
func entryMeta(e *Entry) string {
	if len(e.Meta) == 0 || string(e.Meta) == "null" {
		return ""
	}
	return string(e.Meta)
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
	// Retry says how failed outcomes are retried and hosts parked
	// (nil: DefaultRetryPolicy).
	Retry *RetryPolicy
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
	Queued int // new URLs queued
	// Reserved counts, of Queued, the URLs queued in the reserve.
	Reserved int
	Raised   int // known queued URLs whose priority or depth improved
	Known    int // URLs already known and left as they were
	Done     int // outcomes recorded
	Refused  int // entries refused by the store's own guard (per host)
	// Requeued counts outcomes put back in the queue instead of being
	// recorded: parked with their host, waiting for a retry, cancelled.
	Requeued int
	// Guards counts the entries refused by the state of their host
	// (GuardRobots, GuardHostGivenUp), and queued URLs refused by newly
	// learned robots.txt rules.
	Guards map[string]int64
}

// LeaseRequest asks for the best queued URLs.
type LeaseRequest struct {
	N int // at most N URLs
	// PerHost bounds the URLs of one host in this call (0: no limit): it
	// spreads a lease over hosts.
	PerHost int
	// HostLimit bounds the workers (Owner) holding running leases of one
	// host at once, over every process and machine using the frontier (0:
	// no limit): on a shared frontier no host is fetched by more workers
	// at once, while a worker that holds a host may take more of its URLs
	// (its fetcher is polite per host). Room (leaseplan.go) applies it.
	HostLimit int
	// OwnHostLimit bounds the running leases of one host held by Owner,
	// over this call and the calls before it (0: no limit): a run that
	// leases in several calls bounds its URLs per host over them all.
	OwnHostLimit int
	For          time.Duration // lease length
	Owner        int64         // who holds the lease (counted by Holding)
	// HostGap keeps a host that passes from one worker to another
	// unleased until HostGap after its last lease, so its delay holds
	// across machines; the worker holding it is not held back.
	HostGap time.Duration
	// FirstContact holds a host none of whose pages came back yet to one
	// URL out at a time, so a host that turns out down costs one lease
	// (seed next --follow sets it).
	FirstContact bool
	// Reserve lets the lease take URLs of the reserve (Entry.Reserve),
	// best first, when no other URL is queued and no lease of one runs,
	// over every worker: the reserve never goes out before a URL above
	// it, whatever the per-host bounds, and never while a page that may
	// bring one is out.
	Reserve bool
}

// Counts are the cheap counts a follower polls.
type Counts struct {
	// Queued tells whether any URL is queued or held by an expired lease.
	Queued bool
	// Leased tells whether any URL is held by a lease still running.
	Leased bool
	// Reserve tells whether any URL is queued in the reserve (Queued
	// leaves them out).
	Reserve bool
	// Requeued counts, over the life of the frontier, the leased URLs that
	// came back without a page and were put back in the queue (Applied.
	// Requeued): a page budget counted in leases takes them off.
	Requeued int64
}

// Progress is how far a crawl has gone, over all its workers.
type Progress struct {
	Fetched int64 // URLs done or failed, as in Stats
	Running int64 // leases running
}

// Store is a crawl frontier: every store (SQLite, Redis) offers all of
// it, so callers need no type assertions; what differs between stores is
// declared by Capabilities. Implementations are safe for use by several
// processes at once (seed next and seed add in one pipe).
type Store interface {
	Queue
	Reader
	HostAdmin
	Graph
	Learner
	// Capabilities tells what this store can and cannot do.
	Capabilities() Capabilities
	// Close releases the store.
	Close() error
}

// Queue is the crawl loop's side of a store: recording, leasing, counting.
type Queue interface {
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
}

// Reader is what seed stats and seed report read.
type Reader interface {
	// Stats summarises the frontier: the counts always, the lists that
	// q asks for.
	Stats(ctx context.Context, q StatsQuery) (*Stats, error)
	// History calls fn for every URL fetched, in the order fetched;
	// seed report draws its curves from it.
	History(ctx context.Context, fn func(Fetched) error) error
	// Info and SetInfo read and record facts about the crawl (topic,
	// strategies) under the Info* keys.
	Info(ctx context.Context) (map[string]string, error)
	SetInfo(ctx context.Context, kv map[string]string) error
}

// Graph is what score --db reads: the scores of pages crawled, the link
// graph, and the pages judged so far for a learned model.
type Graph interface {
	// PageScores gives the page score of each of urls crawled and scored.
	PageScores(ctx context.Context, urls []string) (map[string]float64, error)
	// Edges calls fn for every link recorded from a crawled page.
	Edges(ctx context.Context, fn func(record.Edge) error) error
	// Replay calls fn for every page crawled and judged, in fetch order,
	// with the link that led to it.
	Replay(ctx context.Context, fn func(record.Replay) error) error
}

// Learner is the frontier's feedback from the crawl (URL classes,
// classes.go): SetLearning fails with ErrNoClassRanking on a store whose
// Capabilities say it cannot re-rank.
type Learner interface {
	SetLearning(ctx context.Context, l *Learning) error
	Learning(ctx context.Context) (*Learning, error)
}

// Capabilities is what a store declares about itself.
type Capabilities struct {
	// Kind names the store: "sqlite", "redis", "postgres".
	Kind string
	// ClassRanking: the store re-ranks queued URLs by their URL class's
	// record (Learning with a weight), for the learned strategies.
	ClassRanking bool
	// Shared: workers on several machines may share the frontier.
	Shared bool
	// Durable: the frontier is on disk, whatever the server's settings
	// (a Redis frontier lasts only as its server's persistence does).
	Durable bool
}

// StatsQuery says which of the lists of Stats to make beside the counts
// (states, depths, fetched, relevant, hosts, links, refusals, expired
// leases, parked hosts), which come always. The lists cost more on a big
// frontier, and a caller that polls for counts (a progress line) asks for
// none: seed stats --brief.
type StatsQuery struct {
	// TopHosts is the number of hosts with the most URLs to list
	// (Stats.TopHosts); 0 lists none.
	TopHosts int
	// ErrorKinds counts the failed URLs by kind of error (Stats.Errors,
	// nil when false): it reads every failed URL's error, on Redis one
	// record per failed URL.
	ErrorKinds bool
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
	// Unfetched counts failed URLs never fetched: refused by robots.txt
	// rules learned after they were queued, or held by a host given up.
	// Fetched leaves them out.
	Unfetched int64 `json:"failed_unfetched"`
	// Requeued counts leased URLs that came back without a page and were
	// put back: parked with their host, waiting for a retry, cancelled.
	Requeued int64 `json:"requeued"`
	// ParkedHosts are the hosts whose URLs are held, parked or given up.
	ParkedHosts []ParkedHost `json:"parked_hosts"`
	// FetchedReserve counts, of Fetched, the pages whose URL was in the
	// reserve when it was fetched.
	FetchedReserve int64 `json:"fetched_reserve"`
	// Errors counts the failed URLs by kind of error (ErrorKind: "http
	// 404", "connect", "robots-disallow", …), the kinds seed requeue
	// --error takes; nil unless StatsQuery.ErrorKinds asked for them.
	Errors map[string]int64 `json:"errors"`
	// RequeuedErrors counts, by host and kind, the failures seed requeue
	// queued again: the error history it took off those URLs.
	RequeuedErrors []ErrorCount `json:"requeued_errors,omitempty"`
}

// DepthStat counts pages fetched at one depth.
type DepthStat struct {
	Depth    int   `json:"depth"`
	Fetched  int64 `json:"fetched"`
	Relevant int64 `json:"relevant"`
	Queued   int64 `json:"queued"`
	Reserve  int64 `json:"reserve"`
}

// HostStat counts the URLs of one host.
type HostStat struct {
	Host     string `json:"host"`
	URLs     int64  `json:"urls"`
	Fetched  int64  `json:"fetched"`
	Relevant int64  `json:"relevant"`
}

// HostAdmin is what a store offers to look at and act on host state:
// seed peek, seed requeue and the parked-host summary of seed next.
type HostAdmin interface {
	// Peek lists the next n URLs in lease order without leasing them.
	Peek(ctx context.Context, n int) ([]QueuedURL, error)
	// Requeue puts failed URLs back and releases parked hosts.
	Requeue(ctx context.Context, f RequeueFilter) (Requeued, error)
	// ParkedSummary counts the parked hosts, their URLs, and the next probe.
	ParkedSummary(ctx context.Context) (hosts, urls int64, next time.Time, err error)
}
