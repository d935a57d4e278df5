package frontier

import (
	"fmt"
	"strings"
	"time"
)

// The host policy: what an outcome does to its host and to its URL. These
// are pure functions of (host status, URL facts, outcome, retry policy,
// now); every store loads the inputs, calls them and stores the result,
// so the rules are written once, here, and tested as a table
// (hostpolicy_test.go). A store that needs atomicity on a server (Redis)
// computes the step in Go and has its script check that the inputs did
// not change before it writes.

// HostMode is where a host stands after its failures. The numbers are
// stored (host_state.parked, the Redis host record).
type HostMode int

// The host modes.
const (
	HostUp      HostMode = 0 // answering, or never failed
	HostParked  HostMode = 1 // down: its URLs wait for a probe to pass
	HostGivenUp HostMode = 2 // stayed down through its probes: its URLs fail
)

// HostStatus is the failure state of one host. Times are Unix
// milliseconds, as the stores keep them.
type HostStatus struct {
	Mode   HostMode
	Reason string // the error that parked it, or made the last probe fail
	Since  int64  // when it was parked
	// RetryAt is when it is next probed; Wait the wait before that probe.
	RetryAt, Wait int64
	Tries         int // failed probes since it was parked
	Timeouts      int // timeouts in a row
}

// Clean tells whether the status holds nothing worth keeping: up, and no
// timeout counted.
func (h HostStatus) Clean() bool { return h.Mode == HostUp && h.Timeouts == 0 }

// URLFacts is what a store knows of the URL an outcome came back for.
type URLFacts struct {
	Known bool  // the URL is in the frontier
	State State // its state, when known
	Tries int   // its transient failures so far
	// IsProbe tells that the URL is the probe of the host its failure
	// speaks for (that host is parked and leased this URL to test it).
	IsProbe bool
	// OtherHost tells that the failure speaks for another host than the
	// URL's own: a redirect into a host that is down.
	OtherHost bool
}

// HostChange is what a step does to a host beyond its status.
type HostChange int

// The host changes.
const (
	HostKept  HostChange = iota // status unchanged: nothing to write
	HostSaved                   // status changed: write it
	// HostParkedNow: the host was parked by this step: write its status
	// and hold its queued (reserve included) and waiting URLs as Parked.
	HostParkedNow
	// HostGaveUpNow: the host was given up by this step: write its
	// status and fail every held URL (queued, reserve, parked, waiting)
	// and the probe with Step.GiveUpError. They were never fetched.
	HostGaveUpNow
)

// URLAction is what becomes of the URL an outcome came back for.
type URLAction int

// The URL actions.
const (
	// URLRecord records the outcome as it came: done, or failed with its
	// error, and counted as fetched.
	URLRecord URLAction = iota
	// URLPutBack returns the URL to the queue in Step.State (Queued,
	// Parked, or Waiting until Step.RetryAt), adding Step.AddTries to its
	// tries and keeping Step.Error. It is not counted as fetched.
	URLPutBack
	// URLSettledByHost: the host's give-up (HostGaveUpNow) fails the URL
	// with the others; it is not counted as fetched.
	URLSettledByHost
)

// Step is what one outcome does.
type Step struct {
	Host       HostStatus
	HostChange HostChange
	// ClearProbe tells the store to forget the host's probe URL.
	ClearProbe bool
	// GiveUpError is the error the URLs of a host given up fail with.
	GiveUpError string

	Action   URLAction
	State    State // URLPutBack: Queued, Parked or Waiting
	RetryAt  int64 // URLPutBack to Waiting: when it is queued again
	AddTries int
	Error    string // the error a put-back URL keeps
	// LearnRobots: the outcome is a robots-disallow that may carry the
	// host's rules; the store learns them (and records the URL).
	LearnRobots bool
}

// Answered is what a page that came back from its host (any answer,
// errors of http included) does to the host's status: a host that
// answers is up. Changed tells whether the status must be written;
// unpark whether the host's parked URLs go back to the queue.
func Answered(h HostStatus) (next HostStatus, changed, unpark bool) {
	if h.Clean() {
		return h, false, false
	}
	return HostStatus{}, true, h.Mode != HostUp
}

// HostAnswered tells whether an outcome's error (or none) shows that its
// host answered: a page, or an http status.
func HostAnswered(msg string) bool {
	return msg == "" || strings.HasPrefix(ErrorKind(msg), "http ")
}

// OutcomeStep says what an outcome with error msg does to the host its
// failure speaks for (status h) and to its URL (facts u). An outcome
// without error, or with an error trying again will not mend, is
// recorded as it came.
func OutcomeStep(h HostStatus, u URLFacts, msg string, p RetryPolicy, now int64) Step {
	s := Step{Host: h}
	kind := classify(msg)
	switch kind {
	case failNone, failPermanent:
		return s
	case failDisallow:
		s.LearnRobots = true
		return s
	}
	if !u.Known || u.State == Done || u.State == Failed {
		return s // unknown, or recorded already: record as it comes
	}
	if kind == failCanceled {
		s.Action, s.State = URLPutBack, Queued // never tried: as it was
		return s
	}
	if kind == failTimeout {
		s.Host.Timeouts++
		if p.ParkAfterTimeouts > 0 && s.Host.Timeouts >= p.ParkAfterTimeouts {
			kind = failHostDown
		} else {
			s.HostChange = HostSaved
			kind = failTransient
		}
	}
	if kind == failTransient {
		return s.retry(u, msg, p, now)
	}
	// The host is down.
	switch h.Mode {
	case HostUp:
		w := wait(p.HostBackoff, p.HostMaxBackoff, 0).Milliseconds()
		s.Host = HostStatus{Mode: HostParked, Reason: msg, Since: now, Wait: w, RetryAt: now + w}
		s.HostChange, s.ClearProbe = HostParkedNow, true
	case HostParked:
		if u.IsProbe {
			// The probe failed: wait twice as long, or give the host up.
			s.Host.Tries++
			s.Host.Reason, s.ClearProbe = msg, true
			if p.HostTries > 0 && s.Host.Tries >= p.HostTries {
				s.Host.Mode, s.Host.RetryAt = HostGivenUp, 0
				s.HostChange, s.Action = HostGaveUpNow, URLSettledByHost
				s.GiveUpError = GiveUpError(s.Host)
				return s
			}
			s.Host.Wait = wait(p.HostBackoff, p.HostMaxBackoff, s.Host.Tries).Milliseconds()
			s.Host.RetryAt = now + s.Host.Wait
			s.HostChange = HostSaved
		}
	case HostGivenUp:
		return s // the URL fails with its error
	}
	if u.OtherHost {
		// A redirect into a host that is down: the URL's own host is up.
		return s.retry(u, msg, p, now)
	}
	s.Action, s.State, s.Error = URLPutBack, Parked, msg
	return s
}

// NeedsHost tells whether OutcomeStep's answer for u and msg depends on
// the status of a host: when it does not (the outcome is recorded as it
// came, or a cancelled fetch goes back as it was), a store need not load
// one, and passes a zero HostStatus.
func NeedsHost(u URLFacts, msg string) bool {
	switch classify(msg) {
	case failNone, failPermanent, failDisallow, failCanceled:
		return false
	}
	return u.Known && u.State != Done && u.State != Failed
}

// retry puts the URL in the waiting state for its next try, or records
// it failed when it has had its retries.
func (s Step) retry(u URLFacts, msg string, p RetryPolicy, now int64) Step {
	if u.Tries >= p.Retries {
		return s
	}
	s.Action, s.State, s.AddTries, s.Error = URLPutBack, Waiting, 1, msg
	s.RetryAt = now + wait(p.Backoff, p.MaxBackoff, u.Tries).Milliseconds()
	return s
}

// GiveUpError is the error the URLs of a host given up fail with.
func GiveUpError(h HostStatus) string {
	return fmt.Sprintf("%s (host given up after %d tries)", h.Reason, h.Tries)
}

// ProbeSent is a parked host's status once the store has queued one of
// its held URLs as a probe (at its retry time, with no URL of it out):
// should the probe never come back, the next goes out after the same
// wait, and never sooner than a second.
func ProbeSent(h HostStatus, now int64) HostStatus {
	h.RetryAt = now + max(h.Wait, probeMinWait.Milliseconds())
	return h
}

// probeMinWait is the least wait before a parked host is probed again
// while its probe is out.
const probeMinWait = time.Second
