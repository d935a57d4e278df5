package frontier

import (
	"sort"
	"strings"
)

// counterRequeuedError prefixes the counters of the failures seed requeue
// queued again, by host and kind ("requeued.error HOST\tKIND"): the error
// history a requeue takes off the URLs it queues again.
const counterRequeuedError = "requeued.error "

// ErrorCount counts the failures of one kind of error on one host.
type ErrorCount struct {
	Host string `json:"host"`
	Kind string `json:"kind"`
	N    int64  `json:"n"`
}

// requeuedErrorCounter names the counter of the failures of host with the
// error msg that a requeue queued again.
func requeuedErrorCounter(host, msg string) string {
	return counterRequeuedError + host + "\t" + ErrorKind(msg)
}

// requeuedErrorOf reads a counter of requeuedErrorCounter (ok false for
// any other counter).
func requeuedErrorOf(name string, n int64) (ErrorCount, bool) {
	rest, ok := strings.CutPrefix(name, counterRequeuedError)
	if !ok {
		return ErrorCount{}, false
	}
	host, kind, ok := strings.Cut(rest, "\t")
	return ErrorCount{Host: host, Kind: kind, N: n}, ok
}

// sortErrorCounts orders counts by number, largest first, then by host
// and kind.
func sortErrorCounts(cs []ErrorCount) {
	sort.Slice(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.N != b.N {
			return a.N > b.N
		}
		if a.Host != b.Host {
			return a.Host < b.Host
		}
		return a.Kind < b.Kind
	})
}

// errorTally counts failed URLs' errors by kind, for Stats.Errors.
type errorTally map[string]int64

func (t errorTally) add(msg string, n int64) {
	if msg == "" {
		msg = "unknown"
	}
	t[ErrorKind(msg)] += n
}
