package fetcher

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/temoto/robotstxt"

	"github.com/focuscrawl/focuscrawl/internal/robotsrules"
)

// maxRobotsBytes is how much of a robots.txt is read (RFC 9309 asks
// crawlers to parse at least 500 KiB).
const maxRobotsBytes = 512 << 10

// fetchRobots fetches and parses the robots.txt of origin, per RFC 9309:
// 2xx is parsed; 4xx (and a redirect chain that does not end) allows
// everything; 5xx or no answer disallows everything for RobotsErrorTTL,
// and the URLs of the origin fail with the reason (robotsFailure).
func (f *Fetcher) fetchRobots(j job) doneEvent {
	origin := j.origin
	ev := doneEvent{host: j.host, origin: origin}
	now := time.Now()
	ctx, cancel := context.WithTimeout(f.base, f.cfg.Timeout)
	defer cancel()
	ctx = withGate(ctx, j.host.gate, j.delay)
	f.stats.robotsFetched.Add(1)
	disallow := func(reason string) doneEvent {
		if k := ErrorKind(reason); k == KindProxy || k == KindCanceled {
			// The proxy is down, or the run is ending: not the host's
			// doing. The origin's URLs fail with that error, and the
			// host is not blamed.
			ev.robotsErr, ev.expires = errors.New(reason), now.Add(f.cfg.RobotsErrorTTL)
			return ev
		}
		ev.robotsErr = robotsFailure(reason)
		ev.expires = now.Add(f.cfg.RobotsErrorTTL)
		f.warnf("robots.txt of %s: %s; disallowing the host for %v", origin, reason, f.cfg.RobotsErrorTTL)
		return ev
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, origin+"/robots.txt", nil)
	if err != nil {
		return disallow(KindInvalid + ": " + err.Error())
	}
	req.Header.Set("User-Agent", f.cfg.UserAgent)
	req.Header.Set("Accept-Encoding", acceptEncoding)
	resp, err := f.robotC.Do(req)
	if err != nil {
		msg, _ := describe(err)
		if _, blocked := blockedMessage(err); blocked || ErrorKind(msg) == KindRedirect {
			// A blocked address: the page request is refused at its own
			// dial, with a record that says why.
			ev.robots, ev.expires = allowAll(), now.Add(f.cfg.RobotsTTL)
			return ev
		}
		return disallow(msg)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode >= 500:
		drain(resp.Body)
		msg, _ := statusFailure(resp)
		return disallow(msg)
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		drain(resp.Body)
		ev.robots, ev.expires = allowAll(), now.Add(f.cfg.RobotsTTL)
		return ev
	}
	buf := getBuffer()
	defer putBuffer(buf)
	_, cut, err := readBody(resp, maxRobotsBytes, buf, nil)
	if err == nil && cut {
		f.robotsCut(origin)
	}
	if err != nil {
		msg, _ := describe(err)
		return disallow(msg)
	}
	data, err := robotstxt.FromBytes(buf.Bytes())
	if err != nil {
		// Unparsable rules are no rules (RFC 9309 parsers skip bad lines).
		data = allowAll()
	} else {
		ev.robotsRules = robotsRulesMessage(buf.Bytes(), f.token)
	}
	ev.robots, ev.expires = data, now.Add(f.cfg.RobotsTTL)
	return ev
}

// robotsFailure is the error of the URLs of an origin whose robots.txt
// could not be fetched, from the message of that failure. A DNS or
// connection failure keeps its own kind (the host is down, robots.txt or
// not), and so does an address refused as blocked; anything else (5xx, a
// timeout, a broken answer) is robots-unreachable.
func robotsFailure(msg string) error {
	switch ErrorKind(msg) {
	case KindDNS, KindConnect, KindBlocked:
		kind := ErrorKind(msg)
		return errors.New(kind + ": robots.txt: " + strings.TrimLeft(strings.TrimPrefix(msg, kind), ": "))
	}
	return errors.New(KindRobotsUnreachable + ": " + msg)
}

func allowAll() *robotstxt.RobotsData {
	d, _ := robotstxt.FromStatusAndBytes(http.StatusNotFound, nil)
	return d
}

func (f *Fetcher) warnf(format string, args ...any) {
	if f.cfg.Warnf != nil {
		f.cfg.Warnf(format, args...)
	}
}

// robotsRulesMessage is the error of a URL the robots.txt body disallows:
// the kind and the rules that may apply to us, for the frontier to learn.
func robotsRulesMessage(body []byte, token string) string {
	return robotsrules.Message(body, token)
}
