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
	f.Mine = r.OwnHostLimit > 0 || r.HostLimit > 0 || r.HostGap > 0
	f.Workers = r.HostLimit > 0
	f.Last = r.HostGap > 0
	f.Answered, f.Running = r.FirstContact, r.FirstContact
	return f
}

// Room is how many more URLs of the host this call may take (at least 0;
// math.MaxInt when nothing bounds it):
//   - PerHost bounds the URLs of the host in one call;
//   - OwnHostLimit bounds the running leases of the host held by the
//     worker asking, this call's included;
//   - HostLimit bounds the workers holding leases of the host at once: a
//     worker that holds some may take more (its fetcher is polite per
//     host), another waits until fewer than HostLimit workers hold it;
//   - HostGap: a host passes from the worker that leased it last to
//     another only HostGap after that lease, so its delay holds across
//     machines; the worker holding it goes on;
//   - FirstContact: a host none of whose pages came back has one URL out
//     at a time, over every worker.
func (r LeaseRequest) Room(h HostLoad, now int64) int {
	room := math.MaxInt
	if r.PerHost > 0 {
		room = r.PerHost - h.Taken
	}
	if r.OwnHostLimit > 0 {
		room = min(room, r.OwnHostLimit-h.Mine-h.Taken)
	}
	holds := h.Mine+h.Taken > 0
	if r.HostLimit > 0 && !holds && h.Workers >= r.HostLimit {
		room = 0
	}
	if r.HostGap > 0 && !holds && h.LastOwner != 0 && h.LastOwner != r.Owner && now < h.LastLease+r.HostGap.Milliseconds() {
		room = 0
	}
	if r.FirstContact && !h.Answered {
		room = min(room, 1-h.Running-h.Taken)
	}
	return max(room, 0)
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
