package frontier

import "fmt"

// The reserve. score marks a link pruned when its priority is under the
// profile's thresholds.link: not worth following while better links wait.
// Dropping those links ends a crawl early when its focus runs out (a
// portal whose anchors name packages, not topics: every link pruned, one
// page fetched), though a page budget is left and links remain. Queued in
// the reserve instead, they form a second tier under the queue: a lease
// takes them, best first, only when no other URL is queued and no lease of
// one runs (LeaseRequest.Reserve) — so a reserve URL never goes out before
// a URL above the threshold, whatever the per-host bounds, first contact
// or host gaps let through, and never while a page that may bring such a
// URL is still out. A URL queued both ways (a pruned link and a kept one)
// leaves the reserve for the queue.
//
// Each store keeps the tier with the URL through every state, so a reserve
// URL whose lease runs out, whose host is parked or that waits for a retry
// comes back to the reserve: the SQLite store in the urls.reserve column
// (its queue index orders by it first), the Redis store in the record's
// RES field, with its queued reserve URLs in a queue of their own (state
// Reserve: r:HOST and rh, beside q:HOST and hq).

// Reserve is the state of a URL queued in the reserve, as Stats, the
// frontier view and State name it. The SQLite store keeps such a URL
// queued (state 0) with urls.reserve = 1; the Redis store in state 6.
const Reserve State = 6

// PrunedLinks says what seed add does with the links score marked pruned.
type PrunedLinks int

const (
	// PrunedReserve queues them in the reserve (the default).
	PrunedReserve PrunedLinks = iota
	// PrunedQueue queues them like any other link (the old --keep-pruned).
	PrunedQueue
	// PrunedDrop refuses them, counted under GuardPruned (the behaviour
	// before the reserve).
	PrunedDrop
)

// PrunedLinksValues are the words of seed add --pruned, in the order of
// the constants.
var PrunedLinksValues = []string{"reserve", "queue", "drop"}

func (p PrunedLinks) String() string {
	if p >= 0 && int(p) < len(PrunedLinksValues) {
		return PrunedLinksValues[p]
	}
	return fmt.Sprintf("PrunedLinks(%d)", int(p))
}

// ParsePrunedLinks reads a word of PrunedLinksValues.
func ParsePrunedLinks(s string) (PrunedLinks, error) {
	for i, v := range PrunedLinksValues {
		if s == v {
			return PrunedLinks(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not reserve, queue or drop", s)
}
