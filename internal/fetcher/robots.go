package fetcher

import (
	"context"
	"net/http"
	"time"

	"github.com/temoto/robotstxt"
)

// maxRobotsBytes is how much of a robots.txt is read (RFC 9309 asks
// crawlers to parse at least 500 KiB).
const maxRobotsBytes = 512 << 10

// fetchRobots fetches and parses the robots.txt of origin, per RFC 9309:
// 2xx is parsed; 4xx (and a redirect chain that does not end) allows
// everything; 5xx or no answer disallows everything for RobotsErrorTTL.
func (f *Fetcher) fetchRobots(j job) doneEvent {
	origin := j.origin
	ev := doneEvent{host: j.host, origin: origin}
	now := time.Now()
	ctx, cancel := context.WithTimeout(f.base, f.cfg.Timeout)
	defer cancel()
	ctx = withGate(ctx, j.host.gate, j.delay)
	f.stats.robotsFetched.Add(1)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, origin+"/robots.txt", nil)
	if err != nil {
		ev.expires = now.Add(f.cfg.RobotsErrorTTL)
		return ev
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
		f.warnf("robots.txt of %s: %s; disallowing the host for %v", origin, msg, f.cfg.RobotsErrorTTL)
		ev.expires = now.Add(f.cfg.RobotsErrorTTL)
		return ev
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode >= 500:
		drain(resp.Body)
		f.warnf("robots.txt of %s: http %d; disallowing the host for %v", origin, resp.StatusCode, f.cfg.RobotsErrorTTL)
		ev.expires = now.Add(f.cfg.RobotsErrorTTL)
		return ev
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
		f.warnf("robots.txt of %s: %s; disallowing the host for %v", origin, msg, f.cfg.RobotsErrorTTL)
		ev.expires = now.Add(f.cfg.RobotsErrorTTL)
		return ev
	}
	data, err := robotstxt.FromBytes(buf.Bytes())
	if err != nil {
		// Unparsable rules are no rules (RFC 9309 parsers skip bad lines).
		data = allowAll()
	}
	ev.robots, ev.expires = data, now.Add(f.cfg.RobotsTTL)
	return ev
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
