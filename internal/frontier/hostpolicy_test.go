package frontier

import (
	"testing"
	"time"
)

// TestOutcomeStep covers every transition of the host policy: each kind
// of outcome, against each host mode and each thing a URL can be.
func TestOutcomeStep(t *testing.T) {
	p := RetryPolicy{Retries: 2, Backoff: 10 * time.Second, MaxBackoff: 30 * time.Second,
		HostBackoff: time.Minute, HostMaxBackoff: 3 * time.Minute, HostTries: 3, ParkAfterTimeouts: 2}
	const now = 1_000_000
	up := HostStatus{}
	parked := HostStatus{Mode: HostParked, Reason: "dns: x", Since: 500, RetryAt: 900, Wait: 60_000, Tries: 1}
	lastTry := HostStatus{Mode: HostParked, Reason: "dns: x", Since: 500, RetryAt: 900, Wait: 120_000, Tries: 2}
	givenUp := HostStatus{Mode: HostGivenUp, Reason: "dns: x (host given up after 3 tries)", Since: 500, Tries: 3}
	oneTimeout := HostStatus{Timeouts: 1}
	leased := URLFacts{Known: true, State: Leased}
	probe := URLFacts{Known: true, State: Leased, IsProbe: true}
	redirected := URLFacts{Known: true, State: Leased, OtherHost: true}
	spent := URLFacts{Known: true, State: Leased, Tries: 2}
	once := URLFacts{Known: true, State: Leased, Tries: 1}

	record := func(h HostStatus) Step { return Step{Host: h} }
	tests := []struct {
		name string
		h    HostStatus
		u    URLFacts
		msg  string
		want Step
	}{
		{"page", up, leased, "", record(up)},
		{"page of a parked host: Answered's business", parked, leased, "", record(parked)},
		{"http 404 is recorded", up, leased, "http 404", record(up)},
		{"tls error is recorded", parked, probe, "tls: bad certificate", record(parked)},
		{"robots-disallow: learn the rules, record", up, leased, "robots-disallow", Step{Host: up, LearnRobots: true}},
		{"unknown URL: record", up, URLFacts{}, "dns: x", record(up)},
		{"done already: record", up, URLFacts{Known: true, State: Done}, "http 503", record(up)},
		{"failed already: record", up, URLFacts{Known: true, State: Failed}, "connect: refused", record(up)},
		{"canceled: back as it was", up, leased, "canceled", Step{Host: up, Action: URLPutBack, State: Queued}},
		{"canceled, parked host untouched", parked, probe, "canceled", Step{Host: parked, Action: URLPutBack, State: Queued}},
		{"503: wait 10 s", up, leased, "http 503",
			Step{Host: up, Action: URLPutBack, State: Waiting, RetryAt: now + 10_000, AddTries: 1, Error: "http 503"}},
		{"429 on the second try: wait 20 s", up, once, "http 429",
			Step{Host: up, Action: URLPutBack, State: Waiting, RetryAt: now + 20_000, AddTries: 1, Error: "http 429"}},
		{"network error, retries spent: record", up, spent, "network: reset", record(up)},
		{"first timeout: counted, retried", up, leased, "timeout: slow",
			Step{Host: oneTimeout, HostChange: HostSaved, Action: URLPutBack, State: Waiting, RetryAt: now + 10_000, AddTries: 1, Error: "timeout: slow"}},
		{"first timeout, retries spent: counted, recorded", up, spent, "timeout: slow",
			Step{Host: oneTimeout, HostChange: HostSaved}},
		{"second timeout in a row parks the host", oneTimeout, leased, "timeout: slow",
			Step{Host: HostStatus{Mode: HostParked, Reason: "timeout: slow", Since: now, Wait: 60_000, RetryAt: now + 60_000},
				HostChange: HostParkedNow, ClearProbe: true, Action: URLPutBack, State: Parked, Error: "timeout: slow"}},
		{"dns failure parks an up host", up, leased, "dns: no such host",
			Step{Host: HostStatus{Mode: HostParked, Reason: "dns: no such host", Since: now, Wait: 60_000, RetryAt: now + 60_000},
				HostChange: HostParkedNow, ClearProbe: true, Action: URLPutBack, State: Parked, Error: "dns: no such host"}},
		{"robots unreachable parks the host", up, leased, "robots-unreachable: http 503",
			Step{Host: HostStatus{Mode: HostParked, Reason: "robots-unreachable: http 503", Since: now, Wait: 60_000, RetryAt: now + 60_000},
				HostChange: HostParkedNow, ClearProbe: true, Action: URLPutBack, State: Parked, Error: "robots-unreachable: http 503"}},
		{"redirect into a down host: parks it, the URL retries", up, redirected, "connect: refused",
			Step{Host: HostStatus{Mode: HostParked, Reason: "connect: refused", Since: now, Wait: 60_000, RetryAt: now + 60_000},
				HostChange: HostParkedNow, ClearProbe: true, Action: URLPutBack, State: Waiting, RetryAt: now + 10_000, AddTries: 1, Error: "connect: refused"}},
		{"redirect into a down host, retries spent: record", up, URLFacts{Known: true, State: Leased, OtherHost: true, Tries: 2}, "connect: refused",
			Step{Host: HostStatus{Mode: HostParked, Reason: "connect: refused", Since: now, Wait: 60_000, RetryAt: now + 60_000},
				HostChange: HostParkedNow, ClearProbe: true}},
		{"parked host, not the probe: held, host untouched", parked, leased, "connect: refused",
			Step{Host: parked, Action: URLPutBack, State: Parked, Error: "connect: refused"}},
		{"parked host, the probe fails: wait twice as long", parked, probe, "connect: refused",
			Step{Host: HostStatus{Mode: HostParked, Reason: "connect: refused", Since: 500, Tries: 2, Wait: 180_000, RetryAt: now + 180_000},
				HostChange: HostSaved, ClearProbe: true, Action: URLPutBack, State: Parked, Error: "connect: refused"}},
		{"parked host, the last probe fails: given up", lastTry, probe, "connect: refused",
			Step{Host: HostStatus{Mode: HostGivenUp, Reason: "connect: refused", Since: 500, Tries: 3, Wait: 120_000},
				HostChange: HostGaveUpNow, ClearProbe: true, GiveUpError: "connect: refused (host given up after 3 tries)",
				Action: URLSettledByHost}},
		{"parked host, the probe's first timeout: counted, the probe retried", parked, probe, "timeout: slow",
			Step{Host: HostStatus{Mode: HostParked, Reason: "dns: x", Since: 500, RetryAt: 900, Wait: 60_000, Tries: 1, Timeouts: 1},
				HostChange: HostSaved, Action: URLPutBack, State: Waiting, RetryAt: now + 10_000, AddTries: 1, Error: "timeout: slow"}},
		{"parked host, the probe's second timeout counts as down", HostStatus{Mode: HostParked, Reason: "dns: x", Since: 500, Wait: 60_000, Tries: 1, Timeouts: 1}, probe, "timeout: slow",
			Step{Host: HostStatus{Mode: HostParked, Reason: "timeout: slow", Since: 500, Tries: 2, Timeouts: 2, Wait: 180_000, RetryAt: now + 180_000},
				HostChange: HostSaved, ClearProbe: true, Action: URLPutBack, State: Parked, Error: "timeout: slow"}},
		{"given-up host: the URL fails with its error", givenUp, leased, "dns: x", record(givenUp)},
	}
	for _, tc := range tests {
		if got := OutcomeStep(tc.h, tc.u, tc.msg, p, now); got != tc.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
}

// TestOutcomeStepPolicyBounds checks the policy's limits: backoff capped,
// no parking on timeouts when ParkAfterTimeouts is 0, never giving up
// when HostTries is 0.
func TestOutcomeStepPolicyBounds(t *testing.T) {
	p := RetryPolicy{Retries: 9, Backoff: 10 * time.Second, MaxBackoff: 25 * time.Second,
		HostBackoff: time.Minute, HostMaxBackoff: 90 * time.Second}
	s := OutcomeStep(HostStatus{}, URLFacts{Known: true, State: Leased, Tries: 5}, "http 500", p, 0)
	if s.RetryAt != 25_000 {
		t.Errorf("backoff after 5 tries = %d ms, want the 25,000 ms cap", s.RetryAt)
	}
	s = OutcomeStep(HostStatus{Timeouts: 40}, URLFacts{Known: true, State: Leased}, "timeout: x", p, 0)
	if s.HostChange != HostSaved || s.Host.Mode != HostUp || s.Host.Timeouts != 41 {
		t.Errorf("timeouts park a host with ParkAfterTimeouts 0: %+v", s)
	}
	h := HostStatus{Mode: HostParked, Tries: 50, Wait: 90_000}
	s = OutcomeStep(h, URLFacts{Known: true, State: Leased, IsProbe: true}, "dns: x", p, 0)
	if s.HostChange != HostSaved || s.Host.Mode != HostParked || s.Host.Wait != 90_000 {
		t.Errorf("a host given up with HostTries 0, or its wait uncapped: %+v", s)
	}
}

func TestAnsweredAndProbe(t *testing.T) {
	for _, tc := range []struct {
		h               HostStatus
		changed, unpark bool
	}{
		{HostStatus{}, false, false},
		{HostStatus{Timeouts: 1}, true, false},
		{HostStatus{Mode: HostParked, Reason: "dns", Tries: 2, Wait: 5}, true, true},
		{HostStatus{Mode: HostGivenUp, Reason: "dns", Tries: 6}, true, true},
	} {
		next, changed, unpark := Answered(tc.h)
		if changed != tc.changed || unpark != tc.unpark {
			t.Errorf("Answered(%+v): changed %v unpark %v, want %v %v", tc.h, changed, unpark, tc.changed, tc.unpark)
		}
		if next != (HostStatus{}) && changed {
			t.Errorf("Answered(%+v) = %+v, want a clean status", tc.h, next)
		}
	}
	if got := ProbeSent(HostStatus{Mode: HostParked, Wait: 200}, 5000).RetryAt; got != 6000 {
		t.Errorf("a probe with a 200 ms wait goes again at %d, want no sooner than a second: 6000", got)
	}
	if got := ProbeSent(HostStatus{Mode: HostParked, Wait: 60_000}, 5000).RetryAt; got != 65_000 {
		t.Errorf("ProbeSent retry = %d, want 65000", got)
	}
	for msg, want := range map[string]bool{"": true, "http 404": true, "http 503": true, "dns: x": false,
		"timeout: x": false, "robots-unreachable: http 503": false} {
		if HostAnswered(msg) != want {
			t.Errorf("HostAnswered(%q) = %v, want %v", msg, !want, want)
		}
	}
}

func TestNeedsHost(t *testing.T) {
	leased := URLFacts{Known: true, State: Leased}
	for _, tc := range []struct {
		u    URLFacts
		msg  string
		want bool
	}{
		{leased, "", false}, {leased, "http 404", false}, {leased, "robots-disallow", false},
		{leased, "canceled", false}, {URLFacts{}, "dns: x", false}, {URLFacts{Known: true, State: Done}, "http 503", false},
		{leased, "dns: x", true}, {leased, "http 503", true}, {leased, "timeout: x", true},
		{URLFacts{Known: true, State: Queued}, "network: x", true},
	} {
		if got := NeedsHost(tc.u, tc.msg); got != tc.want {
			t.Errorf("NeedsHost(%+v, %q) = %v, want %v", tc.u, tc.msg, got, tc.want)
		}
		if !tc.want {
			// The answer must not depend on the host, as NeedsHost promises.
			p := DefaultRetryPolicy()
			a := OutcomeStep(HostStatus{}, tc.u, tc.msg, p, 7)
			b := OutcomeStep(HostStatus{Mode: HostParked, Tries: 1, Wait: 9}, tc.u, tc.msg, p, 7)
			if a.Action != b.Action || a.State != b.State || a.HostChange != b.HostChange {
				t.Errorf("NeedsHost(%+v, %q) is false, but the step depends on the host: %+v vs %+v", tc.u, tc.msg, a, b)
			}
		}
	}
}
