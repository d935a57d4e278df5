package frontier

import (
	"errors"
	"math"
)

// The lease plan's rule for one host: how many of its URLs one lease call
// may take. It is a pure function of the request and what the store knows
// of the host (HostLoad); the SQLite and PostgreSQL stores call it as
// they walk their queues, and the Redis store before its lease script,
// which checks that the facts it was computed on still hold
// (redis_lease.go; TestLeaseRoomStoresAgree holds the three to one
// answer).

// HostLoad is what a lease call knows of one host.
type HostLoad struct {
	// Taken counts the URLs of the host this call took so far.
	Taken int
	// Running counts the host's leases still running, over every worker;
	// Mine those of the worker asking (LeaseRequest.Owner); Workers the
	// workers holding at least one.
	Running, Mine, Workers int
	// Answered tells that a page of the host came back (done or failed).
	Answered bool
	// LastOwner is the worker that leased the host last, at LastLease
	// (Unix ms); both are kept only when leases ask for a HostGap.
	LastOwner int64
	LastLease int64
}

// HostFacts names the facts of HostLoad, beside Taken, that Room reads.
type HostFacts struct {
	Mine     bool `json:"mine"`
	Workers  bool `json:"workers"`
	Last     bool `json:"last"` // LastOwner and LastLease
	Answered bool `json:"answered"`
	Running  bool `json:"running"`
}

// Reads tells which facts of a host Room reads for r, so that a store
// loads only those; under none of its bounds every host has the same
// room.
func (r LeaseRequest) Reads() HostFacts {
	var f HostFacts
	for _, b := range leaseBounds {
		if b.on(r) {
			f = f.or(b.reads)
		}
	}
	return f
}

// Room is how many more URLs of the host this call may take (at least 0;
// math.MaxInt when nothing bounds it): the least that leaseBounds leave.
func (r LeaseRequest) Room(h HostLoad, now int64) int {
	room := math.MaxInt
	for _, b := range leaseBounds {
		if b.on(r) {
			room = min(room, b.room(r, h, now))
		}
	}
	return max(room, 0)
}

// leaseBound is one rule of the lease plan: whether a request asks for
// it, which facts of a host it reads (beside Taken, which every store
// counts), and the room it leaves. Reads and Room both come from this
// table, so what a store must load and what the plan uses cannot part.
type leaseBound struct {
	on    func(r LeaseRequest) bool
	reads HostFacts
	room  func(r LeaseRequest, h HostLoad, now int64) int
}

// holds tells whether the worker asking holds leases of the host, this
// call's included.
func (h HostLoad) holds() bool { return h.Mine+h.Taken > 0 }

var leaseBounds = []leaseBound{
	// PerHost bounds the URLs of the host in one call.
	{
		on:   func(r LeaseRequest) bool { return r.PerHost > 0 },
		room: func(r LeaseRequest, h HostLoad, _ int64) int { return r.PerHost - h.Taken },
	},
	// OwnHostLimit bounds the running leases of the host held by the
	// worker asking, this call's included.
	{
		on:    func(r LeaseRequest) bool { return r.OwnHostLimit > 0 },
		reads: HostFacts{Mine: true},
		room:  func(r LeaseRequest, h HostLoad, _ int64) int { return r.OwnHostLimit - h.Mine - h.Taken },
	},
	// HostLimit bounds the workers holding leases of the host at once: a
	// worker that holds some may take more (its fetcher is polite per
	// host), another waits until fewer than HostLimit workers hold it.
	{
		on:    func(r LeaseRequest) bool { return r.HostLimit > 0 },
		reads: HostFacts{Mine: true, Workers: true},
		room: func(r LeaseRequest, h HostLoad, _ int64) int {
			if !h.holds() && h.Workers >= r.HostLimit {
				return 0
			}
			return math.MaxInt
		},
	},
	// HostGap: a host passes from the worker that leased it last to
	// another only HostGap after that lease, so its delay holds across
	// machines; the worker holding it goes on.
	{
		on:    func(r LeaseRequest) bool { return r.HostGap > 0 },
		reads: HostFacts{Mine: true, Last: true},
		room: func(r LeaseRequest, h HostLoad, now int64) int {
			if !h.holds() && h.LastOwner != 0 && h.LastOwner != r.Owner && now < h.LastLease+r.HostGap.Milliseconds() {
				return 0
			}
			return math.MaxInt
		},
	},
	// FirstContact: a host none of whose pages came back has one URL out
	// at a time, over every worker.
	{
		on:    func(r LeaseRequest) bool { return r.FirstContact },
		reads: HostFacts{Answered: true, Running: true},
		room: func(_ LeaseRequest, h HostLoad, _ int64) int {
			if !h.Answered {
				return 1 - h.Running - h.Taken
			}
			return math.MaxInt
		},
	},
}

// or is the union of two sets of facts.
func (f HostFacts) or(g HostFacts) HostFacts {
	return HostFacts{
		Mine:     f.Mine || g.Mine,
		Workers:  f.Workers || g.Workers,
		Last:     f.Last || g.Last,
		Answered: f.Answered || g.Answered,
		Running:  f.Running || g.Running,
	}
}

// check tells whether a lease of r asks for nothing, or an error when it
// cannot be served.
func (r LeaseRequest) check() (none bool, err error) {
	if r.N <= 0 {
		return true, nil
	}
	if r.For <= 0 {
		return true, errors.New("frontier: lease: the lease length must be positive")
	}
	return false, nil
}
