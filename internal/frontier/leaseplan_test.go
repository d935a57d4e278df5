package frontier

import (
	"math"
	"testing"
	"time"
)

// TestLeaseRoom covers every bound of the lease plan, alone and together.
func TestLeaseRoom(t *testing.T) {
	const now = 10_000
	gap := LeaseRequest{Owner: 7, HostGap: time.Second}
	tests := []struct {
		name string
		r    LeaseRequest
		h    HostLoad
		want int
	}{
		{"no bound", LeaseRequest{}, HostLoad{Running: 50}, math.MaxInt},
		{"per host: room left", LeaseRequest{PerHost: 3}, HostLoad{Taken: 1}, 2},
		{"per host: spent", LeaseRequest{PerHost: 3}, HostLoad{Taken: 3}, 0},
		{"host limit: held by fewer workers", LeaseRequest{Owner: 7, HostLimit: 2}, HostLoad{Running: 9, Workers: 1}, math.MaxInt},
		{"host limit: held by enough others", LeaseRequest{Owner: 7, HostLimit: 2}, HostLoad{Running: 2, Workers: 2}, 0},
		{"host limit: this worker holds it", LeaseRequest{Owner: 7, HostLimit: 1}, HostLoad{Running: 4, Mine: 3, Workers: 2}, math.MaxInt},
		{"host limit: taken in this call", LeaseRequest{Owner: 7, HostLimit: 1, PerHost: 5}, HostLoad{Taken: 2, Running: 0, Workers: 1}, 3},
		{"own host limit: room left", LeaseRequest{Owner: 7, OwnHostLimit: 3}, HostLoad{Mine: 1, Taken: 1, Running: 5, Workers: 3}, 1},
		{"own host limit: spent", LeaseRequest{Owner: 7, OwnHostLimit: 3, PerHost: 9}, HostLoad{Mine: 3, Running: 3, Workers: 1}, 0},
		{"gap: another worker leased it just now", gap, HostLoad{LastOwner: 3, LastLease: now - 500}, 0},
		{"gap: another worker, long ago", gap, HostLoad{LastOwner: 3, LastLease: now - 1000}, math.MaxInt},
		{"gap: this worker leased it last", gap, HostLoad{LastOwner: 7, LastLease: now - 1}, math.MaxInt},
		{"gap: this worker holds it", gap, HostLoad{LastOwner: 3, LastLease: now - 1, Mine: 1, Running: 2, Workers: 2}, math.MaxInt},
		{"gap: never leased", gap, HostLoad{}, math.MaxInt},
		{"first contact: none out", LeaseRequest{FirstContact: true}, HostLoad{}, 1},
		{"first contact: one out", LeaseRequest{FirstContact: true}, HostLoad{Running: 1}, 0},
		{"first contact: one taken", LeaseRequest{FirstContact: true}, HostLoad{Taken: 1}, 0},
		{"first contact: answered", LeaseRequest{FirstContact: true, PerHost: 4}, HostLoad{Answered: true, Running: 3}, 4},
		{"all bounds", LeaseRequest{Owner: 7, PerHost: 4, HostLimit: 1, HostGap: time.Second, FirstContact: true},
			HostLoad{Answered: true, Mine: 1, Running: 1, Workers: 1, LastOwner: 7, LastLease: now}, 4},
	}
	for _, tc := range tests {
		if got := tc.r.Room(tc.h, now); got != tc.want {
			t.Errorf("%s: room %d, want %d", tc.name, got, tc.want)
		}
		// The facts Reads leaves out do not change the room.
		if got := tc.r.Room(masked(tc.h, tc.r.Reads()), now); got != tc.want {
			t.Errorf("%s: room %d with only the facts of Reads %+v, want %d", tc.name, got, tc.r.Reads(), tc.want)
		}
	}
}

// masked keeps of h the facts f names.
func masked(h HostLoad, f HostFacts) HostLoad {
	out := HostLoad{Taken: h.Taken}
	if f.Mine {
		out.Mine = h.Mine
	}
	if f.Workers {
		out.Workers = h.Workers
	}
	if f.Last {
		out.LastOwner, out.LastLease = h.LastOwner, h.LastLease
	}
	if f.Answered {
		out.Answered = h.Answered
	}
	if f.Running {
		out.Running = h.Running
	}
	return out
}
